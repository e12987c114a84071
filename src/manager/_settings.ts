// The manager's options with every default filled in: what each managed server goes by, and the
// manager's handlers of server requests as one server's client takes them.

import type { ClientOptions } from "../client/client.ts";
import type { ServerConfig } from "../config/config.ts";
import type { StatsOptions } from "../stats/stats.ts";
import type { Transport } from "../transport/transport.ts";
import { transportFactory } from "./_transport.ts";
import type { ManagerOptions, ServerRequestHandlers } from "./types.ts";

/** Everything the manager decides for all servers. */
export interface ServerSettings {
  clientOptions: Omit<ClientOptions, "signal" | "listeners" | "name" | "discovery">;
  createTransport: (name: string, config: ServerConfig) => Transport;
  connectTimeoutMs: number;
  healthIntervalMs: number;
  healthTimeoutMs: number;
  idleTimeoutMs: number;
  reconnect: {
    initialDelayMs: number;
    maxDelayMs: number;
    multiplier: number;
    jitter: number;
    stableAfterMs: number;
  };
  maxReconnectAttempts: number;
  whileReconnecting: "wait" | "fail";
  waitTimeoutMs: number;
  stats: StatsOptions;
  serverRequests: ServerRequestHandlers | undefined;
}

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
      stableAfterMs: reconnect.stableAfterMs ?? 10_000,
    },
    maxReconnectAttempts: options.maxReconnectAttempts ?? Infinity,
    whileReconnecting: options.whileReconnecting ?? "wait",
    waitTimeoutMs: options.waitTimeoutMs ?? 10_000,
    stats: options.stats ?? {},
    serverRequests: options.serverRequests,
  };
}

/** The manager's handlers of server requests (`relay`), told which server asks: `name`. */
export function relayedHandlers(
  name: string,
  relay: ServerRequestHandlers | undefined,
): Pick<ClientOptions, "onSampling" | "onElicitation" | "elicitationModes"> {
  if (!relay) return {};
  const { onSampling, onElicitation, elicitationModes } = relay;
  return {
    ...(onSampling ? { onSampling: (request, context) => onSampling(name, request, context) } : {}),
    ...(onElicitation
      ? { onElicitation: (request, context) => onElicitation(name, request, context) }
      : {}),
    ...(elicitationModes ? { elicitationModes } : {}),
  };
}
