// The manager's default transports (configTransport, with the manager's stderr sink), and the
// part of a config whose change needs a new connection.

import type { ServerConfig } from "../config/config.ts";
import type { Transport } from "../transport/transport.ts";
import { configTransport } from "./transport.ts";

/** Builds transports; `stderr` receives each stderr line of stdio servers. */
export function transportFactory(
  stderr: ((server: string, line: string) => void) | undefined,
): (name: string, config: ServerConfig) => Transport {
  return (name, config) =>
    configTransport(name, config, {
      stderr: stderr ? (line: string) => stderr(name, line) : undefined,
    });
}

/** The part of a config that needs a new connection when it changes. */
export function connectionKey(config: ServerConfig): string {
  const { disabled: _d, allow: _a, deny: _n, idleTimeoutMs: _i, ...connection } = config;
  const type = "command" in config ? "stdio" : config.type ?? "http";
  return stableJson({ ...connection, type });
}

function stableJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, item) =>
      item && typeof item === "object" && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
        : item,
  );
}
