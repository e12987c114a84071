// `deno task bench:http:layers`: where this client's time goes over Streamable HTTP, layer by
// layer, for each revision. bench/http.ts runs each contender in a process of its own, as users
// run one client, but fresh processes land a few points apart from round to round, more than
// most of the steps between these layers. Here all the layers of both revisions (LAYERS in
// _http_contenders.ts: the bare loop, the floor of a safe client, this client on the least
// transport, this client) run in one process, taking turns in short blocks of sequential calls,
// so that each block is compared with the blocks run just before and after it; the process is
// started afresh a few times and the medians over them reported.
//
// One process has one bias: the layers share Deno's fetch code, whose type feedback then serves
// them all. The bare loop, alone in its process, runs a few percent faster than here, so
// × limit reads higher here than in bench:http. The steps between layers are what this measures.
//
// With --instant, no server and no network: every layer's fetch is answered at once, in memory
// (_instant_fetch.ts), so that what each layer costs over the bare loop is its own work alone.
// Beside the run over the network, that shows how much of a layer's cost is its code and how much
// is that code running among Deno's fetch, the kernel and the server (see the README).
//
// Usage: deno task bench:http:layers [--processes N] [--passes N] [--block N] [--warmup N]
//   [--instant] [--no-pin] [--json]

import { readArgs } from "./_args.ts";
import { type Era, LAYERS } from "./_http_contenders.ts";
import { cpuSplit, onCpus } from "./_cpus.ts";
import { startServer } from "./_http_server.ts";
import { INSTANT_URL, instantFetch } from "./_instant_fetch.ts";
import type { Runner } from "./_runner.ts";
import { median } from "./_stats.ts";
import { formatTable } from "./_table.ts";

interface Options {
  /** Fresh processes, each measuring every layer. */
  processes: number;
  /** Turns per process: each layer runs one block of calls per pass. */
  passes: number;
  /** Sequential calls per block. */
  block: number;
  /** Calls per layer, in turns, before anything is measured. */
  warmup: number;
  /** Every fetch answered at once, in memory: no server, no network. */
  instant: boolean;
  pin: boolean;
  json: boolean;
}

const USAGE =
  "Usage: deno task bench:http:layers [--processes N] [--passes N] [--block N] [--warmup N] [--instant] [--no-pin] [--json]";

function parseOptions(args: readonly string[]): Options {
  const { counts, flags, pin, json } = readArgs(args, {
    usage: USAGE,
    counts: {
      processes: { default: 3 },
      passes: { default: 300 },
      block: { default: 50 },
      warmup: { default: 3000 },
    },
    flags: ["instant"],
    pins: true,
  });
  return { ...counts, instant: flags.instant, pin, json };
}

/** What one process measured of each layer, in the order of LAYERS. */
interface ProcessResult {
  /** Median µs per call over the blocks. */
  micros: number[];
  /** Median over the passes of the bare loop's time over this layer's, in the same revision. */
  limit: number[];
  /** Median over the passes of the layer before's time over this one's (1 for a bare loop). */
  step: number[];
  /** Median over the passes of this layer's µs per call less the bare loop's (0 for a bare loop). */
  extra: number[];
}

/**
 * The measuring process: connects every layer, warms them up in turns, then runs `passes` passes
 * of one block per layer, forwards and backwards in turn so that no layer always runs first.
 */
async function measureLayers(url: string, options: Options): Promise<ProcessResult> {
  const runners: Runner[] = [];
  // Before anything connects: the transports take the global fetch as they are built.
  if (options.instant) globalThis.fetch = instantFetch;
  try {
    for (const layer of LAYERS) runners.push(await layer.connect(url));
    for (let done = 0; done < options.warmup; done += options.block) {
      for (const runner of runners) await runner.sequential(options.block);
    }
    const times = runners.map(() => [] as number[]);
    const forwards = runners.map((_, i) => i);
    const backwards = [...forwards].reverse();
    for (let pass = 0; pass < options.passes; pass++) {
      for (const i of pass % 2 === 0 ? forwards : backwards) {
        const start = performance.now();
        await runners[i]!.sequential(options.block);
        times[i]!.push((performance.now() - start) * 1000 / options.block);
      }
    }
    const versus = (a: number, b: number) =>
      median(times[a]!.map((t, pass) => t / times[b]![pass]!));
    const bareOf = (era: Era) => LAYERS.findIndex((layer) => layer.era === era);
    return {
      micros: times.map(median),
      limit: LAYERS.map((layer, i) => versus(bareOf(layer.era), i)),
      step: LAYERS.map((layer, i) => i === bareOf(layer.era) ? 1 : versus(i - 1, i)),
      extra: LAYERS.map((layer, i) => {
        const bare = times[bareOf(layer.era)]!;
        return median(times[i]!.map((t, pass) => t - bare[pass]!));
      }),
    };
  } finally {
    for (const runner of runners) await runner.close();
  }
}

/** Runs this file again with `--measure` in a process of its own, and reads what it printed. */
async function inProcess(
  url: string,
  options: Options,
  cpus: string | undefined,
): Promise<ProcessResult> {
  const [command, args] = onCpus(cpus, Deno.execPath(), [
    "run",
    "--allow-all",
    "--config",
    new URL("../tests/deno.json", import.meta.url).pathname,
    new URL(import.meta.url).pathname,
    "--measure",
    url,
    JSON.stringify(options),
  ]);
  const { success, stdout } = await new Deno.Command(command, { args, stderr: "inherit" })
    .output();
  if (!success) throw new Error("A measuring process failed (its error is above)");
  return JSON.parse(new TextDecoder().decode(stdout));
}

if (import.meta.main && Deno.args[0] === "--measure") {
  const [, url, given] = Deno.args;
  console.log(JSON.stringify(await measureLayers(url!, JSON.parse(given!) as Options)));
} else if (import.meta.main) {
  const options = parseOptions(Deno.args);
  const split = options.pin ? await cpuSplit() : undefined;
  const placement = !split
    ? "unpinned"
    : options.instant
    ? `the measuring process on CPU ${split.contenders}`
    : `server on CPU ${split.server}, the measuring process on CPU ${split.contenders}`;
  const server = options.instant ? undefined : await startServer("json", split?.server);
  const results: ProcessResult[] = [];
  try {
    for (let i = 0; i < options.processes; i++) {
      results.push(await inProcess(server?.url ?? INSTANT_URL, options, split?.contenders));
      console.error(`process ${i + 1} of ${options.processes} measured`);
    }
  } catch (error) {
    console.error(`bench:http:layers: ${(error as Error).message}`);
    Deno.exitCode = 1;
  } finally {
    await server?.close();
  }
  if (Deno.exitCode !== 0) Deno.exit();
  const over = (pick: (result: ProcessResult) => number) => median(results.map(pick));
  const layers = LAYERS.map((layer, i) => ({
    name: layer.name,
    era: layer.era,
    microsPerCall: over((r) => r.micros[i]!),
    limit: over((r) => r.limit[i]!),
    step: over((r) => r.step[i]!),
    extraMicros: over((r) => r.extra[i]!),
    perProcess: results.map((r) => r.limit[i]!),
  }));
  if (options.json) console.log(JSON.stringify({ ...options, placement, layers }, null, 2));
  else {
    console.log(
      `\ntools/call "echo" over Streamable HTTP, JSON answers${
        options.instant ? " from an instant fetch (in memory: no server, no network)" : ""
      }, all layers in one process taking turns in blocks of ${options.block} sequential calls (${options.passes} passes after a warm-up of ${options.warmup} each), median of ${options.processes} fresh process(es); ${placement}; × limit: the bare loop's time over the layer's, block by block; × layer above: the same against the layer above it; µs over bare: the layer's time less the bare loop's, block by block\n`,
    );
    console.log(formatTable([
      [
        "revision",
        "layer",
        "µs/call",
        "µs over bare",
        "× limit",
        "× layer above",
        "× limit, each process",
      ],
      ...layers.map((layer) => [
        layer.era,
        layer.name,
        layer.microsPerCall.toFixed(1),
        layer.extraMicros === 0 ? "" : layer.extraMicros.toFixed(2),
        layer.limit.toFixed(3),
        layer.step === 1 ? "" : layer.step.toFixed(3),
        layer.perProcess.map((ratio) => ratio.toFixed(3)).join(" "),
      ]),
    ]));
  }
}
