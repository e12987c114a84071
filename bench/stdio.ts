// Throughput of tools/call over stdio: a bare JSON-lines loop (the machine's limit), this client,
// and the official SDK v1 and v2 clients, against the same fast fake server in the same run.
//
// Usage: deno task bench [--calls N] [--rounds N] [--warmup N] [--json]
// Progress goes to stderr; the table (or JSON with --json) to stdout.

import { Client as SdkV1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as SdkV1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as SdkV2Client } from "@modelcontextprotocol/client";
import { StdioClientTransport as SdkV2StdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client, StdioTransport } from "../mod.ts";
import {
  bareLoop,
  callRunner,
  type Contender,
  formatTable,
  median,
  rate,
  ratio,
  type Runner,
  serverCommand,
} from "./_bench_util.ts";

const SERVER = decodeURIComponent(
  new URL("../testdata/servers/fast.ts", import.meta.url).pathname,
);
const CLIENT_INFO = { name: "bench", version: "0.0.0" };

/** Targets for this client, as fractions of the bare loop. */
const TARGETS: Ratios = { sequential: 0.95, concurrent: 0.85 };

const BARE = "bare loop";
const OURS = "mcp-inspect";

const CONTENDERS: readonly Contender[] = [
  { name: BARE, connect: () => bareLoop(SERVER) },
  {
    name: OURS,
    async connect(): Promise<Runner> {
      const client = await Client.connect(new StdioTransport(serverCommand(SERVER)), {
        clientInfo: CLIENT_INFO,
      });
      return callRunner(() => client.callTool("echo", { text: "hi" }), () => client.close());
    },
  },
  {
    name: "sdk v1 1.32.2",
    async connect(): Promise<Runner> {
      const client = new SdkV1Client(CLIENT_INFO);
      await client.connect(new SdkV1StdioTransport(serverCommand(SERVER)));
      return callRunner(
        () => client.callTool({ name: "echo", arguments: { text: "hi" } }),
        () => client.close(),
      );
    },
  },
  {
    name: "sdk v2 2.4.0",
    async connect(): Promise<Runner> {
      const client = new SdkV2Client(CLIENT_INFO);
      await client.connect(new SdkV2StdioTransport(serverCommand(SERVER)));
      return callRunner(
        () => client.callTool({ name: "echo", arguments: { text: "hi" } }),
        () => client.close(),
      );
    },
  },
];

const USAGE = "Usage: deno task bench [--calls N] [--rounds N] [--warmup N] [--json]";

interface Options {
  calls: number;
  rounds: number;
  warmup: number;
  json: boolean;
}

interface Ratios {
  sequential: number;
  concurrent: number;
}

interface Summary {
  calls: number;
  rounds: number;
  warmup: number;
  deno: string;
  os: string;
  targets: Ratios;
  meetsTargets: { sequential: boolean; concurrent: boolean };
  results: (Result & { vsBare: Ratios })[];
  /** This client's rate divided by each SDK's. */
  oursVs: Record<string, Ratios>;
}

interface Result {
  name: string;
  /** Median calls per second over the rounds. */
  sequential: number;
  concurrent: number;
  /** Every round, in calls per second. */
  samples: { sequential: number[]; concurrent: number[] };
}

function parseArgs(args: readonly string[]): Options {
  const options: Options = { calls: 5000, rounds: 5, warmup: 200, json: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      Deno.exit(0);
    }
    if (arg === "--json") {
      options.json = true;
      continue;
    }
    const key = arg.slice(2) as "calls" | "rounds" | "warmup";
    if (arg === "--calls" || arg === "--rounds" || arg === "--warmup") {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < (key === "warmup" ? 0 : 1)) {
        const wanted = key === "warmup" ? "a whole number" : "a positive whole number";
        usage(`${arg} needs ${wanted}, got ${JSON.stringify(args[i] ?? "")}`);
      }
      options[key] = value;
      continue;
    }
    usage(`Unknown argument ${JSON.stringify(arg)}`);
  }
  return options;
}

function usage(message: string): never {
  console.error(`${message}\n${USAGE}`);
  Deno.exit(2);
}

async function measure(options: Options): Promise<Result[]> {
  const log = (line: string) => console.error(line);
  const runners: Runner[] = [];
  try {
    for (const contender of CONTENDERS) {
      const runner = await contender.connect();
      runners.push(runner);
      // Warm up both paths: the JIT, and lazy setup such as the tool listing this client does
      // before its first call, must not count.
      await runner.sequential(options.warmup);
      await runner.concurrent(options.warmup);
    }
    const samples = CONTENDERS.map(() => ({
      sequential: [] as number[],
      concurrent: [] as number[],
    }));
    // Rounds interleave the contenders, so drift in machine load hits all of them alike.
    for (let round = 1; round <= options.rounds; round++) {
      for (const mode of ["sequential", "concurrent"] as const) {
        for (const [i, runner] of runners.entries()) {
          const perSecond = await rate(options.calls, (n) => runner[mode](n));
          samples[i]![mode].push(perSecond);
          log(`round ${round} ${mode} ${CONTENDERS[i]!.name}: ${Math.round(perSecond)} calls/s`);
        }
      }
    }
    return CONTENDERS.map((contender, i) => ({
      name: contender.name,
      sequential: median(samples[i]!.sequential),
      concurrent: median(samples[i]!.concurrent),
      samples: samples[i]!,
    }));
  } finally {
    for (const runner of runners) await runner.close();
  }
}

/** Everything worth keeping from a run: options, medians, samples and ratios. */
function summarize(results: readonly Result[], options: Options): Summary {
  const bare = results.find((r) => r.name === BARE)!;
  const ours = results.find((r) => r.name === OURS)!;
  const vsBare = (r: Result): Ratios => ({
    sequential: ratio(r.sequential, bare.sequential),
    concurrent: ratio(r.concurrent, bare.concurrent),
  });
  const oursVsBare = vsBare(ours);
  return {
    calls: options.calls,
    rounds: options.rounds,
    warmup: options.warmup,
    deno: Deno.version.deno,
    os: `${Deno.build.os}-${Deno.build.arch}`,
    targets: TARGETS,
    meetsTargets: {
      sequential: oursVsBare.sequential >= TARGETS.sequential,
      concurrent: oursVsBare.concurrent >= TARGETS.concurrent,
    },
    results: results.map((r) => ({ ...r, vsBare: vsBare(r) })),
    oursVs: Object.fromEntries(
      results.filter((r) => r !== bare && r !== ours).map((sdk) => [sdk.name, {
        sequential: ratio(ours.sequential, sdk.sequential),
        concurrent: ratio(ours.concurrent, sdk.concurrent),
      }]),
    ),
  };
}

function printTable(summary: Summary): void {
  const num = (n: number): string => Math.round(n).toLocaleString("en-US");
  // Half the range between rounds, as a share of the median: a ratio is only as good as this.
  const spread = (samples: number[], mid: number): string =>
    `±${Math.round(((Math.max(...samples) - Math.min(...samples)) / mid) * 50)}%`;
  const rows = [[
    "contender",
    ...["sequential/s", "concurrent/s"].flatMap((h) => [h, "spread", "× bare"]),
  ]];
  for (const r of summary.results) {
    rows.push([
      r.name,
      num(r.sequential),
      spread(r.samples.sequential, r.sequential),
      r.vsBare.sequential.toFixed(2),
      num(r.concurrent),
      spread(r.samples.concurrent, r.concurrent),
      r.vsBare.concurrent.toFixed(2),
    ]);
  }
  console.log(
    `${summary.calls} calls of tools/call "echo" over stdio, median of ${summary.rounds} ` +
      `round(s), Deno ${summary.deno}, ${summary.os}\n`,
  );
  console.log(formatTable(rows));
  const ours = summary.results.find((r) => r.name === OURS)!.vsBare;
  const verdict = (mode: keyof Ratios): string =>
    `${mode} ${ours[mode].toFixed(2)}× (target ≥ ${TARGETS[mode]}: ` +
    `${summary.meetsTargets[mode] ? "ok" : "BELOW"})`;
  console.log(`\n${OURS} vs bare: ${verdict("sequential")}, ${verdict("concurrent")}`);
  for (const [name, r] of Object.entries(summary.oursVs)) {
    console.log(
      `${OURS} vs ${name}: sequential ${r.sequential.toFixed(2)}×, ` +
        `concurrent ${r.concurrent.toFixed(2)}×`,
    );
  }
}

if (import.meta.main) {
  const options = parseArgs(Deno.args);
  const summary = summarize(await measure(options), options);
  if (options.json) console.log(JSON.stringify(summary, null, 2));
  else printTable(summary);
}
