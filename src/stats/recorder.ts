// Counting calls per tool: counters for the life of the recorder, and latencies over a sliding
// window (bounded in time and in count) for percentiles. Used per server by the manager and for
// local tools by the registry.

import { CancelledError, TimeoutError } from "../errors.ts";
import type { ServerState } from "../manager/types.ts";
import type {
  CallStats,
  LatencyPercentiles,
  ServerStats,
  StatsOptions,
  ToolStats,
} from "./stats.ts";
import type { CallToolResult } from "../types.ts";
import type { ManagedServer } from "../manager/_server.ts";

/** The defaults of {@link StatsOptions}. */
export const DEFAULT_WINDOW_MS = 300_000;
export const DEFAULT_MAX_SAMPLES = 1000;

interface Sample {
  at: number;
  ms: number;
}

class Counters {
  calls = 0;
  errors = 0;
  timeouts = 0;
  cancelled = 0;
  inFlight = 0;
  samples: Sample[] = [];
}

/** The statistics of calls, per tool. */
export class CallRecorder {
  readonly #tools = new Map<string, Counters>();
  readonly windowMs: number;
  readonly #maxSamples: number;
  readonly #now: () => number;

  constructor(options: StatsOptions = {}) {
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.#maxSamples = Math.max(1, options.maxSamples ?? DEFAULT_MAX_SAMPLES);
    this.#now = options.now ?? (() => performance.now());
  }

  /** Runs a call and records how it ended. */
  async track(tool: string, call: () => Promise<CallToolResult>): Promise<CallToolResult> {
    let counters = this.#tools.get(tool);
    if (!counters) this.#tools.set(tool, counters = new Counters());
    counters.calls++;
    counters.inFlight++;
    const started = this.#now();
    try {
      const result = await call();
      if (result.isError) counters.errors++;
      this.#sample(counters, started);
      return result;
    } catch (error) {
      if (error instanceof CancelledError) {
        counters.cancelled++;
      } else {
        counters.errors++;
        if (error instanceof TimeoutError) counters.timeouts++;
        this.#sample(counters, started);
      }
      throw error;
    } finally {
      counters.inFlight--;
    }
  }

  #sample(counters: Counters, started: number): void {
    const at = this.#now();
    counters.samples.push({ at, ms: at - started });
    // Trimmed in bulk so that recording stays O(1) amortised.
    if (counters.samples.length >= this.#maxSamples * 2) {
      counters.samples = counters.samples.slice(-this.#maxSamples);
    }
  }

  /** Per tool, by name; `qualify` names each tool the way its owner lists it. */
  tools(qualify: (tool: string) => string | undefined = () => undefined): ToolStats[] {
    return [...this.#tools.entries()]
      .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
      .map(([name, counters]) => {
        const qualifiedName = qualify(name);
        return {
          name,
          ...(qualifiedName !== undefined ? { qualifiedName } : {}),
          ...this.#summary([counters]),
        };
      });
  }

  /** Every tool together. */
  total(): CallStats {
    return this.#summary([...this.#tools.values()]);
  }

  #summary(all: Counters[]): CallStats {
    const stats: CallStats = { calls: 0, errors: 0, timeouts: 0, cancelled: 0, inFlight: 0 };
    const latencies: number[] = [];
    const since = this.#now() - this.windowMs;
    for (const counters of all) {
      stats.calls += counters.calls;
      stats.errors += counters.errors;
      stats.timeouts += counters.timeouts;
      stats.cancelled += counters.cancelled;
      stats.inFlight += counters.inFlight;
      const first = counters.samples.findIndex((sample) => sample.at >= since);
      counters.samples = first === -1 ? [] : counters.samples.slice(first);
      for (const sample of counters.samples.slice(-this.#maxSamples)) latencies.push(sample.ms);
    }
    const latency = percentiles(latencies);
    if (latency) stats.latencyMs = latency;
    return stats;
  }
}

/** One server's statistics; `qualify` gives the manager's name of a tool. */
export function serverStats(
  server: ManagedServer,
  state: ServerState,
  now: number,
  qualify: (tool: string) => string | undefined,
): ServerStats {
  // A disabled server may keep its connection; uptime is about the connection.
  const up = server.phase === "ready" && server.client ? server.connectedAt : undefined;
  return {
    name: server.name,
    state,
    ...(up !== undefined ? { connectedAt: up } : {}),
    uptimeMs: up !== undefined ? now - up : 0,
    reconnects: server.reconnects,
    ...server.stats.total(),
    tools: server.stats.tools(qualify),
  };
}

/** Nearest-rank percentiles, rounded to 0.01 ms. */
export function percentiles(values: number[]): LatencyPercentiles | undefined {
  if (values.length === 0) return undefined;
  const sorted = values.toSorted((a, b) => a - b);
  const rank = (p: number) => {
    const value = sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
    return Math.round(value * 100) / 100;
  };
  return { p50: rank(50), p95: rank(95), p99: rank(99), samples: sorted.length };
}
