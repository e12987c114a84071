// Building the transport and client options from the command line: server choice, wire log,
// and the answers to the server's roots, sampling and elicitation requests.

import type { ClientOptions, JsonRpcMessage, Transport } from "../../mod.ts";
import type { LoadedConfig, ServerConfig } from "../manager/mod.ts";
import type { ConfiguredServer } from "./_policy.ts";
// The modules mod.ts re-exports these from: mod.ts itself would load every dependency (YAML,
// OAuth, OpenTelemetry) for a command that needs none. Config files, HTTP and OAuth are imported
// when the command line asks for them.
import { type Diagnostic, McpError } from "../errors.ts";
import { Redactor } from "../redact.ts";
import { StdioTransport } from "../transport/stdio.ts";
import { TapTransport } from "../transport/tap.ts";
import { type CliArgs, UsageError } from "./args.ts";
import type { Output } from "./command.ts";
import { elicitationHandler } from "./elicit.ts";

/**
 * How long a stdio server gets to exit once its stdin is closed, and again after SIGTERM, unless
 * --grace says otherwise. The answer is already printed by then, so a server that does not exit
 * on stdin EOF (server-everything keeps a pending roots request alive) must not hold the CLI up
 * for the library's 2 s steps. Servers that do exit on EOF take 6–16 ms (the fast fixture,
 * server-memory, server-filesystem), so 100 ms leaves them six times that and more.
 */
export const CLI_GRACE_MS = 100;

/** Replaces every secret the user gave us (env values, header values, URL credentials) with `***`. */
export function redactor(args: CliArgs): (text: string) => string {
  const redactor = new Redactor(Object.values(args.env)).addHeaders(args.headers);
  if (args.url !== undefined) redactor.addUrl(args.url);
  return (text) => redactor.redact(text);
}

/** The transport for the chosen server, wrapped in a wire log with --verbose. */
export async function buildTransport(
  args: CliArgs,
  server: readonly string[],
  out: Output,
  wire?: { sent: JsonRpcMessage[]; received: JsonRpcMessage[] },
): Promise<Transport> {
  const redact = redactor(args);
  const dim = out.errStyle.dim;
  let transport: Transport;
  if (args.url !== undefined) {
    const [{ HttpTransport }, { storedAuthorization }] = await Promise.all([
      import("../transport/http.ts"),
      import("./auth.ts"),
    ]);
    try {
      transport = new HttpTransport({
        url: args.url,
        transport: args.transport,
        headers: args.headers,
        ...storedAuthorization(args, out),
      });
    } catch (error) {
      throw new UsageError((error as Error).message); // a typo in --url or --header
    }
  } else {
    transport = new StdioTransport({
      command: server[0]!,
      args: server.slice(1),
      env: args.env,
      closeStepMs: args.graceMs ?? CLI_GRACE_MS,
      cwd: args.cwd,
      // `logs` streams the server's stderr too: that is where stdio servers log.
      stderr: args.verbose || args.words[0] === "logs"
        ? (line: string) => out.stderr(dim(`[server] ${redact(line)}`))
        : undefined,
    });
  }
  if (wire) {
    transport = new TapTransport(transport, {
      sent: (message) => wire.sent.push(message),
      received: (message) => wire.received.push(message),
    });
  }
  if (!args.verbose) return transport;
  return new TapTransport(transport, {
    sent: (message) => out.stderr(dim(`→ ${redact(JSON.stringify(message))}`)),
    received: (message) => out.stderr(dim(`← ${redact(JSON.stringify(message))}`)),
  });
}

/** Client options: timeouts, protocol, diagnostics, and the client-side handlers. */
export function buildClientOptions(
  args: CliArgs,
  out: Output,
  signal: AbortSignal,
  diagnostics: Diagnostic[] = [],
): ClientOptions {
  const redact = redactor(args);
  // Roots only when asked: a server that follows roots (server-filesystem) would otherwise trade
  // the folders it was started with for ours, racing the first call.
  const roots = args.roots.map((dir) => ({
    uri: new URL(`file://${dir.startsWith("/") ? "" : "/"}${dir.replaceAll("\\", "/")}`).href,
    name: dir.split(/[\\/]/).filter(Boolean).pop() ?? dir,
  }));
  const reply = args.samplingReply;
  return {
    signal,
    protocol: args.protocol,
    roots: roots.length > 0 ? roots : undefined,
    onElicitation: elicitationHandler(args.elicit, out),
    elicitationModes: ["form", "url"],
    onSampling: (request) => {
      if (reply === undefined) {
        out.stderr(out.errStyle.dim("[sampling] declined: pass --sampling-reply <text> to answer"));
        // -1 is the code the spec's examples use for a user rejecting a sampling request
        throw new McpError(-1, "Sampling declined by mcp-inspect (no --sampling-reply given)");
      }
      out.stderr(out.errStyle.dim(`[sampling] answered ${request.messages.length} message(s)`));
      return { role: "assistant", content: { type: "text", text: reply }, model: "mcp-inspect" };
    },
    requestTimeoutMs: args.timeoutMs,
    // Every fault of the server is kept (for --json and check); --verbose shows each as it comes.
    onDiagnostic: (d) => {
      const kept: Diagnostic = { ...d, message: redact(d.message) };
      if (d.data !== undefined) kept.data = redact(d.data);
      diagnostics.push(kept);
      if (!args.verbose) return;
      const data = kept.data === undefined ? "" : `: ${kept.data}`;
      out.stderr(out.errStyle.dim(`[diagnostic] ${kept.kind}: ${kept.message}${data}`));
    },
  };
}

/**
 * The server named by --config/--server: from the given file, or from the first of the usual
 * config files that has it (and the CLI says which file it used). A disabled entry is a usage
 * error: the user's config says not to run it, and the manager and the proxy would not.
 */
export async function configuredServer(args: CliArgs, out: Output): Promise<ConfiguredServer> {
  const [{ ConfigError, loadConfig }, { existingConfigFiles }] = await Promise.all([
    import("../config/config.ts"),
    import("../config/locations.ts"),
  ]);
  const files = args.config !== undefined ? [args.config] : await existingConfigFiles();
  if (files.length === 0) {
    throw new UsageError("No config file found in the usual places; pass --config <file>");
  }
  const known: string[] = [];
  for (const file of files) {
    let loaded: LoadedConfig;
    try {
      loaded = await loadConfig(file);
    } catch (error) {
      if (args.config !== undefined) {
        throw new UsageError(error instanceof ConfigError ? error.message : String(error));
      }
      continue; // a user file that is not an MCP config (e.g. ~/.claude.json without servers)
    }
    const { servers, issues, warnings } = loaded;
    // An entry that failed to load (an unset variable) is still the one the user asked for.
    const broken = issues.flatMap((issue) => issue.server === undefined ? [] : [issue.server]);
    const names = [...new Set([...Object.keys(servers), ...broken])];
    const name = args.serverName ?? (names.length === 1 ? names[0] : undefined);
    if (name === undefined) {
      throw new UsageError(
        `${file} has ${names.length} servers; choose one with --server (${names.join(", ")})`,
      );
    }
    const issue = issues.find((i) => i.server === name);
    if (issue) throw new UsageError(issue.message);
    const config = servers[name];
    if (config) {
      // Only what concerns this server: the other entries of a shared file are not our business.
      for (const warning of warnings.filter((w) => w.server === undefined || w.server === name)) {
        if (args.strict) throw new UsageError(`${warning.message} (--strict)`);
        out.stderr(`${out.errStyle.bold("warning:")} ${warning.message}`);
      }
      if (config.disabled) {
        throw new UsageError(`Server "${name}" is disabled in ${file}; enable it there to use it`);
      }
      if (args.config === undefined) {
        out.stderr(out.errStyle.dim(`Using server "${name}" from ${file}`));
      }
      return { name, file, config };
    }
    known.push(...names.map((n) => `${n} (${file})`));
  }
  throw new UsageError(
    `No server "${args.serverName}" in ${files.join(", ")}${
      known.length > 0 ? `; found ${known.join(", ")}` : ""
    }`,
  );
}

/** The CLI arguments a configured server amounts to. */
export function applyConfig(
  args: CliArgs,
  config: ServerConfig,
): { args: CliArgs; server: string[] } {
  if ("url" in config) {
    return {
      args: {
        ...args,
        url: config.url,
        transport: config.type === "sse" ? "sse" : args.transport,
        headers: [...Object.entries(config.headers ?? {}), ...args.headers],
      },
      server: [],
    };
  }
  return {
    args: { ...args, env: { ...config.env, ...args.env }, cwd: args.cwd ?? config.cwd },
    server: [config.command, ...(config.args ?? [])],
  };
}
