// Command-line parsing for mcp-inspect: global options, the command words, and the server
// command after `--`.

import { parseArgs, type ParseArgsOptionsConfig } from "node:util";

/** What a command that parses its own options writes to. */
export interface Lines {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * Reports a usage error of a command with its own help (`proxy`, `servers`, `auth`): one line,
 * and where to find the usage. Returns exit code 2.
 */
export function commandUsage(out: Lines, command: string, message: string): number {
  out.stderr(`error: ${message}\nRun mcp-inspect ${command} --help for usage.`);
  return 2;
}

/** A usage error: exit code 2, one helpful line, and a pointer to --help. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export interface CliArgs {
  /** The command words and their positional arguments, e.g. ["tools", "call", "echo", "text=hi"]. */
  words: string[];
  /** The server command after `--`, if any. */
  server: string[];
  json: boolean;
  verbose: boolean;
  help: boolean;
  version: boolean;
  env: Record<string, string>;
  cwd: string | undefined;
  timeoutMs: number | undefined;
  /** --grace: how long a stdio server gets to exit at each step of the shutdown ladder. */
  graceMs: number | undefined;
  args: string | undefined;
  url: string | undefined;
  transport: "auto" | "streamable-http" | "sse";
  headers: [string, string][];
  protocol: string;
  elicit: "ask" | "accept-defaults" | "decline";
  samplingReply: string | undefined;
  roots: string[];
  call: string[];
  schemaDir: string | undefined;
  /** --out: where `skills load` writes a verified skill. */
  outDir: string | undefined;
  /** --fail-on: which differences make `diff` exit 1 (`any`, the default, or `breaking`). */
  failOn: string | undefined;
  /** --record: append every message both ways to this JSON Lines file. */
  record: string | undefined;
  /** --ignore: JSON pointers `verify` does not compare. */
  ignore: string[];
  config: string | undefined;
  /** The --server name (the command after -- is `server`). */
  serverName: string | undefined;
  /** --strict: an unknown key in the config file is an error, not a warning. */
  strict: boolean;
}

const OPTIONS = {
  json: { type: "boolean" },
  verbose: { type: "boolean", short: "v" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
  env: { type: "string", multiple: true, short: "e" },
  cwd: { type: "string" },
  timeout: { type: "string", short: "t" },
  grace: { type: "string" },
  args: { type: "string" },
  url: { type: "string", short: "u" },
  transport: { type: "string" },
  header: { type: "string", multiple: true, short: "H" },
  protocol: { type: "string", short: "p" },
  elicit: { type: "string" },
  "sampling-reply": { type: "string" },
  root: { type: "string", multiple: true },
  call: { type: "string", multiple: true },
  "schema-dir": { type: "string" },
  out: { type: "string" },
  "fail-on": { type: "string" },
  record: { type: "string" },
  ignore: { type: "string", multiple: true },
  config: { type: "string", short: "c" },
  server: { type: "string", short: "s" },
  strict: { type: "boolean" },
} as const;

/** Parses argv; everything after the first `--` is the server command, untouched. */
export function parseCli(argv: readonly string[]): CliArgs {
  const split = argv.indexOf("--");
  const own = split === -1 ? [...argv] : argv.slice(0, split);
  const server = split === -1 ? [] : argv.slice(split + 1);
  let parsed;
  try {
    parsed = parseArgs({ args: own, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(cleanParseError((error as Error).message));
  }
  const { values, positionals } = parsed;
  const env: Record<string, string> = {};
  for (const pair of values.env ?? []) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`Invalid --env "${pair}": expected KEY=VALUE`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = Number(values.timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
      throw new UsageError(
        `Invalid --timeout "${values.timeout}": expected a positive number of milliseconds`,
      );
    }
  }
  let graceMs: number | undefined;
  if (values.grace !== undefined) {
    graceMs = Number(values.grace);
    if (values.grace.trim() === "" || !Number.isInteger(graceMs) || graceMs < 0) {
      throw new UsageError(
        `Invalid --grace "${values.grace}": expected a number of milliseconds (0 or more)`,
      );
    }
  }
  const headers: [string, string][] = [];
  for (const header of values.header ?? []) {
    const colon = header.indexOf(":");
    if (colon <= 0) {
      throw new UsageError(`Invalid --header "${header.split(":")[0]}": expected "Name: Value"`);
    }
    headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
  }
  const transports = { http: "streamable-http", sse: "sse", auto: "auto" } as const;
  const transport = transports[(values.transport ?? "auto") as keyof typeof transports];
  if (!transport) {
    throw new UsageError(`Invalid --transport "${values.transport}": expected http, sse or auto`);
  }
  const choices = [
    values.url !== undefined,
    server.length > 0,
    values.config !== undefined || values.server !== undefined,
  ]
    .filter(Boolean).length;
  if (choices > 1) {
    throw new UsageError("Choose one server: --url, --config/--server, or a command after --");
  }
  if (values.transport !== undefined && values.url === undefined) {
    throw new UsageError("--transport needs --url");
  }
  if (values.strict && values.config === undefined && values.server === undefined) {
    throw new UsageError("--strict needs --config or --server");
  }
  const protocol = values.protocol ?? "auto";
  if (!/^(auto|modern|legacy|\d{4}-\d{2}-\d{2})$/.test(protocol)) {
    throw new UsageError(
      `Invalid --protocol "${protocol}": expected auto, modern, legacy or a revision like 2025-11-25`,
    );
  }
  const elicit = values.elicit ?? "ask";
  if (elicit !== "ask" && elicit !== "accept-defaults" && elicit !== "decline") {
    throw new UsageError(`Invalid --elicit "${elicit}": expected accept-defaults or decline`);
  }
  return {
    words: positionals,
    server,
    json: values.json ?? false,
    verbose: values.verbose ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
    env,
    cwd: values.cwd,
    timeoutMs,
    graceMs,
    args: values.args,
    url: values.url,
    transport,
    headers,
    protocol,
    elicit,
    samplingReply: values["sampling-reply"],
    roots: values.root ?? [],
    call: values.call ?? [],
    schemaDir: values["schema-dir"],
    outDir: values.out,
    failOn: values["fail-on"],
    record: values.record,
    ignore: values.ignore ?? [],
    config: values.config,
    serverName: values.server,
    strict: values.strict ?? false,
  };
}

/** node:util's parse error as one short line: the first sentence, an unknown option unquoted. */
export function cleanParseError(message: string): string {
  // node:util says e.g. "Unknown option '--jsn'. To specify a positional argument starting with a
  // '-', place it at the end of the command after '--', as in '-- \"--jsn\"".
  const unknown = message.match(/Unknown option '([^']+)'/);
  if (unknown) return `Unknown option ${unknown[1]}`;
  return message.split(". ")[0] ?? message;
}

/** The closest candidate by edit distance, if it is close enough to be a likely typo. */
export async function closest(
  word: string,
  candidates: readonly string[],
): Promise<string | undefined> {
  // Imported here: only a typo needs it, and every run parses arguments.
  const { distance: editDistance } = await import("fastest-levenshtein");
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/**
 * How a command that parses its own options (`auth`, `proxy`, `servers`, `replay`) is declared:
 * its name (for usage errors), its `--help` text, and its options (`--help`/`-h` is added).
 */
export interface CommandSpec<T extends ParseArgsOptionsConfig> {
  name: string;
  help: string;
  options: T;
  /** Whether words other than options are accepted (default: no). */
  positionals?: boolean;
}

/** The options of a {@link CommandSpec}, with `help`. */
type WithHelp<T extends ParseArgsOptionsConfig> = T & { help: { type: "boolean"; short: "h" } };

/**
 * Parses `argv` by `spec`. Returns the values and positionals, or the exit code when the command
 * is done already: 0 after printing `--help`, 2 after a usage error naming the bad option.
 */
export function parseCommand<T extends ParseArgsOptionsConfig>(
  spec: CommandSpec<T>,
  argv: readonly string[],
  out: Lines,
):
  | ReturnType<
    typeof parseArgs<{
      args: string[];
      options: WithHelp<T>;
      strict: true;
      allowPositionals: boolean;
    }>
  >
  | number {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { ...spec.options, help: { type: "boolean", short: "h" } } as WithHelp<T>,
      strict: true,
      allowPositionals: spec.positionals ?? false,
    });
  } catch (error) {
    return commandUsage(out, spec.name, cleanParseError((error as Error).message));
  }
  if ((parsed.values as { help?: boolean }).help) {
    out.stdout(spec.help);
    return 0;
  }
  return parsed;
}
