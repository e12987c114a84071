// Throughput of tools/call over stdio: a bare JSON-lines loop (the machine's limit), this client,
// and the official SDK v1 and v2 clients, in the same run, against two servers with the same
// answers: the Deno fast fixture, which joins the answers to one stdin chunk into one write, and
// a Node server writing each answer on its own, as real servers do. Each contender runs in a
// process of its own (this file again, with --contender), started afresh for every round and
// driven from here, so that none shares a heap, a JIT or a garbage collector with another. In
// each round: a fresh process's first calls (the JIT and every lazy load count), a warm-up, cold
// runs (a fresh connection's first calls, to a fresh server, for every contender alike), then
// steady runs on the warm-up's connection. Beside calls per second, each contender reports the
// CPU time its process spent per call. Three rows are no contenders: the bare loop run a second
// time, which shows how far apart identical code measures, and this client's transport alone and
// session alone (`request()`), which show where its time goes (the contenders and the servers are
// in _stdio_contenders.ts). The servers run on the last CPU and the contenders on the others
// (`taskset`), unless --no-pin or the machine cannot (see cpuSplit() in _cpus.ts).
//
// Usage: deno task bench:stdio [--calls N] [--cold N] [--rounds N] [--warmup N]
//   [--server fast|one-write] [--only "<contender>,…"] [--no-pin] [--json]
// Progress goes to stderr; the table (or JSON with --json) to stdout.

import { readArgs, usageError } from "./_args.ts";
import { ContenderProcess, type Sample, serveContender } from "./_contender_process.ts";
import { type CpuSplit, cpuSplit, onCpus } from "./_cpus.ts";
import { alternate, CONCURRENT_RUNS, SLICES, steadyRound } from "./_rounds.ts";
import { BARE, CONTENDERS, LAYERS, OURS, SERVERS } from "./_stdio_contenders.ts";
import { median, pairedRatio } from "./_stats.ts";
import { formatTable } from "./_table.ts";

/** Targets for this client, as fractions of the bare loop (none for a fresh process's calls). */
const TARGETS: Record<Shown, number> = {
  sequential: 0.95,
  concurrent: 0.85,
  coldSequential: 0.95,
  coldConcurrent: 0.8,
};

const USAGE = "Usage: deno task bench:stdio [--calls N] [--cold N] [--rounds N] [--warmup N] " +
  '[--server fast|one-write] [--only "<contender>,..."] [--no-pin] [--json]\n' +
  "--only keeps the named contenders beside the bare loop and mcp-inspect (fewer contenders, " +
  "shorter rounds, so more of them in the same time)";

interface Options {
  calls: number;
  cold: number;
  rounds: number;
  warmup: number;
  json: boolean;
  /** Indices into SERVERS. */
  servers: number[];
  /** Indices into CONTENDERS. */
  contenders: number[];
  /** Pin the servers to one CPU and the contenders to the others (see cpuSplit()). */
  pin: boolean;
}

const MODES = [
  "sequential",
  "concurrent",
  "coldSequential",
  "coldConcurrent",
  "freshSequential",
] as const;
type Mode = typeof MODES[number];
/** The modes of the main table, each with its target. */
type Shown = Exclude<Mode, "freshSequential">;
type Ratios = Record<Mode, number>;

interface Summary {
  calls: number;
  cold: number;
  rounds: number;
  warmup: number;
  deno: string;
  os: string;
  /** Where the servers and the contenders ran. */
  placement: string;
  targets: Record<Shown, number>;
  servers: ServerSummary[];
}

interface ServerSummary {
  server: string;
  meetsTargets: Record<Shown, boolean>;
  results: (Result & { vsBare: Ratios })[];
  /** This client's rate divided by each SDK's. */
  oursVs: Record<string, Ratios>;
}

/**
 * Median calls per second of each mode over the rounds, and every round's; and the CPU time the
 * contender's process spent per call, in microseconds, every round's.
 */
interface Result extends Ratios {
  name: string;
  samples: Record<Mode, number[]>;
  cpuMicros: Record<Mode, number[]>;
}

function parseOptions(args: readonly string[]): Options {
  const { counts, strings, json, pin } = readArgs(args, {
    usage: USAGE,
    counts: {
      calls: { default: 5000 },
      cold: { default: 3000 },
      rounds: { default: 5 },
      warmup: { default: 200, min: 0 },
    },
    strings: ["server", "only"],
    pins: true,
  });
  const options: Options = {
    ...counts,
    json,
    pin,
    servers: SERVERS.map((_, i) => i),
    contenders: CONTENDERS.map((_, i) => i),
  };
  if (strings.server !== undefined) {
    const index = SERVERS.findIndex((server) => server.key === strings.server);
    if (index === -1) {
      usageError(
        `--server needs one of ${SERVERS.map((s) => s.key).join(", ")}, got ${strings.server}`,
        USAGE,
      );
    }
    options.servers = [index];
  }
  if (strings.only !== undefined) {
    const names = strings.only.split(",").map((name) => name.trim()).filter(Boolean);
    const unknown = names.filter((name) => !CONTENDERS.some((c) => c.name === name));
    if (names.length === 0 || unknown.length > 0) {
      usageError(
        `--only needs contender names among ${CONTENDERS.map((c) => c.name).join(", ")}; ` +
          `got ${JSON.stringify(unknown.length > 0 ? unknown : strings.only)}`,
        USAGE,
      );
    }
    const kept = new Set([BARE, OURS, ...names]);
    options.contenders = CONTENDERS.flatMap((c, index) => kept.has(c.name) ? [index] : []);
  }
  return options;
}

/** Whether `command` starts at all (Node may be missing). */
async function runs(command: string): Promise<boolean> {
  try {
    const { success } = await new Deno.Command(command, { args: ["--version"], stdout: "null" })
      .output();
    return success;
  } catch {
    return false;
  }
}

/** How many cold runs of each kind make one round (a cold run lasts a few dozen milliseconds). */
const COLD_RUNS = 3;

/** This file: each contender runs it again in a process of its own (`--contender i --server j`). */
const SELF = new URL(import.meta.url);

/**
 * Every contender in a process of its own, started afresh for every round: identical bare loops
 * in long-lived processes kept differing by up to 16% for a whole run (where each process and its
 * server happened to land), as much as the gaps measured here; fresh processes each round turn
 * that into round-to-round noise, which the median of the rounds absorbs. In each round: a
 * warm-up, the cold runs (each on a fresh connection and server), then the steady runs on the
 * warm-up's connection.
 */
async function measure(
  serverIndex: number,
  options: Options,
  split: CpuSplit | undefined,
): Promise<Result[]> {
  const log = (line: string) => console.error(line);
  const contenders = options.contenders.map((index) => ({ index, ...CONTENDERS[index]! }));
  const perMode = () =>
    Object.fromEntries(MODES.map((mode) => [mode, [] as number[]])) as Record<Mode, number[]>;
  const samples = contenders.map(perMode);
  const cpu = contenders.map(perMode);
  const record = (round: number, mode: Mode, measured: Sample[]) => {
    for (const [i, contender] of contenders.entries()) {
      const { rate, cpuMicros } = measured[i]!;
      samples[i]![mode].push(rate);
      cpu[i]![mode].push(cpuMicros);
      log(
        `round ${round} ${mode} ${contender.name}: ${Math.round(rate)} calls/s, ` +
          `${cpuMicros.toFixed(1)} µs CPU/call`,
      );
    }
  };
  for (let round = 1; round <= options.rounds; round++) {
    const processes = contenders.map((contender) =>
      new ContenderProcess(contender.name, SELF, [
        "--contender",
        String(contender.index),
        "--server",
        String(serverIndex),
        ...(split ? ["--server-cpus", split.server] : []),
      ], split?.contenders)
    );
    try {
      await Promise.all(processes.map((process) => process.ready()));
      // A fresh process's first calls, once per contender and round: the JIT and every lazy load
      // count here, as they do in a one-shot command (bench:cli measures that end to end).
      record(
        round,
        "freshSequential",
        await alternate(processes, "coldSequential", options.cold, 1, round),
      );
      // Then warm up: cold below measures a fresh connection to a fresh server in a process that
      // has run this client before, as an agent host opening one more connection does.
      for (const process of processes) await process.run("warmup", options.warmup);
      // Cold: a fresh connection (and server) per run; its first calls are the measure.
      for (const mode of ["coldSequential", "coldConcurrent"] as const) {
        record(round, mode, await alternate(processes, mode, options.cold, COLD_RUNS));
      }
      // Steady: the connection the warm-up made.
      for (const mode of ["sequential", "concurrent"] as const) {
        record(round, mode, await steadyRound(processes, mode, options.calls));
      }
    } finally {
      for (const process of processes) await process.close();
    }
  }
  return contenders.map((contender, i) => ({
    name: contender.name,
    ...Object.fromEntries(MODES.map((mode) => [mode, median(samples[i]![mode])])) as Ratios,
    samples: samples[i]!,
    cpuMicros: cpu[i]!,
  }));
}

/** `a` over `b` in each mode, as the median of their round-by-round ratios. */
function ratios(a: Result, b: Result): Ratios {
  return Object.fromEntries(
    MODES.map((mode) => [mode, pairedRatio(a.samples[mode], b.samples[mode])]),
  ) as Ratios;
}

/** Everything worth keeping of one server's run: medians, samples and ratios. */
function summarize(server: string, results: readonly Result[]): ServerSummary {
  const bare = results.find((r) => r.name === BARE)!;
  const ours = results.find((r) => r.name === OURS)!;
  const oursVsBare = ratios(ours, bare);
  return {
    server,
    meetsTargets: Object.fromEntries(
      SHOWN.map((mode) => [mode, oursVsBare[mode] >= TARGETS[mode]]),
    ) as Record<Shown, boolean>,
    results: results.map((r) => ({ ...r, vsBare: ratios(r, bare) })),
    oursVs: Object.fromEntries(
      results.filter((r) => r !== bare && r !== ours && !LAYERS.includes(r.name)).map((sdk) => [
        sdk.name,
        ratios(ours, sdk),
      ]),
    ),
  };
}

const LABELS: Record<Mode, string> = {
  coldSequential: "cold seq/s",
  coldConcurrent: "cold conc/s",
  sequential: "sequential/s",
  concurrent: "concurrent/s",
  freshSequential: "fresh process seq/s",
};
const SHOWN: readonly Shown[] = ["coldSequential", "coldConcurrent", "sequential", "concurrent"];

function printTable(summary: Summary): void {
  const num = (n: number): string => Math.round(n).toLocaleString("en-US");
  // Half the range between rounds, as a share of the median: a ratio is only as good as this.
  const spread = (samples: number[], mid: number): string =>
    `±${Math.round(((Math.max(...samples) - Math.min(...samples)) / mid) * 50)}%`;
  console.log(
    `tools/call "echo" over stdio: the first ${summary.cold} calls of a fresh connection in a ` +
      `warm process (cold) and of a fresh process (fresh process) ` +
      `and ${summary.calls} calls after a warm-up (steady), median of ${summary.rounds} ` +
      `round(s) (each: ${COLD_RUNS} cold runs of each kind, the steady sequential calls in ` +
      `${SLICES} slices, ${CONCURRENT_RUNS} steady concurrent runs, the contenders taking turns, ` +
      `each in a process of its own, started afresh every round), Deno ${summary.deno}, ${summary.os}, ` +
      `${summary.placement}; ` +
      `× bare is the median of round-by-round ratios`,
  );
  for (const server of summary.servers) {
    const rows = [["contender", ...SHOWN.flatMap((mode) => [LABELS[mode], "spread", "× bare"])]];
    for (const r of server.results) {
      rows.push([
        r.name,
        ...SHOWN.flatMap((mode) => [
          num(r[mode]),
          spread(r.samples[mode], r[mode]),
          r.vsBare[mode].toFixed(2),
        ]),
      ]);
    }
    console.log(`\n${server.server}\n`);
    console.log(formatTable(rows));
    // Where the time goes: what each contender's own process spent per call, beside the limit's.
    const cpuRows = [["CPU µs per call", ...SHOWN.map((mode) => LABELS[mode].replace("/s", ""))]];
    for (const r of server.results) {
      cpuRows.push([r.name, ...SHOWN.map((mode) => median(r.cpuMicros[mode]).toFixed(1))]);
    }
    console.log(`\n${formatTable(cpuRows)}`);
    // A fresh process's first calls: the JIT and every lazy load count, once per round.
    const fresh = "freshSequential";
    const freshRows = [["contender", LABELS[fresh], "spread", "× bare", "CPU µs per call"]];
    for (const r of server.results) {
      freshRows.push([
        r.name,
        num(r[fresh]),
        spread(r.samples[fresh], r[fresh]),
        r.vsBare[fresh].toFixed(2),
        median(r.cpuMicros[fresh]).toFixed(1),
      ]);
    }
    console.log(`\n${formatTable(freshRows)}`);
    const ours = server.results.find((r) => r.name === OURS)!.vsBare;
    const verdict = (mode: Shown): string =>
      `${LABELS[mode].replace("/s", "")} ${ours[mode].toFixed(3)}× (target ≥ ${TARGETS[mode]}: ` +
      `${server.meetsTargets[mode] ? "ok" : "BELOW"})`;
    console.log(`\n${OURS} vs bare: ${SHOWN.map(verdict).join(", ")}`);
    for (const [name, r] of Object.entries(server.oursVs)) {
      const each = SHOWN.map((mode) => `${LABELS[mode].replace("/s", "")} ${r[mode].toFixed(2)}×`);
      console.log(`${OURS} vs ${name}: ${each.join(", ")}`);
    }
  }
}

if (import.meta.main && Deno.args[0] === "--contender") {
  const contender = CONTENDERS[Number(Deno.args[1])];
  const server = SERVERS[Number(Deno.args[3])];
  const cpus = Deno.args[4] === "--server-cpus" ? Deno.args[5] : undefined;
  if (!contender || Deno.args[2] !== "--server" || !server) {
    console.error(
      "Usage (internal): bench/stdio.ts --contender <i> --server <j> [--server-cpus <cpus>]",
    );
    Deno.exit(2);
  }
  // Every contender spawns its servers on the CPUs the driver set aside for them.
  const [command, args] = onCpus(cpus, server.command, server.args);
  await serveContender(() => contender.connect({ command, args }));
} else if (import.meta.main) {
  const options = parseOptions(Deno.args);
  const split = options.pin ? await cpuSplit() : undefined;
  const placement = split
    ? `servers on CPU ${split.server}, contenders on CPU ${split.contenders}`
    : "unpinned";
  console.error(`Placement: ${placement}`);
  const servers: ServerSummary[] = [];
  for (const index of options.servers) {
    const server = SERVERS[index]!;
    if (!(await runs(server.command))) {
      console.error(`Skipping ${server.name}: "${server.command}" does not run here`);
      continue;
    }
    console.error(`== ${server.name}`);
    servers.push(summarize(server.name, await measure(index, options, split)));
  }
  const summary: Summary = {
    calls: options.calls,
    cold: options.cold,
    rounds: options.rounds,
    warmup: options.warmup,
    deno: Deno.version.deno,
    os: `${Deno.build.os}-${Deno.build.arch}`,
    placement,
    targets: TARGETS,
    servers,
  };
  if (options.json) console.log(JSON.stringify(summary, null, 2));
  else printTable(summary);
}
