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

/** Runs the CLI with `args` and no stdin, and collects its exit code and output. */
export async function cli(...args: string[]): Promise<Run> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "cli.ts", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}
