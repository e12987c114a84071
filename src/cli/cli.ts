// mcp-inspect: the entry point behind cli.ts. Built only on what mod.ts exports.
//
// Only what every run needs is imported up front: the error classes and the version (from the
// modules mod.ts re-exports them from, which pull in no npm package), the parser and the command
// table. The client, the transports and each command of its own (check, demo, shell, proxy,
// servers, auth) are imported on first use, so `--version` or `--help` never load Ajv, YAML,
// OAuth or OpenTelemetry, and `tools list` loads none of what only proxy or auth need.

import {
  AuthorizationError,
  CancelledError,
  CapabilityError,
  ConnectionClosedError,
  type Diagnostic,
  McpError,
  ProtocolError,
  TimeoutError,
  TransportError,
  ValidationError,
} from "../errors.ts";
import { VERSION } from "../version.ts";
import { parseCli, UsageError } from "./args.ts";
import { type Command, type Context, type Output, runCommand } from "./command.ts";
import { COMMANDS } from "./commands.ts";
import type { ToolPolicy } from "./_policy.ts";
import { style } from "./format.ts";
import { onStopSignals, SIGNAL_EXIT, type StopSignal } from "./_signals.ts";

/** The commands with a module of their own, imported when named. */
const LAZY_COMMANDS: Record<string, () => Promise<Command>> = {
  check: async () => (await import("./check.ts")).check,
  demo: async () => (await import("./demo.ts")).demo,
  snapshot: async () => (await import("./surface.ts")).snapshot,
  diff: async () => (await import("./surface.ts")).diff,
  verify: async () => (await import("./record.ts")).verify,
};

/** Commands of several words whose module is imported when the first word names them. */
const LAZY_GROUPS: Record<string, () => Promise<readonly Command[]>> = {
  skills: async () => (await import("./skills.ts")).SKILLS_COMMANDS,
};

/** The commands over a config file of many servers, which parse their own options. */
const MANY_SERVER_COMMANDS: Record<
  string,
  () => Promise<(argv: string[], out: Output) => Promise<number>>
> = {
  proxy: async () => (await import("./proxy.ts")).proxyCommand,
  servers: async () => (await import("./servers.ts")).serversCommand,
  auth: async () => (await import("./auth.ts")).authCommand,
  replay: async () => (await import("./record.ts")).replayCommand,
  ui: async () => (await import("./ui.ts")).uiCommand,
};

/** Exit codes, as documented in --help and the README. */
export const EXIT = {
  ok: 0,
  serverError: 1,
  usage: 2,
  transport: 3,
  timeout: 4,
  auth: 5,
  interrupted: 130,
} as const;

export const HELP = `mcp-inspect ${VERSION}: explore, call and check any MCP server.

Usage:
  mcp-inspect <command> [arguments] [options] -- <server command> [server arguments]
  mcp-inspect <command> [arguments] [options] --url <URL>

Commands:
  info                          server name, version, revision, capabilities, instructions
  tools list                    the server's tools with their arguments (* = required)
  tools call <name> [k=v ...]   call a tool; values are typed by the tool's input schema
  resources list                the server's resources
  resources templates           the server's resource templates
  resources read <uri>          read a resource
  prompts list                  the server's prompts
  prompts get <name> [k=v ...]  render a prompt
  complete <prompt|template> <argument> <partial>   completions for an argument
  ping                          check that the server answers
  logs                          stream log messages and change notifications until Ctrl-C
  shell                         an interactive session on one connection (history, tab completion)
  skills list                   the skills the server ships (io.modelcontextprotocol/skills)
  skills show <name>            a skill's listing: frontmatter and files (reads no file)
  skills load <name> [--out <dir>]  read and verify every file of a skill (size, SHA-256,
                                frontmatter); --out writes them under <dir>/<name>/
  snapshot [--out <file>]       the server's surface (tools with schemas, resources, templates,
                                prompts) as stable, sorted JSON to keep in a repository
  diff <old> [<new>]            compare two surfaces (snapshot files, or <old> with the server
                                given by -- or --url); breaking changes are marked; exit 1 when
                                they differ (--fail-on breaking: only when one breaks)
  verify <recording>            re-send a recording's requests (see --record) and report every
                                answer that differs (ids, _meta, timestamps and --ignore
                                <json-pointer> aside); exit 1 on a difference
  replay <recording>            serve a recording as an MCP server on stdio (replay --help)
  check [--call <tool>]...      health and conformance report; exit 1 when a problem is found
                                (every server message is checked against the official schema
                                of its revision, shipped with mcp-inspect, so no network is
                                needed; --schema-dir <dir> reads <dir>/<revision>/schema.json)
  demo                          a tour of the fake server in testdata/ (source checkouts)
  servers --config <file>       connect every server of a config file and report their health
  proxy --config <file>         serve every server of a config file (JSON or YAML), and local
        [--tools <module>]      tools, as one MCP server (stdio, or --http; see proxy --help)
  ui [-- <server> | --url <URL> | --config <file>]   the inspector as a web page on 127.0.0.1
                                (a token in the printed address; see ui --help)
  auth login --url <URL>        authorize with the server's OAuth server (browser; tokens kept
                                in the config directory); auth status, auth logout

Options:
  --json             print exactly one JSON document (the protocol result) on stdout
  --args <json>      tool or prompt arguments as JSON, or @file.json
  -u, --url <URL>    an HTTP server: Streamable HTTP, falling back to legacy HTTP+SSE
  -c, --config <file>  a config file (Claude Desktop, VS Code, Cursor, Claude Code; JSONC)
  -s, --server <name>  the server of the config file; without --config, the usual files are
                     searched (./.mcp.json, .cursor/, .vscode/, Claude Desktop, ~/.cursor, ~/.claude.json)
  --strict           an unknown key in the config file is an error (exit 2), not a warning
  --transport <t>    with --url: http (Streamable HTTP only), sse (legacy only) or auto
  -H, --header "N: V"  an HTTP header for every request (repeatable)
  -p, --protocol <p> auto (default), modern, legacy, or a revision such as 2025-06-18
  -e, --env K=V      add a variable to the server's environment (repeatable)
  --cwd <dir>        the server's working directory
  -t, --timeout <ms> request timeout in milliseconds (default 60000)
  --grace <ms>       on exit, how long a stdio server gets after its stdin closes, then after
                     SIGTERM, before its process group gets SIGTERM, then SIGKILL (default 100)
  --root <dir>       a root offered to the server (repeatable; default: none, and the client
                     does not declare the roots capability)
  --elicit <policy>  answer elicitation with accept-defaults or decline (default: ask on a TTY)
  --sampling-reply <text>  answer sampling requests with this text (default: decline)
  --record <file>    append every message both ways to <file> as JSON Lines (secrets redacted)
  -v, --verbose      show the JSON-RPC wire traffic, server stderr and diagnostics (secrets redacted)
  -h, --help         this help;  -V, --version  the version

Exit codes:
  0 success   1 the server returned an error (or a tool result with isError; the config's
  allow/deny lists refuse the tool; check found a problem; diff found a difference; verify found
  drift; a skill failed verification)
  2 usage error   3 cannot connect or the transport failed   4 timeout
  5 authorization required   130 interrupted (Ctrl-C)   143 SIGTERM   129 SIGHUP

Example:
  mcp-inspect tools call echo message=hi -- npx -y @modelcontextprotocol/server-everything`;

/** Commands that run until stopped: --timeout bounds their connection, not their run. */
const LONG_RUNNING = new Set(["shell", "logs"]);

/** Runs the CLI and returns its exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const state: { signalled?: StopSignal } = {};
  const code = await run(argv, state);
  // Set once the server is stopped: a signal's exit code wins over the command's own.
  return state.signalled === undefined ? code : SIGNAL_EXIT[state.signalled];
}

async function run(argv: readonly string[], state: { signalled?: StopSignal }): Promise<number> {
  const out: Output = {
    stdout: (text) => console.log(text),
    stderr: (text) => console.error(text),
    style: style(Deno.stdout),
    errStyle: style(Deno.stderr),
  };
  let json = false;
  // Warns of the server's protocol faults once the command ends, failed or not.
  let warnOfFaults = () => {};
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const interrupt = new AbortController();
  let stopSignals: Disposable | undefined;
  // Commands over a config file of many servers parse their own options.
  const many = Object.hasOwn(MANY_SERVER_COMMANDS, argv[0] ?? "")
    ? await MANY_SERVER_COMMANDS[argv[0]!]!()
    : undefined;
  if (many) return await many(argv.slice(1), out);
  try {
    let args = parseCli(argv);
    json = args.json;
    if (args.version) {
      out.stdout(args.json ? JSON.stringify({ version: VERSION }) : `mcp-inspect ${VERSION}`);
      return EXIT.ok;
    }
    if (args.help || args.words.length === 0) {
      out.stdout(HELP);
      return args.help ? EXIT.ok : EXIT.usage;
    }
    const command = await findCommand(args.words, out);
    if (!command) throw new UsageError(`Unknown command "${args.words.join(" ")}"`);
    const offline = await command.withoutServer?.(args, out);
    if (offline !== undefined) return offline;
    let server = args.server;
    if (command.demoServer) server = command.demoServer();
    let policy: ToolPolicy | undefined;
    if (args.config !== undefined || args.serverName !== undefined) {
      const [{ applyConfig, configuredServer }, { ToolPolicy }] = await Promise.all([
        import("./connect.ts"),
        import("./_policy.ts"),
      ]);
      const configured = await configuredServer(args, out);
      const applied = applyConfig(args, configured.config);
      args = applied.args;
      server = applied.server;
      policy = await ToolPolicy.of(configured);
      if (policy && command.toolsToCall) {
        // Before the server is started, as the manager refuses a call without contacting it.
        const positionals = args.words.slice(command.words.length);
        for (const tool of await command.toolsToCall(positionals)) policy.check(tool);
      }
    }
    if (server.length === 0 && args.url === undefined) {
      throw new UsageError(
        "No server given: use --url <URL>, --config <file> --server <name>, or a command after --",
      );
    }
    // A stopping signal aborts the command, and leaving it closes the client, which stops the
    // server's whole process group. The shell handles SIGINT itself (it cancels the call).
    stopSignals = onStopSignals((signal) => {
      if (signal === "SIGINT" && command.handlesInterrupt) return;
      state.signalled ??= signal;
      interrupt.abort(new CancelledError("command", `interrupted (${signal})`));
    });
    // --timeout bounds the whole of a one-shot command, era probe and handshake included; for
    // shell and logs, which run until stopped, it bounds the connection and each request.
    if (args.timeoutMs !== undefined) {
      const limit = args.timeoutMs;
      deadline = setTimeout(() => interrupt.abort(new TimeoutError("command", limit)), limit);
    }
    const wire = command.recordWire ? { sent: [], received: [] } : undefined;
    const [{ Client }, { buildClientOptions, buildTransport }] = await Promise.all([
      import("../client/client.ts"),
      import("./connect.ts"),
    ]);
    let transport = await buildTransport(args, server, out, wire);
    await using recorder = args.record === undefined
      ? undefined
      : await (await import("./record.ts")).openRecorder(args, server);
    if (recorder) transport = recorder.wrap(transport);
    const diagnostics: Diagnostic[] = [];
    warnOfFaults = () => {
      warnOfFaults = () => {}; // once, even if closing the client fails after the command
      summarise(diagnostics, args.verbose, out);
    };
    const clientOptions = buildClientOptions(args, out, interrupt.signal, diagnostics);
    const started = performance.now();
    await using client = await Client.connect(transport, clientOptions);
    recorder?.ready(client);
    if (LONG_RUNNING.has(args.words[0] ?? "")) clearTimeout(deadline);
    const context: Context = {
      client,
      args,
      out,
      signal: interrupt.signal,
      connectMs: performance.now() - started,
      diagnostics,
      positionals: args.words.slice(command.words.length),
      wire,
      policy,
    };
    const code = await runCommand(command, context);
    warnOfFaults();
    return code;
  } catch (error) {
    // A fault is often why the command failed (garbage instead of the handshake): it comes first.
    warnOfFaults();
    return report(error, out, json);
  } finally {
    clearTimeout(deadline);
    stopSignals?.[Symbol.dispose]();
  }
}

/** The command the words name, importing its module if it has one of its own. */
async function findCommand(words: readonly string[], out: Output): Promise<Command | undefined> {
  const named = (c: Command) => c.words.every((w, i) => words[i] === w);
  const first = words[0] ?? "";
  if (Object.hasOwn(LAZY_COMMANDS, first)) return await LAZY_COMMANDS[first]!();
  if (Object.hasOwn(LAZY_GROUPS, first)) return (await LAZY_GROUPS[first]!()).find(named);
  if (first === "shell") {
    const [{ shellCommand }, check] = await Promise.all([
      import("./shell.ts"),
      LAZY_COMMANDS.check!(),
    ]);
    return shellCommand([...COMMANDS, check], (error) => report(error, out, false));
  }
  return COMMANDS.find(named);
}

/** One line on stderr for the server's protocol faults (each is shown with --verbose). */
function summarise(diagnostics: readonly Diagnostic[], verbose: boolean, out: Output): void {
  if (diagnostics.length === 0 || verbose) return;
  const first = diagnostics[0]!;
  const more = diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : "";
  out.stderr(
    `${out.errStyle.red("warning:")} the server broke the protocol: ${first.message}${more}; ` +
      "--verbose shows each",
  );
}

function report(error: unknown, out: Output, _json: boolean): number {
  const red = out.errStyle.red;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UsageError) {
    out.stderr(`${red("error:")} ${message}\nRun mcp-inspect --help for usage.`);
    return EXIT.usage;
  }
  out.stderr(`${red("error:")} ${describe(error)}`);
  if (error instanceof CancelledError && error.reason instanceof TimeoutError) return EXIT.timeout;
  if (error instanceof CancelledError) return EXIT.interrupted;
  if (error instanceof TimeoutError) return EXIT.timeout;
  if (error instanceof AuthorizationError) return EXIT.auth;
  if (error instanceof McpError || error instanceof CapabilityError) return EXIT.serverError;
  if (error instanceof ValidationError) return EXIT.serverError;
  if (error instanceof TransportError || error instanceof ProtocolError) return EXIT.transport;
  return EXIT.serverError;
}

function describe(error: unknown): string {
  if (error instanceof McpError) {
    const data = error.data === undefined ? "" : ` ${JSON.stringify(error.data)}`;
    // Servers built on the official SDK put "MCP error <code>: " in the message itself: say the
    // code once.
    const message = error.message.replace(new RegExp(`^MCP error ${error.code}: `), "");
    return `server error ${error.code}: ${message}${data}`;
  }
  if (error instanceof CancelledError && error.reason instanceof TimeoutError) {
    return `${error.reason.message.replace(/^Request command/, "The command")} (--timeout)`;
  }
  if (error instanceof ConnectionClosedError || error instanceof Error) return error.message;
  return String(error);
}
