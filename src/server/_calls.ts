// The proxy calls in flight per server, where a ServerRequestRelay finds who to ask.

import type { JsonObject } from "../jsonrpc.ts";

/** A proxy client waiting on a call to a server, and how to ask it something. */
export interface UpstreamCall {
  /** The client's capabilities. */
  capabilities: JsonObject;
  /** Sends the client a request and resolves with its answer. */
  ask(method: string, params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
}

const CALLS = new WeakMap<object, Map<string, UpstreamCall[]>>();

/** The calls a relay knows, by server name. */
export function callsOf(relay: object): Map<string, UpstreamCall[]> {
  let calls = CALLS.get(relay);
  if (!calls) CALLS.set(relay, calls = new Map());
  return calls;
}

/** Records a call waiting on `server` until the returned function runs. */
export function trackCall(relay: object, server: string, call: UpstreamCall): () => void {
  const calls = callsOf(relay);
  const list = calls.get(server) ?? [];
  list.push(call);
  calls.set(server, list);
  return () => {
    const index = list.indexOf(call);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0 && calls.get(server) === list) calls.delete(server);
  };
}
