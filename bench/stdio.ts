// Throughput of tools/call over stdio: a bare JSON-lines loop (the machine's limit), this client,
// and the official SDK v1 and v2 clients, in the same run, against two servers with the same
// answers: the Deno fast fixture, which joins the answers to one stdin chunk into one write, and
// a Node server writing each answer on its own, as real servers do. Cold is a fresh connection's
// first calls (a fresh server too, for every contender alike), steady is after a warm-up. Each
// contender runs in a process of its own (this file again, with --contender), driven round by
// round from here, so that none shares a heap, a JIT or a garbage collector with another.
//
// Usage: deno task bench:stdio [--calls N] [--cold N] [--rounds N] [--warmup N] [--json]
// Progress goes to stderr; the table (or JSON with --json) to stdout.

import { Client as SdkV1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as SdkV1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as SdkV2Client } from "@modelcontextprotocol/client";
import { StdioClientTransport as SdkV2StdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client, StdioTransport } from "../mod.ts";
import {
  alternate,
  bareLoop,
  callRunner,
  CONCURRENT_RUNS,
  type Contender,
  ContenderProcess,
  formatTable,
  median,
  pairedRatio,
  type Runner,
  serveContender,
  type ServerCommand,
  serverCommand,
  SLICES,
  steadyRound,
} from "./_bench_util.ts";

const FAST = decodeURIComponent(new URL("../testdata/servers/fast.ts", import.meta.url).pathname);
const ONE_WRITE = decodeURIComponent(
  new URL("../testdata/servers/one_write.mjs", import.meta.url).pathname,
);
const CLIENT_INFO = { name: "bench", version: "0.0.0" };

/** The servers every contender runs against, in turn. */
const SERVERS: readonly (ServerCommand & { name: string })[] = [
  { name: "fast.ts (Deno, one write per stdin chunk)", ...serverCommand(FAST) },
  // What real servers do: the official SDK's stdio server writes each message on its own.
  { name: "one_write.mjs (Node, one write per message)", command: "node", args: [ONE_WRITE] },
];

/** Targets for this client, as fractions of the bare loop. */
const TARGETS: Ratios = {
  sequential: 0.95,
  concurrent: 0.85,
  coldSequential: 0.95,
  coldConcurrent: 0.8,
};

const BARE = "bare loop";
const OURS = "mcp-inspect";
const SESSION_ONLY = "mcp-inspect request()";

const CONTENDERS: readonly Contender[] = [
  { name: BARE, connect: (server) => bareLoop(server) },
  {
    name: OURS,
    async connect(server): Promise<Runner> {
      const client = await Client.connect(new StdioTransport(server), {
        clientInfo: CLIENT_INFO,
      });
      return callRunner(() => client.callTool("echo", { text: "hi" }), () => client.close());
    },
  },
  {
    // Where this client's time goes: the same call through the session alone, without the
    // tools/call layer (result shape check, output schema lookup, task detection).
    name: SESSION_ONLY,
    async connect(server): Promise<Runner> {
      const client = await Client.connect(new StdioTransport(server), {
        clientInfo: CLIENT_INFO,
      });
      return callRunner(
        () => client.request("tools/call", { name: "echo", arguments: { text: "hi" } }),
        () => client.close(),
      );
    },
  },
  {
    name: "sdk v1 1.32.2",
    async connect(server): Promise<Runner> {
      const client = new SdkV1Client(CLIENT_INFO);
      await client.connect(new SdkV1StdioTransport(server));
      return callRunner(
        () => client.callTool({ name: "echo", arguments: { text: "hi" } }),
        () => client.close(),
      );
    },
  },
  {
    name: "sdk v2 2.4.0",
    async connect(server): Promise<Runner> {
      const client = new SdkV2Client(CLIENT_INFO);
      await client.connect(new SdkV2StdioTransport(server));
      return callRunner(
        () => client.callTool({ name: "echo", arguments: { text: "hi" } }),
        () => client.close(),
      );
    },
  },
];

const USAGE =
  "Usage: deno task bench:stdio [--calls N] [--cold N] [--rounds N] [--warmup N] [--json]";

interface Options {
  calls: number;
  cold: number;
  rounds: number;
  warmup: number;
  json: boolean;
}

const MODES = ["sequential", "concurrent", "coldSequential", "coldConcurrent"] as const;
type Mode = typeof MODES[number];
type Ratios = Record<Mode, number>;

interface Summary {
  calls: number;
  cold: number;
  rounds: number;
  warmup: number;
  deno: string;
  os: string;
  targets: Ratios;
  servers: ServerSummary[];
}

interface ServerSummary {
  server: string;
  meetsTargets: Record<Mode, boolean>;
  results: (Result & { vsBare: Ratios })[];
  /** This client's rate divided by each SDK's. */
  oursVs: Record<string, Ratios>;
}

/** Median calls per second of each mode over the rounds, and every round's. */
interface Result extends Ratios {
  name: string;
  samples: Record<Mode, number[]>;
}

function parseArgs(args: readonly string[]): Options {
  const options: Options = { calls: 5000, cold: 3000, rounds: 5, warmup: 200, json: false };
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
    const key = arg.slice(2) as "calls" | "cold" | "rounds" | "warmup";
    if (["--calls", "--cold", "--rounds", "--warmup"].includes(arg)) {
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
 * Every contender in a process of its own (a fresh server per cold run, one kept for the steady
 * runs), alternating round by round.
 */
async function measure(serverIndex: number, options: Options): Promise<Result[]> {
  const log = (line: string) => console.error(line);
  const samples = CONTENDERS.map(() =>
    Object.fromEntries(MODES.map((mode) => [mode, [] as number[]])) as Record<Mode, number[]>
  );
  const processes: ContenderProcess[] = [];
  try {
    for (const [i, contender] of CONTENDERS.entries()) {
      processes.push(
        new ContenderProcess(contender.name, SELF, [
          "--contender",
          String(i),
          "--server",
          String(serverIndex),
        ]),
      );
    }
    // Cold: a fresh connection (and server) per run; its first calls are the measure. A cold
    // run lasts a few dozen milliseconds, so each round takes several.
    for (let round = 1; round <= options.rounds; round++) {
      for (const mode of ["coldSequential", "coldConcurrent"] as const) {
        const rates = await alternate(processes, mode, options.cold, COLD_RUNS);
        for (const [i, contender] of CONTENDERS.entries()) {
          samples[i]![mode].push(rates[i]!);
          log(`round ${round} ${mode} ${contender.name}: ${Math.round(rates[i]!)} calls/s`);
        }
      }
    }
    // Warm up both paths: the JIT, and lazy setup such as the tool listing this client does
    // before its first call, must not count.
    for (const process of processes) await process.rate("warmup", options.warmup);
    for (let round = 1; round <= options.rounds; round++) {
      for (const mode of ["sequential", "concurrent"] as const) {
        const rates = await steadyRound(processes, mode, options.calls);
        for (const [i, contender] of CONTENDERS.entries()) {
          samples[i]![mode].push(rates[i]!);
          log(`round ${round} ${mode} ${contender.name}: ${Math.round(rates[i]!)} calls/s`);
        }
      }
    }
  } finally {
    for (const process of processes) await process.close();
  }
  return CONTENDERS.map((contender, i) => ({
    name: contender.name,
    ...Object.fromEntries(MODES.map((mode) => [mode, median(samples[i]![mode])])) as Ratios,
    samples: samples[i]!,
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
      MODES.map((mode) => [mode, oursVsBare[mode] >= TARGETS[mode]]),
    ) as Record<Mode, boolean>,
    results: results.map((r) => ({ ...r, vsBare: ratios(r, bare) })),
    oursVs: Object.fromEntries(
      results.filter((r) => r !== bare && r !== ours && r.name !== SESSION_ONLY).map((sdk) => [
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
};
const SHOWN: readonly Mode[] = ["coldSequential", "coldConcurrent", "sequential", "concurrent"];

function printTable(summary: Summary): void {
  const num = (n: number): string => Math.round(n).toLocaleString("en-US");
  // Half the range between rounds, as a share of the median: a ratio is only as good as this.
  const spread = (samples: number[], mid: number): string =>
    `±${Math.round(((Math.max(...samples) - Math.min(...samples)) / mid) * 50)}%`;
  console.log(
    `tools/call "echo" over stdio: the first ${summary.cold} calls of a fresh connection (cold) ` +
      `and ${summary.calls} calls after a warm-up (steady), median of ${summary.rounds} ` +
      `round(s) (each: ${COLD_RUNS} cold runs of each kind, the steady sequential calls in ` +
      `${SLICES} slices, ${CONCURRENT_RUNS} steady concurrent runs, the contenders taking turns, ` +
      `each in its own process), Deno ${summary.deno}, ${summary.os}; ` +
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
    const ours = server.results.find((r) => r.name === OURS)!.vsBare;
    const verdict = (mode: Mode): string =>
      `${LABELS[mode].replace("/s", "")} ${ours[mode].toFixed(2)}× (target ≥ ${TARGETS[mode]}: ` +
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
  if (!contender || Deno.args[2] !== "--server" || !server) {
    console.error("Usage (internal): bench/stdio.ts --contender <i> --server <j>");
    Deno.exit(2);
  }
  await serveContender(() => contender.connect(server));
} else if (import.meta.main) {
  const options = parseArgs(Deno.args);
  const servers: ServerSummary[] = [];
  for (const [index, server] of SERVERS.entries()) {
    if (!(await runs(server.command))) {
      console.error(`Skipping ${server.name}: "${server.command}" does not run here`);
      continue;
    }
    console.error(`== ${server.name}`);
    servers.push(summarize(server.name, await measure(index, options)));
  }
  const summary: Summary = {
    calls: options.calls,
    cold: options.cold,
    rounds: options.rounds,
    warmup: options.warmup,
    deno: Deno.version.deno,
    os: `${Deno.build.os}-${Deno.build.arch}`,
    targets: TARGETS,
    servers,
  };
  if (options.json) console.log(JSON.stringify(summary, null, 2));
  else printTable(summary);
}
