// `mcp-inspect proxy --config <file>`: every server of a config file served as one MCP server,
// over stdio (for an agent host that starts the proxy) or Streamable HTTP. The config file is
// followed: edits apply without restarting the proxy or the servers that did not change.
// `--tools <module>` adds local tools written in TypeScript; `--stats <seconds>` prints call
// statistics to stderr.

import { commandUsage, type Lines as Output, parseCommand } from "./args.ts";
import { Redactor, type Transport } from "../../mod.ts";
import { ConfigError, loadConfig, ServerManager, ToolRegistry } from "../manager/mod.ts";
import {
  createProxyServer,
  type HttpServerHandle,
  serveHttp,
  ServerRequestRelay,
  StdioServerTransport,
} from "../server/mod.ts";
import { randomToken } from "../server/guard.ts";
import { Recorder } from "../testing/testing.ts";
import { loadToolsModule, ToolsModuleError } from "./local_tools.ts";
import { formatStats } from "./stats.ts";
import { onStopSignals } from "./_signals.ts";

export const PROXY_HELP =
  `Usage: mcp-inspect proxy [--config <file>] [--tools <module>]... [--http [--host <addr>] [--port <n>] [--token <t> | --no-auth]]

Serves the tools, resources and prompts of every server in a config file (Claude Desktop, Claude
Code, Cursor or VS Code format, or YAML with mcp.servers[]) as one MCP server, under names
mcp__<server>__<tool>, beside local tools from TypeScript modules. Allow and deny lists in the
config apply. Edits to the file are applied as they are saved. Progress, cancellation, logs,
list changes, resource subscriptions and completions are forwarded; a server's sampling and
elicitation requests go to the client whose call caused them.

Options:
  -c, --config <file>  the config file
  --tools <module>     a module whose default export registers local tools: a function
                       receiving the ToolRegistry, or an array of tools (repeatable)
  --stats <seconds>    print call statistics to stderr this often
  --http               serve Streamable HTTP instead of stdio
  --host <addr>        address to bind with --http (default 127.0.0.1)
  --port <n>           port with --http (default 3000; 0 picks a free one)
  --token <t>          with --http, require "Authorization: Bearer <t>" (default:
                       $MCP_INSPECT_PROXY_TOKEN, else a random token printed once on stderr)
  --no-auth            with --http, accept requests without a token (loopback only: any
                       local process, and any web page passing the Host/Origin checks, can
                       then call every tool)
  --allow-host <h>     with --http, accept this Host header instead of loopback names
                       (repeatable)
  --allow-origin <o>   with --http, accept this browser Origin (repeatable)
  --max-sessions <n>   with --http, the most legacy sessions kept at once (default 100)
  --record <file>      with stdio, record every message with the proxy's client as JSON
                       Lines (see mcp-inspect replay)
  --no-watch           read the config file once
  --strict             an unknown key in the config file is an error, not a warning
  -v, --verbose        report server state changes and the servers' stderr

Logs go to stderr; with --http the endpoint URL is printed on stdout.
Exit codes: 0 stopped cleanly; 2 usage or config file error; 3 the port cannot be bound.`;

/** Runs `proxy` until stdin ends (stdio) or SIGINT/SIGTERM/SIGHUP; returns the exit code. */
export async function proxyCommand(argv: readonly string[], out: Output): Promise<number> {
  const parsed = parseCommand(
    {
      name: "proxy",
      help: PROXY_HELP,
      options: {
        config: { type: "string", short: "c" },
        http: { type: "boolean" },
        host: { type: "string" },
        port: { type: "string" },
        token: { type: "string" },
        "no-auth": { type: "boolean" },
        "max-sessions": { type: "string" },
        record: { type: "string" },
        "allow-host": { type: "string", multiple: true },
        "allow-origin": { type: "string", multiple: true },
        "no-watch": { type: "boolean" },
        strict: { type: "boolean" },
        tools: { type: "string", multiple: true },
        stats: { type: "string" },
        verbose: { type: "boolean", short: "v" },
      },
    },
    argv,
    out,
  );
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const modules = values.tools ?? [];
  if (values.config === undefined && modules.length === 0) {
    return usage(out, "Missing --config <file> or --tools <module>");
  }
  const statsSeconds = values.stats === undefined ? undefined : Number(values.stats);
  if (statsSeconds !== undefined && !(statsSeconds > 0 && statsSeconds <= 86_400)) {
    return usage(out, `Invalid --stats "${values.stats}": expected seconds, such as 60`);
  }
  const port = Number(values.port ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return usage(out, `Invalid --port "${values.port}"`);
  }
  const httpOnly = [
    values.host,
    values.port,
    values.token,
    values["no-auth"],
    values["max-sessions"],
  ];
  if (!values.http && httpOnly.some((value) => value !== undefined)) {
    return usage(out, "--host, --port, --token, --no-auth and --max-sessions need --http");
  }
  if (values.http && values.record !== undefined) {
    return usage(out, "--record records one session: it needs stdio, not --http");
  }
  if (values.token !== undefined && values["no-auth"]) {
    return usage(out, "--token and --no-auth contradict each other: pick one");
  }
  const maxSessions = Number(values["max-sessions"] ?? 100);
  if (!Number.isInteger(maxSessions) || maxSessions < 1) {
    return usage(
      out,
      `Invalid --max-sessions "${values["max-sessions"]}": expected a whole number ≥ 1`,
    );
  }
  const hostname = values.host ?? "127.0.0.1";
  const token = values.token ?? Deno.env.get("MCP_INSPECT_PROXY_TOKEN") ?? undefined;
  if (values.http && token === undefined && !isLoopbackAddress(hostname)) {
    // Off loopback the token is what keeps the network out: it must be one the user chose.
    return usage(
      out,
      `Refusing to serve ${hostname} without a token: anyone who can reach it could call every ` +
        "tool. Pass --token <t> (or set MCP_INSPECT_PROXY_TOKEN), or bind 127.0.0.1",
    );
  }
  // The secrets of the servers configured now (the file may change): a log line may quote them.
  const redact = (line: string) => {
    const redactor = new Redactor();
    for (const server of manager.servers()) redactor.addServer(server.config);
    return redactor.redact(line);
  };
  const log = (line: string) => out.stderr(`[proxy] ${redact(line)}`);
  const verbose = values.verbose ?? false;
  const strict = values.strict ?? false;
  // The servers' sampling and elicitation requests go to the proxy client whose call caused them.
  const relay = new ServerRequestRelay();
  await using manager = new ServerManager({
    serverRequests: relay,
    stderr: verbose ? (server, line) => log(`${server}: ${line}`) : undefined,
  });
  manager.on("configError", (error) => log(error.message));
  manager.on("configWarning", (warning) => log(`warning: ${warning.message}`));
  manager.on("stateChanged", (status) => {
    if (status.state === "failed") {
      log(`server "${status.name}" failed: ${status.lastError?.message ?? "unknown error"}`);
    } else if (verbose) log(`server "${status.name}" is ${status.state}`);
  });
  manager.on("configApplied", ({ result }) => {
    const changed = [...result.started, ...result.restarted, ...result.stopped, ...result.updated];
    if (changed.length > 0) log(`config applied: ${changed.length} server(s) changed`);
  });
  // Without a config file there are no servers: only tools are offered, not resources or prompts.
  using registry = new ToolRegistry(values.config === undefined ? {} : { manager });
  try {
    const file = values.config;
    if (file !== undefined && values["no-watch"]) {
      const loaded = await loadConfig(file, { strict });
      for (const issue of loaded.issues) log(issue.message);
      for (const warning of loaded.warnings) log(`warning: ${warning.message}`);
      await manager.setServers(loaded.servers);
    } else if (file !== undefined) {
      await manager.watch(file, { strict });
    }
    for (const module of modules) {
      const added = await loadToolsModule(module, registry);
      log(`loaded ${added.length} local tool(s) from ${module}: ${added.join(", ")}`);
    }
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof ToolsModuleError)) throw error;
    out.stderr(`error: ${error.message}`);
    return 2;
  }
  // Remote clients get a code and a short message; the full text (stderr, paths) is logged here.
  const onError = (error: unknown, method: string) =>
    log(`${method} failed: ${error instanceof Error ? error.message : String(error)}`);
  using proxy = createProxyServer(registry, { relay, onError });
  const report = () => {
    for (const line of formatStats(registry.stats())) out.stderr(`[stats] ${line}`);
  };
  const statsTimer = statsSeconds === undefined
    ? undefined
    : setInterval(report, statsSeconds * 1000);
  const stop = Promise.withResolvers<void>();
  // Stopping the proxy (Ctrl-C, a supervisor's SIGTERM, a closed terminal's SIGHUP) disposes
  // the manager, which stops every server's process group.
  using _signals = onStopSignals(() => stop.resolve());
  let http: HttpServerHandle | undefined;
  let recorder: Recorder | undefined;
  try {
    if (values.http) {
      // Secure by default (as the official Inspector after CVE-2025-49596): without --token a
      // random one is required, so neither a web page nor another local user can drive the tools.
      const required = values["no-auth"] ? undefined : token ?? randomToken();
      try {
        http = serveHttp(proxy.server, {
          hostname,
          port,
          maxSessions,
          token: required,
          allowedHosts: values["allow-host"],
          allowedOrigins: values["allow-origin"],
        });
      } catch (error) {
        out.stderr(`error: ${bindError(error, hostname, port)}`);
        return 3;
      }
      if (required === undefined) {
        log(
          "WARNING: --no-auth: no token is required. Any local process, and any web page that " +
            "passes the Host/Origin checks, can call every tool of every server.",
        );
      } else if (token === undefined) {
        log(`no --token given, so this one is required (shown once):`);
        log(`  Authorization: Bearer ${required}`);
      }
      out.stdout(http.url.href);
      log(`serving ${registry.list().length} tools at ${http.url.href}`);
      await stop.promise;
    } else {
      log(`serving ${registry.list().length} tools on stdio`);
      let transport: Transport = new StdioServerTransport();
      if (values.record !== undefined) {
        recorder = await Recorder.open(values.record, {
          server: `mcp-inspect proxy --config ${values.config ?? "(none)"}`,
          redact,
        });
        transport = recorder.wrapServer(transport);
      }
      await Promise.race([proxy.server.serve(transport), stop.promise]);
    }
  } finally {
    clearInterval(statsTimer);
    await http?.close();
    await recorder?.close();
  }
  return 0;
}

/** Loopback as an address to bind: `localhost`, a 127.0.0.0/8 dotted quad, or `::1`. */
function isLoopbackAddress(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** One line for a failed bind: a busy port names the flag that picks another. */
function bindError(error: unknown, hostname: string, port: number): string {
  if (error instanceof Deno.errors.AddrInUse) {
    return `port ${port} is in use; pick another with --port`;
  }
  if (error instanceof Deno.errors.AddrNotAvailable) {
    return `address ${hostname} is not available on this machine; pick another with --host`;
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return `not allowed to bind ${hostname}:${port}; pick a port above 1023 with --port`;
  }
  return `cannot serve on ${hostname}:${port}: ${error instanceof Error ? error.message : error}`;
}

function usage(out: Output, message: string): number {
  return commandUsage(out, "proxy", message);
}
