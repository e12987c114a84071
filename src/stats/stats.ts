/**
 * Call statistics: what {@link ServerManager.stats} and {@link ToolRegistry.stats} report. Counts
 * cover the life of a server's entry in the manager; latency percentiles cover a sliding window
 * of recent calls.
 *
 * @module
 */

import type { ServerState } from "../manager/types.ts";

/**
 * How statistics are kept.
 *
 * @example Percentiles over the last minute
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * await using manager = new ServerManager({ stats: { windowMs: 60_000, maxSamples: 500 } });
 * ```
 *
 * @example A clock moved by hand, as a test does
 * ```ts
 * import { ToolRegistry } from "@mcp-inspect/client/manager";
 * let now = 0;
 * using registry = new ToolRegistry({ stats: { windowMs: 1_000, now: () => now } });
 * registry.register({ name: "hi", inputSchema: { type: "object" }, handler: () => "hi" });
 * await registry.call("hi", {});
 * now += 1_001; // the call's latency has left the window; its count stays
 * console.log(registry.stats().local[0]?.latencyMs); // undefined
 * ```
 */
export interface StatsOptions {
  /** How far back latency percentiles look (default 5 minutes). */
  windowMs?: number;
  /** The most latencies kept per tool within the window; older ones go first (default 1000). */
  maxSamples?: number;
  /**
   * The clock latencies and the window are measured by, in milliseconds (default
   * `performance.now()`). Only the differences between its readings matter, so tests can pass a
   * clock they move by hand instead of waiting the window out.
   */
  now?: () => number;
}

/**
 * Latency percentiles of the calls that completed within the window, in milliseconds
 * (nearest-rank method).
 *
 * @example Reading a server's latency
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * await manager.connect("demo", { command: "demo" });
 * await manager.callTool("mcp__demo__echo");
 * const latency = manager.stats().servers[0]?.latencyMs;
 * if (latency) console.log(`p50 ${latency.p50} ms, p99 ${latency.p99} ms of ${latency.samples}`);
 * ```
 */
export interface LatencyPercentiles {
  /** The median. */
  p50: number;
  /** The 95th percentile. */
  p95: number;
  /** The 99th percentile. */
  p99: number;
  /** How many calls the percentiles are computed from. */
  samples: number;
}

/**
 * Counts of calls. A call that threw or returned `isError` is an error; a timeout is also an
 * error; a call cancelled by its caller is neither.
 *
 * @example Computing an error rate
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fail = { name: "fail", handler: () => ({ content: [], isError: true }) };
 * const fake = new FakeServer({ tools: [{ name: "echo" }, fail] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * await manager.connect("demo", { command: "demo" });
 * await manager.callTool("mcp__demo__echo");
 * await manager.callTool("mcp__demo__fail");
 * const { calls, errors } = manager.stats().servers[0]!;
 * console.log(`error rate ${(errors / Math.max(calls, 1) * 100).toFixed(1)}%`);
 * // "error rate 50.0%"
 * ```
 */
export interface CallStats {
  /** Calls started. */
  calls: number;
  /** Calls that failed: thrown errors, timeouts and results with `isError`. */
  errors: number;
  /** Calls that failed with a {@link TimeoutError}. */
  timeouts: number;
  /** Calls cancelled through their signal. */
  cancelled: number;
  /** Calls still running. */
  inFlight: number;
  /** Latency of the calls that completed (or failed) within the window; absent when none did. */
  latencyMs?: LatencyPercentiles;
}

/**
 * The statistics of one tool.
 *
 * @example Listing calls per tool
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * await manager.connect("demo", { command: "demo" });
 * await manager.callTool("mcp__demo__echo");
 * await manager.callTool("mcp__demo__echo");
 * for (const tool of manager.stats().servers[0]!.tools) console.log(tool.name, tool.calls);
 * // "echo" 2
 * ```
 */
export interface ToolStats extends CallStats {
  /** The tool's name on its server, or its registry name for a local tool. */
  name: string;
  /** The name the manager or registry gives it, when it still lists the tool. */
  qualifiedName?: string;
}

/**
 * The statistics of one server: its connection and its calls, in total and per tool.
 *
 * @example Listing servers with uptime
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * await manager.connect("demo", { command: "demo" });
 * for (const s of manager.stats().servers) console.log(s.name, s.state, s.uptimeMs, s.reconnects);
 * // "demo" "ready", a few milliseconds of uptime, 0 reconnects
 * ```
 */
export interface ServerStats extends CallStats {
  /** The server's name. */
  name: string;
  /** Its state now. */
  state: ServerState;
  /** When the current connection was made (ms since the epoch), while connected. */
  connectedAt?: number;
  /** How long the current connection has been up, in ms (0 when not connected). */
  uptimeMs: number;
  /** How many times it reconnected after a first success. */
  reconnects: number;
  /** Per tool, for every tool called at least once, by name. */
  tools: ToolStats[];
}

/**
 * What {@link ServerManager.stats} returns.
 *
 * @example Printing a line per server
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * await manager.connect("demo", { command: "demo" });
 * await manager.callTool("mcp__demo__echo");
 * const stats = manager.stats();
 * for (const s of stats.servers) console.error(`${s.name}: ${s.calls} calls, ${s.errors} errors`);
 * // "demo: 1 calls, 0 errors"
 * ```
 */
export interface ManagerStats {
  /** When the snapshot was taken (ms since the epoch). */
  at: number;
  /** The latency window, in ms. */
  windowMs: number;
  /** Every server, in the order they were added. */
  servers: ServerStats[];
}
