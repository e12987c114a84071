import assert from "node:assert/strict";
import { CancelledError, McpError, TimeoutError } from "../../mod.ts";
import {
  type ServerConfig,
  ServerManager,
  type ServerStats,
  ToolDeniedError,
  ToolRegistry,
} from "../../src/manager/mod.ts";
import { percentiles } from "../../src/stats/recorder.ts";
import { fakeServer, fakeTime, rejectsWith } from "../_helpers.ts";

function fake(name: string, extra: Partial<ServerConfig> = {}): ServerConfig {
  const { command, args } = fakeServer(name);
  return { command, args: [...args!], ...extra } as ServerConfig;
}

const QUICK = {
  healthIntervalMs: 0,
  reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
} as const;

function serverStats(manager: ServerManager, name: string): ServerStats {
  const found = manager.stats().servers.find((server) => server.name === name);
  assert.ok(found, `no stats for ${name}`);
  return found;
}

Deno.test("stats() counts concurrent calls, errors, timeouts and cancellations per server and tool", async () => {
  await using manager = new ServerManager(QUICK);
  await manager.setServers({
    rich: fake("everything.ts", { deny: ["elicit"] }),
    fast: fake("fast.ts"),
  });
  const controller = new AbortController();
  const calls: Promise<unknown>[] = [
    ...Array.from({ length: 20 }, (_, i) => manager.callTool("rich", "echo", { text: `${i}` })),
    ...Array.from({ length: 5 }, () => manager.callTool("rich", "fail", {})),
    ...Array.from(
      { length: 3 },
      () => rejectsWith(manager.callTool("rich", "error", {}), McpError),
    ),
    ...Array.from(
      { length: 2 },
      () => rejectsWith(manager.callTool("rich", "hang", {}, { timeoutMs: 100 }), TimeoutError),
    ),
    rejectsWith(
      manager.callTool("rich", "hang", {}, { signal: controller.signal }),
      CancelledError,
    ),
    manager.callTool("mcp__fast__echo", { text: "x" }),
  ];
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(serverStats(manager, "rich").inFlight > 0, true);
  controller.abort();
  await Promise.all(calls);
  await rejectsWith(manager.callTool("rich", "elicit", {}), ToolDeniedError);

  const rich = serverStats(manager, "rich");
  assert.equal(rich.state, "ready");
  assert.equal(rich.calls, 31, "refused calls never reach the server and are not counted");
  assert.equal(rich.errors, 10);
  assert.equal(rich.timeouts, 2);
  assert.equal(rich.cancelled, 1);
  assert.equal(rich.inFlight, 0);
  assert.equal(rich.latencyMs?.samples, 30, "cancelled calls have no latency");
  assert.ok(
    rich.latencyMs!.p50 <= rich.latencyMs!.p95 && rich.latencyMs!.p95 <= rich.latencyMs!.p99,
  );
  assert.ok(rich.latencyMs!.p99 >= 100, "the timed-out calls took their 100 ms");
  assert.equal(rich.reconnects, 0);
  assert.ok(rich.uptimeMs >= 0 && rich.connectedAt! <= Date.now());

  const byTool = Object.fromEntries(rich.tools.map((tool) => [tool.name, tool]));
  assert.deepEqual(Object.keys(byTool), ["echo", "error", "fail", "hang"]);
  assert.deepEqual(
    { ...byTool.echo, latencyMs: undefined },
    {
      name: "echo",
      qualifiedName: "mcp__rich__echo",
      calls: 20,
      errors: 0,
      timeouts: 0,
      cancelled: 0,
      inFlight: 0,
      latencyMs: undefined,
    },
  );
  assert.equal(byTool.echo!.latencyMs!.samples, 20);
  assert.deepEqual([byTool.fail!.calls, byTool.fail!.errors], [5, 5]);
  assert.deepEqual([byTool.error!.calls, byTool.error!.errors], [3, 3]);
  assert.deepEqual(
    [byTool.hang!.calls, byTool.hang!.errors, byTool.hang!.timeouts, byTool.hang!.cancelled],
    [3, 2, 2, 1],
  );
  const fast = serverStats(manager, "fast");
  assert.deepEqual([fast.calls, fast.errors, fast.tools[0]!.qualifiedName], [
    1,
    0,
    "mcp__fast__echo",
  ]);
  assert.equal(manager.stats().windowMs, 300_000);
});

Deno.test("stats() counts reconnects and restarts the uptime with the new connection", async () => {
  await using manager = new ServerManager(QUICK);
  await manager.setServers({ fast: fake("fast.ts") });
  const first = serverStats(manager, "fast");
  const pid = manager.servers()[0]!.pid!;
  const back = new Promise<void>((resolve) => {
    const off = manager.on("stateChanged", (status) => {
      if (status.state !== "ready") return;
      off();
      resolve();
    });
  });
  Deno.kill(pid, "SIGKILL");
  await back;
  const after = serverStats(manager, "fast");
  assert.equal(after.reconnects, 1);
  assert.ok(after.connectedAt! > first.connectedAt!);
  await manager.toggle("fast", false);
  assert.equal(serverStats(manager, "fast").state, "disabled");
  await manager.disconnect("fast");
  assert.deepEqual(manager.stats().servers, []);
});

Deno.test("stats() keeps counts but forgets latencies older than the window", async () => {
  let now = 0;
  await using manager = new ServerManager({
    ...QUICK,
    stats: { windowMs: 500, maxSamples: 3, now: () => now },
  });
  await manager.setServers({ fast: fake("fast.ts") });
  for (let i = 0; i < 5; i++) await manager.callTool("mcp__fast__echo", { text: "x" });
  const fresh = serverStats(manager, "fast");
  assert.equal(fresh.calls, 5);
  assert.equal(fresh.latencyMs?.samples, 3, "at most maxSamples per tool");
  assert.equal(manager.stats().windowMs, 500);
  now += 500;
  assert.equal(serverStats(manager, "fast").latencyMs?.samples, 3, "still within the window");
  now += 1;
  const stale = serverStats(manager, "fast");
  assert.equal(stale.calls, 5);
  assert.equal(stale.latencyMs, undefined);
});

Deno.test("percentiles() uses the nearest rank", () => {
  const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted
  assert.deepEqual(percentiles(values), { p50: 50, p95: 95, p99: 99, samples: 100 });
  assert.deepEqual(percentiles([7]), { p50: 7, p95: 7, p99: 7, samples: 1 });
  assert.equal(percentiles([]), undefined);
});

Deno.test("ToolRegistry.stats() counts local tools and includes the manager's and the cache's", async () => {
  await using manager = new ServerManager(QUICK);
  await manager.setServers({ fast: fake("fast.ts") });
  using registry = new ToolRegistry({ manager, cache: true });
  registry.register({
    name: "maybe",
    inputSchema: { type: "object", properties: { ok: { type: "boolean" } } },
    handler: async ({ ok }, { signal }) => {
      if (ok === false) throw new Error("no");
      if (ok === undefined) await new Promise((resolve) => signal.onabort = resolve);
      return "yes";
    },
  });
  using clock = fakeTime();
  const calls = Promise.all([
    registry.call("maybe", { ok: true }),
    registry.call("maybe", { ok: false }),
    rejectsWith(registry.call("maybe", {}, { timeoutMs: 30 }), TimeoutError),
    registry.call("mcp__fast__echo", { text: "x" }),
  ]);
  await clock.tickAsync(30);
  await calls;
  const stats = registry.stats();
  assert.deepEqual(stats.local.map((tool) => [tool.name, tool.calls, tool.errors, tool.timeouts]), [
    ["maybe", 3, 2, 1],
  ]);
  assert.equal(stats.local[0]!.qualifiedName, "maybe");
  assert.equal(stats.mcp?.servers[0]?.calls, 1);
  assert.deepEqual(stats.cache, { hits: 0, misses: 0, size: 0 });
});
