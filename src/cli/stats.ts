// `mcp-inspect proxy --stats <seconds>`: the registry's statistics as lines for stderr, one per
// server and one per tool called, then local tools and the result cache.

import type { CallStats, RegistryStats } from "../manager/mod.ts";

function counts(stats: CallStats): string {
  const parts = [
    `${stats.calls} calls`,
    `${stats.errors} errors`,
    `${stats.timeouts} timeouts`,
  ];
  if (stats.cancelled > 0) parts.push(`${stats.cancelled} cancelled`);
  if (stats.inFlight > 0) parts.push(`${stats.inFlight} running`);
  const latency = stats.latencyMs;
  if (latency) {
    parts.push(
      `p50 ${latency.p50} ms, p95 ${latency.p95} ms, p99 ${latency.p99} ms (${latency.samples} in window)`,
    );
  }
  return parts.join(", ");
}

function duration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 120 ? `${minutes}m` : `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}

/** The lines of one report. */
export function formatStats(stats: RegistryStats): string[] {
  const lines: string[] = [];
  for (const server of stats.mcp?.servers ?? []) {
    const up = server.uptimeMs > 0 ? `up ${duration(server.uptimeMs)}` : "not connected";
    lines.push(
      `server ${server.name} (${server.state}, ${up}, ${server.reconnects} reconnects): ${
        counts(server)
      }`,
    );
    for (const tool of server.tools) {
      lines.push(`  ${tool.qualifiedName ?? `${server.name}/${tool.name}`}: ${counts(tool)}`);
    }
  }
  for (const tool of stats.local) lines.push(`local ${tool.name}: ${counts(tool)}`);
  const cache = stats.cache;
  if (cache) lines.push(`cache: ${cache.hits} hits, ${cache.misses} misses, ${cache.size} held`);
  return lines;
}
