// The manager's options with every default filled in: what each managed server goes by.

import type { ServerSettings } from "./_server.ts";
import { transportFactory } from "./_transport.ts";
import type { ManagerOptions } from "./types.ts";

/** The settings of every server of a manager created with `options`. */
export function settingsOf(options: ManagerOptions): ServerSettings {
  const reconnect = options.reconnect ?? {};
  return {
    clientOptions: options.clientOptions ?? {},
    createTransport: options.createTransport ?? transportFactory(options.stderr),
    connectTimeoutMs: options.connectTimeoutMs ?? 60_000,
    healthIntervalMs: options.healthIntervalMs ?? 30_000,
    healthTimeoutMs: options.healthTimeoutMs ?? 10_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 0,
    reconnect: {
      initialDelayMs: reconnect.initialDelayMs ?? 500,
      maxDelayMs: reconnect.maxDelayMs ?? 30_000,
      multiplier: reconnect.multiplier ?? 2,
      jitter: reconnect.jitter ?? 0.3,
    },
    maxReconnectAttempts: options.maxReconnectAttempts ?? Infinity,
    whileReconnecting: options.whileReconnecting ?? "wait",
    waitTimeoutMs: options.waitTimeoutMs ?? 10_000,
    stats: options.stats ?? {},
    serverRequests: options.serverRequests,
  };
}
