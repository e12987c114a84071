// The manager under load: N stdio fixture servers connected in parallel, against one alone, and
// the client's memory per idle connection.
//
// Usage: deno task bench:manager [--servers 50] [--rounds 3] [--json]
//
// The limit is the same N processes started by hand and sent `initialize`, timed to their first
// answers: each fixture is a Deno process whose start-up costs tens of milliseconds of CPU, so on
// a machine with few cores the servers' own start-up, not the client, bounds the parallel time.
// The target is connecting N servers in at most 1.15× that limit.

import { availableParallelism } from "node:os";
import { DEFAULT_INHERITED_ENV_VARS } from "../mod.ts";
import { readArgs } from "./_args.ts";
import { type ServerConfig, ServerManager } from "../src/manager/mod.ts";

const USAGE = "Usage: deno task bench:manager [--servers N] [--rounds N] [--json]";

const { counts, json } = readArgs(Deno.args, {
  usage: USAGE,
  counts: { servers: { default: 50 }, rounds: { default: 3 } },
});
const COUNT = counts.servers;
const ROUNDS = counts.rounds;
/** Connecting N servers, as a multiple of N bare spawns to their first answer. */
const LIMIT_TARGET = 1.15;
const FAST_ARGS = [
  "run",
  "--allow-all",
  "--no-config",
  decodeURIComponent(new URL("../testdata/servers/fast.ts", import.meta.url).pathname),
];
const BARE_ENV: Record<string, string> = Object.fromEntries(
  DEFAULT_INHERITED_ENV_VARS.flatMap((key) => {
    const value = Deno.env.get(key);
    return value === undefined ? [] : [[key, value]];
  }),
);
const FAST: ServerConfig = { command: Deno.execPath(), args: FAST_ARGS };
const gc = (globalThis as { gc?: () => void }).gc;

function collect(): void {
  for (let i = 0; i < 3; i++) gc?.();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function managerFor(): ServerManager {
  return new ServerManager({ healthIntervalMs: 0, connectTimeoutMs: 120_000 });
}

/** Time to connect one server, median of five (the first run also warms Deno's caches). */
async function connectOne(): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < 6; run++) {
    await using manager = managerFor();
    const started = performance.now();
    await manager.connect("one", FAST);
    if (run > 0) times.push(performance.now() - started);
  }
  return median(times);
}

async function connectMany(count: number) {
  const configs = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`s${i}`, FAST] as const),
  );
  await using manager = managerFor();
  collect();
  const before = Deno.memoryUsage();
  const started = performance.now();
  const result = await manager.setServers(configs);
  const elapsed = performance.now() - started;
  const failed = Object.keys(result.failed).length;
  if (failed > 0) throw new Error(`${failed} of ${count} servers failed to connect`);
  // Idle a moment so that start-up garbage is gone before measuring what connections keep.
  await new Promise((resolve) => setTimeout(resolve, 200));
  collect();
  const after = Deno.memoryUsage();
  const tools = manager.allTools().length;
  return {
    elapsed,
    tools,
    heapPerConnection: (after.heapUsed - before.heapUsed) / count,
    rssPerConnection: (after.rss - before.rss) / count,
  };
}

/**
 * The limit: the same processes started and sent `initialize` with no client at all, timed until
 * every first answer is in (their exits are not counted). What the manager adds on top of this is
 * the client's cost.
 */
async function bareStart(count: number): Promise<number> {
  const line = new TextEncoder().encode(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "b", version: "1" },
      },
    }) + "\n",
  );
  const started = performance.now();
  const children = await Promise.all(Array.from({ length: count }, async () => {
    const child = new Deno.Command(Deno.execPath(), {
      args: FAST_ARGS,
      // What the stdio transport does by default: a trimmed environment and a process group of
      // its own, so that both sides start the same processes the same way.
      clearEnv: true,
      env: BARE_ENV,
      detached: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(line);
    const reader = child.stdout.getReader();
    await reader.read();
    reader.releaseLock();
    return { child, writer };
  }));
  const elapsed = performance.now() - started;
  await Promise.all(children.map(async ({ child, writer }) => {
    await writer.close();
    await child.stdout.cancel();
    await child.status;
  }));
  return elapsed;
}

const one = await connectOne();
const bareOne = median([await bareStart(1), await bareStart(1), await bareStart(1)]);
// Interleaved rounds, so that drift in machine load hits the limit and the manager alike.
const bareRuns: number[] = [];
const manyRuns: Awaited<ReturnType<typeof connectMany>>[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternating which goes first, so that neither always follows the other's clean-up.
  if (round % 2 === 0) {
    bareRuns.push(await bareStart(COUNT));
    manyRuns.push(await connectMany(COUNT));
  } else {
    manyRuns.push(await connectMany(COUNT));
    bareRuns.push(await bareStart(COUNT));
  }
  console.error(
    `round ${round + 1}: ${COUNT} bare spawns ${Math.round(bareRuns.at(-1)!)} ms, manager ${
      Math.round(manyRuns.at(-1)!.elapsed)
    } ms`,
  );
}
const bareAll = median(bareRuns);
const many = manyRuns.find((run) => run.elapsed === median(manyRuns.map((r) => r.elapsed)))!;
const report = {
  servers: COUNT,
  rounds: ROUNDS,
  cores: availableParallelism(),
  connectOneMs: Math.round(one),
  connectAllMs: Math.round(many.elapsed),
  ratio: Number((many.elapsed / one).toFixed(2)),
  bareOneMs: Math.round(bareOne),
  bareAllMs: Math.round(bareAll),
  bareRatio: Number((bareAll / bareOne).toFixed(2)),
  overLimit: Number((many.elapsed / bareAll).toFixed(2)),
  target: `connect ${COUNT} <= ${LIMIT_TARGET} x ${COUNT} bare spawns to first answer`,
  meetsTarget: many.elapsed / bareAll <= LIMIT_TARGET,
  heapKiBPerIdleConnection: Math.round(many.heapPerConnection / 1024),
  rssKiBPerIdleConnection: Math.round(many.rssPerConnection / 1024),
  gcExposed: gc !== undefined,
};
if (json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  console.log(`Manager: ${COUNT} stdio servers (testdata/servers/fast.ts) in parallel`);
  console.log(`  connect one:        ${report.connectOneMs} ms (median of 5)`);
  console.log(
    `  connect ${COUNT}:${
      " ".repeat(Math.max(1, 11 - String(COUNT).length))
    }${report.connectAllMs} ms`,
  );
  console.log(
    `  limit, no client:   ${report.bareAllMs} ms for ${COUNT} bare spawns to first answer ` +
      `(${report.bareOneMs} ms for one)`,
  );
  console.log(
    `  manager / limit:    ${report.overLimit}× (target ≤ ${LIMIT_TARGET}: ${
      report.meetsTarget ? "ok" : "ABOVE"
    }; median of ${ROUNDS} round(s), ${report.cores} cores for ${COUNT} server start-ups)`,
  );
  console.log(
    `${`  ${COUNT} vs one:`.padEnd(22)}${report.ratio}× (manager), ${report.bareRatio}× (bare)`,
  );
  console.log(`  client heap / idle connection: ${report.heapKiBPerIdleConnection} KiB`);
  console.log(`  client RSS  / idle connection: ${report.rssKiBPerIdleConnection} KiB`);
  if (!gc) console.log("  (run with --v8-flags=--expose-gc for steadier memory numbers)");
  console.log(`  ${many.tools} tools in the registry`);
}
