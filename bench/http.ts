// `deno task bench`, HTTP leg: tools/call over Streamable HTTP against one local server (JSON
// answers, then SSE answers), this client beside the official SDK v2 client's
// StreamableHTTPClientTransport and a bare fetch loop (no client at all: what fetch itself gets
// from the server: the limit), in the same run. This client runs once per revision, 2025-11-25
// (as the SDK speaks) and 2026-07-28, each beside a bare loop sending what that revision asks of
// every request. Each contender runs in a process of its own (this file again, with --contender),
// driven from here and started afresh every round. A round measures a fresh process's first
// sequential calls (the JIT and lazy loads count), warms every contender up, then measures steady
// calls, sequential ones alternating the contenders in slices of calls. The bare loop runs twice
// for 2025-11-25: the second row shows how far apart identical code measures. More rows show where
// this client's time goes: for each revision, the bare loop doing all any safe client owes each
// call (the fetch options this transport's safety needs and every check of the answer: the floor
// of a safe client), and the client on the least transport it can run on with those options
// (for 2025-11-25 without them too; the contenders are in _http_contenders.ts).
// bench/http_layers.ts measures the steps between these layers more finely, in one process.
// Targets: ≥ 0.9× the bare loop sequentially (steady) with JSON answers, judged on the unrounded
// ratio, and ≥ 1.5× the SDK in every mode.
//
// The server runs on the last CPU and the contenders on the others (`taskset`), unless --no-pin
// or the machine cannot: unpinned, where the scheduler placed each process swayed its rate more
// than the gaps measured here (see cpuSplit() in _cpus.ts).
//
// Usage: deno task bench:http [--calls N] [--rounds N] [--warmup N] [--fresh N] [--answers json|sse]
//   [--no-pin] [--json]

import { BARE_OWED, CONTENDERS, type Era, OURS, SDK } from "./_http_contenders.ts";
import { ContenderProcess, type Sample, serveContender } from "./_contender_process.ts";
import { readArgs, usageError } from "./_args.ts";
import { type CpuSplit, cpuSplit } from "./_cpus.ts";
import { startServer } from "./_http_server.ts";
import { alternate, steadyRound } from "./_rounds.ts";
import { median, pairedRatio } from "./_stats.ts";
import { formatTable } from "./_table.ts";

/** This file: each contender runs it again in a process of its own (`--contender i --url u`). */
const SELF = new URL(import.meta.url);
const TARGET = 1.5;
/** Sequential JSON calls, as a fraction of the bare fetch loop. */
const LIMIT_TARGET = 0.9;

interface Options {
  /** Steady calls per round and mode, on a warm connection. */
  calls: number;
  rounds: number;
  /** Calls each way on the steady connection before anything steady is measured. */
  warmup: number;
  /** A fresh process's first sequential calls, measured once per round. */
  fresh: number;
  json: boolean;
  /** Pin the server to one CPU and the contenders to the others (see cpuSplit()). */
  pin: boolean;
  /** How the server answers: each kind in turn, or one. */
  answers: ("json" | "sse")[];
}

const USAGE =
  "Usage: deno task bench:http [--calls N] [--rounds N] [--warmup N] [--fresh N] [--answers json|sse] [--no-pin] [--json]";

function parseOptions(args: readonly string[]): Options {
  const { counts, strings, pin, json } = readArgs(args, {
    usage: USAGE,
    counts: {
      calls: { default: 2000 },
      rounds: { default: 3 },
      warmup: { default: 3000 },
      fresh: { default: 2000 },
    },
    strings: ["answers"],
    pins: true,
  });
  const kind = strings.answers;
  if (kind !== undefined && kind !== "json" && kind !== "sse") {
    usageError(`--answers needs json or sse, got ${JSON.stringify(kind)}`, USAGE);
  }
  return { ...counts, json, pin, answers: kind === undefined ? ["json", "sse"] : [kind] };
}

/** Concurrent calls of the warm-up: as many as the old warm-up made, no more (see measure()). */
const WARMUP_BURST = 100;

/** What is measured of each contender: its fresh process's first calls, then steady calls. */
type Kind = "fresh" | "sequential" | "concurrent";
const KINDS: readonly Kind[] = ["fresh", "sequential", "concurrent"];

/**
 * Each contender in a process of its own, started afresh for every round (identical loops in
 * long-lived processes differ for a whole run by as much as the gaps measured), alternating. A
 * round: a fresh process's first sequential calls (its JIT and lazy loads count), a warm-up of
 * `warmup` calls each way, then the steady runs on the warm-up's connection.
 */
async function measure(mode: "json" | "sse", options: Options, split: CpuSplit | undefined) {
  const server = await startServer(mode, split?.server);
  const perKind = () =>
    Object.fromEntries(KINDS.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
  const samples = CONTENDERS.map(perKind);
  const cpu = CONTENDERS.map(perKind);
  const record = (round: number, kind: Kind, measured: Sample[]) => {
    for (const [i, contender] of CONTENDERS.entries()) {
      const { rate, cpuMicros } = measured[i]!;
      samples[i]![kind].push(rate);
      cpu[i]![kind].push(cpuMicros);
      console.error(
        `${mode} round ${round} ${kind} ${contender.name} ${contender.era}: ${
          Math.round(rate)
        } calls/s, ${cpuMicros.toFixed(1)} µs CPU/call`,
      );
    }
  };
  try {
    for (let round = 1; round <= options.rounds; round++) {
      const processes = CONTENDERS.map((contender, i) =>
        new ContenderProcess(`${contender.name} ${contender.era}`, SELF, [
          "--contender",
          String(i),
          "--url",
          server.url,
        ], split?.contenders)
      );
      try {
        await Promise.all(processes.map((process) => process.ready()));
        // The first calls of a fresh process on a fresh connection, once per contender and round.
        record(
          round,
          "fresh",
          await alternate(processes, "coldSequential", options.fresh, 1, round),
        );
        // Steady means warm: a few hundred calls leave most of a client's code unoptimized, and
        // the runs below would measure the JIT at work rather than the client. The warm-up is
        // sequential (its rate is not kept) but for a short concurrent burst: a long one would
        // leave the bare loop, which opens a connection per call in flight, with thousands of
        // idle connections that slow its steady runs.
        for (const process of processes) {
          await process.run("sequential", options.warmup);
          await process.run("warmup", WARMUP_BURST);
        }
        for (const kind of ["sequential", "concurrent"] as const) {
          record(round, kind, await steadyRound(processes, kind, options.calls));
        }
      } finally {
        for (const process of processes) await process.close();
      }
    }
    return CONTENDERS.map((c, i) => ({
      name: c.name,
      era: c.era,
      ...Object.fromEntries(KINDS.map((kind) => [kind, median(samples[i]![kind])])) as Record<
        Kind,
        number
      >,
      samples: samples[i]!,
      cpuMicros: cpu[i]!,
    }));
  } finally {
    await server.close();
  }
}

interface Measured extends Record<Kind, number> {
  name: string;
  era: Era;
  /** Every round's calls per second, in the order the rounds ran. */
  samples: Record<Kind, number[]>;
  /** Every round's CPU time of the contender's process per call, in microseconds. */
  cpuMicros: Record<Kind, number[]>;
}

/** `a` over `b`, as the median of their round-by-round ratios. */
function versus(a: Measured, b: Measured, kind: Kind): number {
  return pairedRatio(a.samples[kind], b.samples[kind]);
}

if (import.meta.main && Deno.args[0] === "--contender") {
  const contender = CONTENDERS[Number(Deno.args[1])];
  const url = Deno.args[3];
  if (!contender || Deno.args[2] !== "--url" || !url) {
    console.error(
      `Usage (internal): bench/http.ts --contender <0-${CONTENDERS.length - 1}> --url <URL>`,
    );
    Deno.exit(2);
  }
  await serveContender(() => contender.connect(url));
} else if (import.meta.main) {
  const options = parseOptions(Deno.args);
  const split = options.pin ? await cpuSplit() : undefined;
  const placement = split
    ? `server on CPU ${split.server}, contenders on CPU ${split.contenders}`
    : "unpinned";
  console.error(`Placement: ${placement}`);
  const report: Record<string, unknown> = {
    calls: options.calls,
    rounds: options.rounds,
    warmup: options.warmup,
    fresh: options.fresh,
    placement,
    target: TARGET,
    limitTarget: LIMIT_TARGET,
  };
  const rows = [[
    "answers",
    "revision",
    "contender",
    "fresh seq/s",
    "× limit",
    "CPU µs",
    "sequential/s",
    "× limit",
    "CPU µs",
    "concurrent/s",
    "× limit",
    "CPU µs",
  ]];
  const verdicts: string[] = [];
  for (const mode of options.answers) {
    const results: Measured[] = await measure(mode, options, split);
    report[mode] = results;
    const find = (name: string, era: Era) => results.find((r) => r.name === name && r.era === era)!;
    for (const r of results) {
      const limit = find("bare fetch", r.era);
      rows.push([
        mode === "json" ? "JSON" : "SSE",
        r.era,
        r.name,
        ...KINDS.flatMap((kind) => [
          Math.round(r[kind]).toLocaleString("en"),
          versus(r, limit, kind).toFixed(2),
          median(r.cpuMicros[kind]).toFixed(1),
        ]),
      ]);
    }
    for (const era of ["2025-11-25", "2026-07-28"] as const) {
      const mine = find(OURS, era);
      const bare = find("bare fetch", era);
      const fresh = versus(mine, bare, "fresh");
      const seq = versus(mine, bare, "sequential");
      const conc = versus(mine, bare, "concurrent");
      report[`${mode} ${era} vs limit`] = { fresh, sequential: seq, concurrent: conc };
      const verdict = mode === "json"
        ? ` (${seq >= LIMIT_TARGET ? "ok" : "below"} target ≥ ${LIMIT_TARGET})`
        : "";
      verdicts.push(
        `${mode} ${era}: ${OURS} / bare fetch (the limit): fresh process ${fresh.toFixed(3)}×, ` +
          `sequential ${seq.toFixed(3)}×${verdict}, concurrent ${conc.toFixed(3)}×`,
      );
    }
    for (const era of ["2025-11-25", "2026-07-28"] as const) {
      const owed = find(BARE_OWED, era);
      const floor = versus(owed, find("bare fetch", era), "sequential");
      const aboveFloor = versus(find(OURS, era), owed, "sequential");
      report[`${mode} ${era} floor`] = { floor, oursOverFloor: aboveFloor };
      verdicts.push(
        `${mode} ${era}: ${BARE_OWED} (the floor of a safe client) / bare fetch: sequential ` +
          `${floor.toFixed(3)}×; ${OURS} / that floor: sequential ${aboveFloor.toFixed(3)}×`,
      );
    }
    const mine = find(OURS, "2025-11-25");
    const sdk = find(SDK, "2025-11-25");
    const seq = versus(mine, sdk, "sequential");
    const conc = versus(mine, sdk, "concurrent");
    report[`${mode} vs sdk`] = { sequential: seq, concurrent: conc };
    verdicts.push(
      `${mode} 2025-11-25: ${OURS} / ${SDK}: sequential ${seq.toFixed(3)}× (${
        seq >= TARGET ? "ok" : "below"
      } target ≥ ${TARGET}), concurrent ${conc.toFixed(3)}× (${conc >= TARGET ? "ok" : "below"})`,
    );
  }
  if (options.json) console.log(JSON.stringify(report, null, 2));
  else {
    console.log(
      `\ntools/call "echo" over Streamable HTTP, median of ${options.rounds} round(s): a fresh process's first ${options.fresh} sequential calls, then ${options.calls} calls each way after a warm-up of ${options.warmup}; ${placement}; ` +
        `each contender beside the bare fetch loop of the revision it speaks; × limit is the median of round-by-round ratios; CPU µs is what the contender's process spent per call (all threads, median)\n`,
    );
    console.log(formatTable(rows));
    console.log(`\n${verdicts.join("\n")}`);
  }
}
