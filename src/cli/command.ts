// What a command of mcp-inspect is (Command), what it runs with (Context, Output), and how it
// prints its one JSON document under --json: the contract between cli.ts, which parses, connects
// and reports, and the modules that hold the commands.

import type { Client, Diagnostic, JsonRpcMessage } from "../../mod.ts";
import type { CliArgs } from "./args.ts";
import type { ToolPolicy } from "./_policy.ts";
import type { Style } from "./format.ts";

/** Where a command writes: results to stdout, everything else to stderr, each with its style. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
  style: Style;
  errStyle: Style;
}

/** What a command runs with: the connected client, the parsed arguments, and where to write. */
export interface Context {
  client: Client;
  args: CliArgs;
  out: Output;
  signal: AbortSignal;
  connectMs: number;
  positionals: string[];
  /** Every protocol fault of the server so far (a malformed message, a stray answer). */
  diagnostics: Diagnostic[];
  /** Every message of the connection, when the command asked for it (`recordWire`). */
  wire?: { sent: JsonRpcMessage[]; received: JsonRpcMessage[] } | undefined;
  /** The allow and deny lists of the config entry the server came from, when it has any. */
  policy?: ToolPolicy | undefined;
}

/** A command: the words that name it, and what it does with a connected client. */
export interface Command {
  words: readonly string[];
  run(context: Context): Promise<number>;
  /** For `demo`: the server to start instead of the one after `--`. */
  demoServer?: () => string[];
  /**
   * Runs before any connection; a number is the exit code and no server is started (`diff` of
   * two snapshot files), `undefined` goes on to connect and {@link run}.
   */
  withoutServer?: (args: CliArgs, out: Output) => Promise<number | undefined>;
  /** The command handles SIGINT itself (the shell: Ctrl-C cancels a call, not the session). */
  handlesInterrupt?: boolean;
  /** Record every message of the connection in `context.wire`. */
  recordWire?: boolean;
  /**
   * The tools the command will call, known from its arguments: a configured server's lists
   * refuse them before the server is started, as the manager refuses them without contacting it.
   */
  toolsToCall?: (positionals: readonly string[]) => Promise<string[]>;
}

/** Runs a command; its return value is the exit code. */
export function runCommand(command: Command, context: Context): Promise<number> {
  return command.run(context);
}

/**
 * Prints `value` as the one JSON document of --json. The server's faults travel with it, under
 * a key no MCP result uses, only when there are any: a clean result prints as it always did.
 */
export function printJson(context: Context, value: unknown): void {
  const faults = context.diagnostics;
  const shown = faults.length > 0 && typeof value === "object" && value !== null
    ? { ...value, diagnostics: faults }
    : value;
  let text: string;
  try {
    text = JSON.stringify(shown, null, 2);
  } catch (error) {
    // V8 indents by recursion but writes compact JSON without it: a result nested thousands of
    // levels deep (a hostile server) still prints, on one line, instead of a stack overflow.
    if (!(error instanceof RangeError)) throw error;
    text = JSON.stringify(shown);
  }
  context.out.stdout(text);
}
