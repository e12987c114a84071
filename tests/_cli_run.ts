// Running the CLI as a subprocess from the repository root, and the fake servers it is pointed at,
// for the cli_*_test.ts files.

import { fixture } from "./_helpers.ts";

/** The repository root, where cli.ts lives. */
export const ROOT: string = new URL("..", import.meta.url).pathname;

/** The arguments that start the everything fake after `--`. */
export const SERVER: string[] = [
  "--",
  Deno.execPath(),
  "run",
  "--allow-all",
  "--no-config",
  fixture("everything.ts"),
];

/** The arguments that start the modern-era (2026-07-28) fake after `--`. */
export const MODERN: string[] = [
  "--",
  Deno.execPath(),
  "run",
  "--allow-all",
  "--no-config",
  fixture("modern.ts"),
];

/** The arguments that start the misbehaving fake in `mode` after `--`. */
export const MISBEHAVING = (mode: string): string[] => [
  "--",
  Deno.execPath(),
  "run",
  "--allow-all",
  "--no-config",
  fixture("misbehaving.ts"),
  mode,
];

/** What a finished CLI run left behind. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI from this repository as a command: run in `cwd` (the root by default) with `NO_COLOR`
 * and `env` added to the environment, output piped; `signal` sends it SIGTERM when it aborts.
 */
export function cliCommand(
  args: readonly string[],
  options: {
    cwd?: string;
    stdin?: "null" | "piped";
    env?: Record<string, string>;
    signal?: AbortSignal;
  } = {},
): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", `${ROOT}cli.ts`, ...args],
    cwd: options.cwd ?? ROOT,
    env: { NO_COLOR: "1", ...options.env },
    stdin: options.stdin ?? "null",
    stdout: "piped",
    stderr: "piped",
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** A finished CLI process as text. */
export function runOf(output: Deno.CommandOutput): Run {
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** Runs the CLI with `args` and no stdin, and collects its exit code and output. */
export async function cli(...args: string[]): Promise<Run> {
  return runOf(await cliCommand(args).output());
}

/** Runs the CLI with `input` on stdin. */
export async function cliWithInput(input: string, ...args: string[]): Promise<Run> {
  const child = cliCommand(args, { stdin: "piped" }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(input));
  await writer.close();
  return runOf(await child.output());
}

/** Reads text from `reader` until it matches `pattern` or ends; returns all read so far. */
export async function readUntil(
  reader: ReadableStreamDefaultReader<string>,
  pattern: RegExp,
): Promise<string> {
  let seen = "";
  while (!pattern.test(seen)) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  return seen;
}
