// `mcp-inspect servers --config <file>`: connects every server of a config file at once and
// reports each one's state, era, tools and errors: a health check of a whole config.

import { commandUsage, type Lines as Output, parseCommand } from "./args.ts";
import { Redactor, redactUrl } from "../../mod.ts";
import {
  ConfigError,
  existingConfigFiles,
  loadConfig,
  type LoadedConfig,
  type ServerConfig,
  ServerManager,
  type ServerStatus,
} from "../manager/mod.ts";
import { oneLine, style, table } from "./format.ts";

export const SERVERS_HELP = `Usage: mcp-inspect servers [--json] [--strict]
       mcp-inspect servers --config <file> [--tools] [--json] [--timeout <ms>] [--strict]

Without --config, lists the servers of every config file in the usual places (./.mcp.json,
.cursor/mcp.json, .vscode/mcp.json, Claude Desktop's, ~/.cursor/mcp.json, ~/.claude.json) with
their transport and origin file; env values and header values are shown as ***.

With --config, connects every server of a config file (Claude Desktop, Claude Code, Cursor or VS Code format) at
once and shows each one's state, protocol, tool count and last error.

Options:
  -c, --config <file>  the config file
  --tools              also list every tool under its qualified name
  --json               print one JSON document
  -t, --timeout <ms>   how long each server may take to connect (default 30000)
  --strict             an unknown key in a config file is an error (exit 2), not a warning

Exit codes: 0 every enabled server is ready; 2 usage or config file error; 3 a server failed.`;

/** Runs `servers`; returns the exit code. */
export async function serversCommand(argv: readonly string[], out: Output): Promise<number> {
  const parsed = parseCommand(
    {
      name: "servers",
      help: SERVERS_HELP,
      options: {
        config: { type: "string", short: "c" },
        tools: { type: "boolean" },
        json: { type: "boolean" },
        timeout: { type: "string", short: "t" },
        strict: { type: "boolean" },
      },
    },
    argv,
    out,
  );
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const strict = values.strict ?? false;
  if (values.config === undefined) return await listServers(out, values.json ?? false, strict);
  const timeoutMs = Number(values.timeout ?? 30_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    return usage(out, `Invalid --timeout "${values.timeout}": expected milliseconds`);
  }
  const err = style(Deno.stderr);
  await using manager = new ServerManager({
    connectTimeoutMs: timeoutMs,
    healthIntervalMs: 0,
    maxReconnectAttempts: 0,
  });
  let loaded: LoadedConfig;
  try {
    loaded = await loadConfig(values.config, { strict });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    out.stderr(`${err.red("error:")} ${error.message}`);
    return 2;
  }
  for (const issue of loaded.issues) out.stderr(`${err.bold("warning:")} ${issue.message}`);
  for (const warning of loaded.warnings) out.stderr(`${err.bold("warning:")} ${warning.message}`);
  await manager.setServers(loaded.servers);
  const servers = manager.servers();
  const tools = manager.allTools();
  // An error may quote what a server printed or answered, which may be one of its secrets.
  const redactor = new Redactor();
  for (const server of servers) redactor.addServer(server.config);
  const redact = (text: string) => redactor.redact(text);
  if (values.json) {
    out.stdout(JSON.stringify(
      {
        servers: servers.map(({ lastError, config: _config, ...rest }) => ({
          ...rest,
          ...(lastError ? { lastError: redact(lastError.message) } : {}),
        })),
        tools: tools.map((t) => ({ server: t.server, name: t.qualifiedName, tool: t.tool.name })),
      },
      null,
      2,
    ));
  } else {
    out.stdout(
      table(servers.map((s) => row(s, redact)), ["SERVER", "STATE", "PROTOCOL", "TOOLS", "NOTE"]),
    );
    if (values.tools) {
      out.stdout("");
      out.stdout(table(tools.map((t) => [t.qualifiedName, oneLine(t.tool.description)])));
    }
  }
  return servers.some((s) => s.state === "failed" || s.state === "connecting") ? 3 : 0;
}

/**
 * Every server of every usual config file, without connecting; secrets redacted. Unknown keys
 * are warnings, or with `strict` errors (exit 2, after the list).
 */
async function listServers(out: Output, json: boolean, strict: boolean): Promise<number> {
  const err = style(Deno.stderr);
  let unknownKeys = 0;
  const rows: {
    name: string;
    transport: string;
    target: string;
    file: string;
    config: ServerConfig;
  }[] = [];
  for (const file of await existingConfigFiles()) {
    let loaded: LoadedConfig;
    try {
      loaded = await loadConfig(file);
    } catch {
      continue; // not an MCP config (e.g. ~/.claude.json without servers)
    }
    for (const warning of loaded.warnings) {
      out.stderr(`${strict ? err.red("error:") : err.bold("warning:")} ${warning.message}`);
    }
    unknownKeys += loaded.warnings.length;
    for (const [name, config] of Object.entries(loaded.servers)) {
      const http = "url" in config;
      rows.push({
        name,
        transport: http ? (config.type === "sse" ? "sse" : "http") : "stdio",
        target: http ? redactUrl(config.url) : [config.command, ...(config.args ?? [])].join(" "),
        file,
        config,
      });
    }
  }
  const hide = (record: Record<string, string> | undefined) =>
    Object.fromEntries(Object.keys(record ?? {}).map((key) => [key, "***"]));
  if (json) {
    out.stdout(JSON.stringify(
      {
        servers: rows.map(({ name, transport, target, file, config }) => ({
          name,
          transport,
          target,
          file,
          ...("env" in config && config.env ? { env: hide(config.env) } : {}),
          ...("headers" in config && config.headers ? { headers: hide(config.headers) } : {}),
        })),
      },
      null,
      2,
    ));
  } else if (rows.length === 0) {
    out.stdout("No MCP servers found in the usual config files.");
  } else {
    out.stdout(table(
      rows.map((r) => [r.name, r.transport, oneLine(r.target, 60), r.file]),
      ["SERVER", "TRANSPORT", "COMMAND OR URL", "FILE"],
    ));
  }
  return strict && unknownKeys > 0 ? 2 : 0;
}

function row(status: ServerStatus, redact: (text: string) => string): string[] {
  const protocol = status.protocolVersion ? `${status.protocolVersion} (${status.era})` : "";
  const failure = status.lastError?.message;
  const note = (failure === undefined ? undefined : redact(failure)) ??
    (status.connectMs !== undefined ? `connected in ${Math.round(status.connectMs)} ms` : "");
  return [status.name, status.state, protocol, String(status.toolCount), oneLine(note, 100)];
}

function usage(out: Output, message: string): number {
  return commandUsage(out, "servers", message);
}
