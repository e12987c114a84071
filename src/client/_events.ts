// The client's events: the emitter, with the listeners given at connect time, and the server
// notifications that feed it, dropping what they make stale (cached results, tool schemas) first.

import { Emitter } from "../emitter.ts";
import type { Diagnostic } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { Session } from "../session.ts";
import type { ListenFilter, LogMessage } from "../types.ts";
import type { TtlCache } from "./_cache.ts";
import type { Listener } from "./_listen.ts";
import type { ToolSchemas } from "./_tools.ts";
import type { ClientEvents, ClientOptions } from "./types.ts";

/**
 * An emitter whose failing listeners become diagnostics. The options' listeners are installed
 * at once, before the handshake, so that nothing the server sends early is missed.
 */
export function clientEvents(
  listeners: ClientOptions["listeners"],
  diagnose: (diagnostic: Diagnostic) => void,
): Emitter<ClientEvents> {
  const events = new Emitter<ClientEvents>((error, event) =>
    diagnose({
      kind: "notification-handler-failed",
      message: `A listener for "${String(event)}" threw: ${(error as Error)?.message ?? error}`,
    })
  );
  for (const [event, listener] of Object.entries(listeners ?? {})) {
    if (listener) {
      events.on(event as keyof ClientEvents, listener as (payload: unknown) => void);
    }
  }
  return events;
}

/** What the server's notifications update. */
export interface NotificationTargets {
  events: Emitter<ClientEvents>;
  cache: TtlCache;
  tools: ToolSchemas;
  listener: Listener;
}

/** Routes the server's notifications (of either era) to the client's state and events. */
export function routeNotifications(session: Session, targets: NotificationTargets): void {
  const { events, cache, tools, listener } = targets;
  const on = (method: string, handle: (params: JsonObject) => void) =>
    session.onNotification(method, handle);
  on("notifications/tools/list_changed", () => {
    tools.forget();
    cache.invalidate("tools/list");
    events.emit("toolsListChanged", undefined);
  });
  on("notifications/prompts/list_changed", () => {
    cache.invalidate("prompts/list");
    events.emit("promptsListChanged", undefined);
  });
  on("notifications/resources/list_changed", () => {
    cache.invalidate("resources/list");
    cache.invalidate("resources/templates/list");
    events.emit("resourcesListChanged", undefined);
  });
  on("notifications/resources/updated", (params) => {
    if (typeof params.uri !== "string") return;
    cache.invalidate("resources/read", params.uri);
    events.emit("resourceUpdated", { uri: params.uri });
  });
  on("notifications/subscriptions/acknowledged", (params) => {
    listener.acknowledge(params.notifications as ListenFilter | undefined);
  });
  on("notifications/message", (params) => events.emit("log", params as LogMessage));
}
