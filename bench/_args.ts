// How the benchmarks read their command lines: node:util's parseArgs, every count checked as a
// whole number, and any mistake answered with the benchmark's usage line and exit code 2.

import { parseArgs } from "node:util";

/** A whole-number option: its default, and the least value it takes (1 unless given). */
export interface CountOption {
  default: number;
  min?: number;
}

/** What a benchmark's command line may hold besides `--json` and `--help`. */
export interface ArgSpec<C extends string, S extends string, F extends string> {
  /** The usage line printed with `--help` and after any mistake. */
  usage: string;
  counts: Record<C, CountOption>;
  /** Options taking a value that the benchmark checks itself. */
  strings?: readonly S[];
  /** Options that take no value: true when given. */
  flags?: readonly F[];
  /** Whether `--no-pin` is taken (benchmarks that pin their processes to CPUs). */
  pins?: boolean;
}

/** A command line, read. */
export interface BenchArgs<C extends string, S extends string, F extends string> {
  counts: Record<C, number>;
  strings: Partial<Record<S, string>>;
  flags: Record<F, boolean>;
  json: boolean;
  /** False with `--no-pin`. */
  pin: boolean;
}

/** Stops the benchmark: `message`, then its usage line, on stderr; exit code 2. */
export function usageError(message: string, usage: string): never {
  console.error(`${message}\n${usage}`);
  Deno.exit(2);
}

/**
 * Reads a benchmark's command line as `spec` describes it. `--help` (`-h`) prints the usage line
 * and exits; an unknown option, a missing value or a count out of range stops with usageError().
 */
export function readArgs<C extends string, S extends string = never, F extends string = never>(
  args: readonly string[],
  spec: ArgSpec<C, S, F>,
): BenchArgs<C, S, F> {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  };
  if (spec.pins) options["no-pin"] = { type: "boolean" };
  for (const name of spec.flags ?? []) options[name] = { type: "boolean" };
  for (const name of [...Object.keys(spec.counts), ...spec.strings ?? []]) {
    options[name] = { type: "string" };
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: [...args], options }));
  } catch (error) {
    usageError((error as Error).message, spec.usage);
  }
  if (values.help) {
    console.log(spec.usage);
    Deno.exit(0);
  }
  const counts = {} as Record<C, number>;
  for (const [name, option] of Object.entries(spec.counts) as [C, CountOption][]) {
    const given = values[name] as string | undefined;
    const value = given === undefined ? option.default : Number(given);
    const min = option.min ?? 1;
    if (!Number.isInteger(value) || value < min) {
      const wanted = min === 1 ? "a positive whole number" : `a whole number of at least ${min}`;
      usageError(`--${name} needs ${wanted}, got ${JSON.stringify(given)}`, spec.usage);
    }
    counts[name] = value;
  }
  const strings: Partial<Record<S, string>> = {};
  for (const name of spec.strings ?? []) {
    const given = values[name];
    if (typeof given === "string") strings[name] = given;
  }
  const flags = {} as Record<F, boolean>;
  for (const name of spec.flags ?? []) flags[name] = values[name] === true;
  return { counts, strings, flags, json: values.json === true, pin: values["no-pin"] !== true };
}
