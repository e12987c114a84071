// What the manager reports of a server, and the request options a manager call passes on.

import type { RequestOptions } from "../session.ts";
import type { ManagedServer } from "./_server.ts";
import type { ManagerCallOptions, ServerStatus } from "./types.ts";

/** The options of a manager call that the client's request understands. */
export function requestOptions(options: ManagerCallOptions): RequestOptions {
  const { whileReconnecting: _w, waitTimeoutMs: _t, meta: _m, ...rest } = options;
  return rest;
}

/** A server's public status. */
export function statusOf(server: ManagedServer): ServerStatus {
  const status: ServerStatus = {
    name: server.name,
    state: server.phase === "closed" ? "closed" : server.enabled ? server.phase : "disabled",
    config: server.config,
    reconnects: server.reconnects,
    toolCount: server.tools.length,
  };
  if (server.era) status.era = server.era;
  if (server.protocolVersion) status.protocolVersion = server.protocolVersion;
  if (server.serverInfo) status.serverInfo = server.serverInfo;
  if (server.pid !== undefined) status.pid = server.pid;
  if (server.lastError) status.lastError = server.lastError;
  if (server.connectedAt !== undefined) status.connectedAt = server.connectedAt;
  if (server.connectMs !== undefined) status.connectMs = server.connectMs;
  if (server.lastCallAt !== undefined) status.lastCallAt = server.lastCallAt;
  return status;
}
