// `mcp-inspect ui`: the inspector as a web page on 127.0.0.1, for one server (`-- <command>`,
// `--url`) or every server of a config file; more can be added from the page.

import { commandUsage, type Lines as Output, parseCommand } from "./args.ts";
import { openBrowser } from "../auth/mod.ts";
import { ConfigError, loadConfig, type ServerConfig } from "../manager/mod.ts";
import { InspectorUi } from "../ui/ui.ts";
import { onStopSignals } from "./_signals.ts";

export const UI_HELP =
  `Usage: mcp-inspect ui [--port <n>] [--no-open] [-- <server command> | --url <URL> | --config <file>]

Serves the inspector as a web page on 127.0.0.1 and prints its address, with a random token
that every request must carry, then opens it in the browser. The page lists the servers with
their state, revision and capabilities; calls tools through forms generated from their input
schemas; reads and subscribes to resources; renders prompts with completion; answers the
servers' sampling, elicitation and roots requests; shows logs, protocol faults and the wire log
(exportable as a recording, see mcp-inspect replay); and logs in to OAuth servers step by step.
Servers can be added, removed and reconnected from the page.

Options:
  -c, --config <file>   every server of this config file (Claude Desktop, VS Code, Cursor,
                        Claude Code, YAML)
  -s, --server <name>   with --config, only this server
  -u, --url <URL>       a remote server (Streamable HTTP, falling back to HTTP+SSE)
  --transport <t>       with --url: http, sse or auto (default)
  -H, --header "N: V"   with --url, a header for every request (repeatable)
  -e, --env K=V         with -- <command>, a variable for the server (repeatable)
  --cwd <dir>           with -- <command>, the server's working directory
  --name <name>         the name of the server given by -- or --url (default: from it)
  --port <n>            the port on 127.0.0.1 (default: a free one)
  --no-open             print the address without opening a browser
  --strict              an unknown key in the config file is an error, not a warning

The address is printed on stdout; stop with Ctrl-C. Exit codes: 0 stopped; 2 usage or config
file error; 3 the port cannot be bound.`;

/** Runs `ui` until SIGINT/SIGTERM/SIGHUP; returns the exit code. */
export async function uiCommand(argv: readonly string[], out: Output): Promise<number> {
  const dashes = argv.indexOf("--");
  const command = dashes === -1 ? [] : argv.slice(dashes + 1);
  const parsed = parseCommand(
    {
      name: "ui",
      help: UI_HELP,
      options: {
        config: { type: "string", short: "c" },
        server: { type: "string", short: "s" },
        url: { type: "string", short: "u" },
        transport: { type: "string" },
        header: { type: "string", short: "H", multiple: true },
        env: { type: "string", short: "e", multiple: true },
        cwd: { type: "string" },
        name: { type: "string" },
        port: { type: "string" },
        "no-open": { type: "boolean" },
        strict: { type: "boolean" },
      },
    },
    dashes === -1 ? argv : argv.slice(0, dashes),
    out,
  );
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const usage = (message: string) => commandUsage(out, "ui", message);
  const sources = [values.config, values.url, command.length > 0 ? command : undefined]
    .filter((source) => source !== undefined);
  if (sources.length > 1) return usage("Give one of -- <command>, --url and --config");
  if (dashes !== -1 && command.length === 0) return usage("Missing the server command after --");
  const port = Number(values.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    return usage(`Invalid --port "${values.port}": expected 0 to 65535`);
  }
  if (values.server !== undefined && values.config === undefined) {
    return usage("--server needs --config <file>");
  }
  if (values.transport !== undefined && !["http", "sse", "auto"].includes(values.transport)) {
    return usage(`Invalid --transport "${values.transport}": expected http, sse or auto`);
  }
  let servers: Record<string, ServerConfig>;
  try {
    servers = await serversToInspect(values, command);
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof UiUsageError)) throw error;
    out.stderr(`error: ${error.message}`);
    return 2;
  }
  let ui: InspectorUi;
  try {
    ui = InspectorUi.start({ port, servers });
  } catch (error) {
    if (
      !(error instanceof Deno.errors.AddrInUse || error instanceof Deno.errors.PermissionDenied)
    ) {
      throw error;
    }
    out.stderr(`error: cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`);
    return 3;
  }
  await using _ui = ui;
  const stop = Promise.withResolvers<void>();
  using _signals = onStopSignals(() => stop.resolve());
  out.stdout(ui.url.href);
  out.stderr(`mcp-inspect ui: open the address above (the token in it is required); Ctrl-C stops`);
  if (!values["no-open"] && !(await openBrowser(ui.url))) {
    out.stderr("Could not open a browser: open the address yourself");
  }
  await stop.promise;
  return 0;
}

class UiUsageError extends Error {}

const NAME = /[^A-Za-z0-9_.-]+/g;

/** A server name from a command line or URL: its last word, as config files allow names. */
function nameOf(source: string): string {
  const word = source.split(/[\\/@:]/).filter(Boolean).pop() ?? "";
  const name = word.replace(NAME, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, 64);
  return name === "" ? "server" : name;
}

async function serversToInspect(
  values: {
    config?: string | undefined;
    server?: string | undefined;
    url?: string | undefined;
    transport?: string | undefined;
    header?: string[] | undefined;
    env?: string[] | undefined;
    cwd?: string | undefined;
    name?: string | undefined;
    strict?: boolean | undefined;
  },
  command: string[],
): Promise<Record<string, ServerConfig>> {
  if (values.name !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(values.name)) {
    throw new UiUsageError(
      `Invalid --name "${values.name}": use letters, digits, "_", "." or "-" (at most 64)`,
    );
  }
  if (values.config !== undefined) {
    const loaded = await loadConfig(values.config, { strict: values.strict ?? false });
    const servers = Object.fromEntries(
      Object.entries(loaded.servers).filter(([, config]) => !config.disabled),
    );
    if (values.server === undefined) return servers;
    const chosen = servers[values.server];
    if (!chosen) {
      const known = Object.keys(servers).join(", ") || "none";
      throw new UiUsageError(`No server "${values.server}" in ${values.config} (it has: ${known})`);
    }
    return { [values.server]: chosen };
  }
  const pairs = (items: string[] | undefined, separator: string, flag: string) => {
    const entries: Record<string, string> = {};
    for (const item of items ?? []) {
      const at = item.indexOf(separator);
      if (at <= 0) {
        throw new UiUsageError(`Invalid ${flag} "${item}": expected NAME${separator}VALUE`);
      }
      entries[item.slice(0, at).trim()] = item.slice(at + 1).trim();
    }
    return entries;
  };
  if (values.url !== undefined) {
    let url: URL;
    try {
      url = new URL(values.url);
    } catch {
      throw new UiUsageError(`Invalid --url "${values.url}"`);
    }
    const headers = pairs(values.header, ":", "--header");
    const name = values.name ?? nameOf(url.hostname);
    return {
      [name]: {
        url: url.href,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        ...(values.transport === "sse" ? { type: "sse" as const } : {}),
      },
    };
  }
  if (command.length > 0) {
    const env = pairs(values.env, "=", "--env");
    const name = values.name ??
      nameOf(command.filter((word) => !word.startsWith("-")).at(-1) ?? command[0]!);
    return {
      [name]: {
        command: command[0]!,
        args: command.slice(1),
        ...(Object.keys(env).length > 0 ? { env } : {}),
        ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
      },
    };
  }
  return {};
}
