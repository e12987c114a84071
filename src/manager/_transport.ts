// The transport for a server config: a child process for `command`, HTTP for `url`.

import type { ServerConfig } from "../config/config.ts";
import { HttpTransport } from "../transport/http.ts";
import { StdioTransport } from "../transport/stdio.ts";
import type { Transport } from "../transport/transport.ts";

/** Builds transports; `stderr` receives each stderr line of stdio servers. */
export function transportFactory(
  stderr: ((server: string, line: string) => void) | undefined,
): (name: string, config: ServerConfig) => Transport {
  return (name, config) => {
    if ("command" in config) {
      return new StdioTransport({
        command: config.command,
        name,
        args: config.args,
        env: config.env,
        // `||`, not `??`: an empty cwd has always meant the current directory.
        cwd: config.cwd || undefined,
        stderr: stderr ? (line: string) => stderr(name, line) : undefined,
      });
    }
    return new HttpTransport({
      url: config.url,
      headers: config.headers,
      transport: config.type === "sse" ? "sse" : "auto",
    });
  };
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
