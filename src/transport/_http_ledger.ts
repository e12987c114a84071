// The requests of a Streamable HTTP transport that the session still waits for: whether each was
// modern, how often it was re-issued, and the ids of re-issued requests both ways. Also the
// server's requests that wait for our answer.

import type { JsonRpcMessage, JsonRpcRequest, RequestId } from "../jsonrpc.ts";
import { cancelledRequest } from "./_http.ts";

/** A request in flight: what was sent, whether it was modern, how often it was re-issued. */
export interface InFlight {
  message: JsonRpcRequest;
  modern: boolean;
  reissues: number;
}

/** Requests by id, from the POST that sends them to the answer, the failure or the re-issue. */
export class RequestLedger {
  readonly #inFlight = new Map<RequestId, InFlight>();
  /** The ids of re-issued requests mapped to the ids the session knows. */
  readonly #aliases = new Map<RequestId, RequestId>();
  /** The other way: the id the session knows mapped to the latest re-issue's. */
  readonly #latest = new Map<RequestId, RequestId>();
  #reissued = 0;
  /**
   * The server's requests still waiting for our answer. While there are any, our requests skip
   * the limit on requests in flight: answering may need one of them (a sampling handler that
   * calls a tool, say), and the server may hold every slot until it has that answer.
   */
  readonly #serving = new Set<RequestId>();

  /** Whether a request of the server waits for our answer (our requests then skip the gate). */
  get serving(): boolean {
    return this.#serving.size > 0;
  }

  /**
   * A message of ours as the server must see it: an answer ends the server's wait, and a
   * cancellation of a re-issued request names it by its new id, the only one the server knows.
   */
  outgoing(message: JsonRpcMessage): JsonRpcMessage {
    if (!("method" in message)) {
      if ("id" in message) this.#serving.delete(message.id!);
      return message;
    }
    const cancelled = cancelledRequest(message);
    if (cancelled === undefined || !("params" in message)) return message;
    const current = this.cancel(cancelled);
    return current === cancelled
      ? message
      : { ...message, params: { ...message.params, requestId: current } };
  }

  /** Notes a message of the server: a request waits for our answer, or no longer (cancelled). */
  received(message: JsonRpcMessage): void {
    if (!("method" in message)) return;
    if ("id" in message) this.#serving.add(message.id);
    // a request the server gave up on gets no answer from us
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined) this.#serving.delete(cancelled);
  }

  /** Records a request being sent; a re-issued one keeps its count of re-issues. */
  add(request: JsonRpcRequest, modern: boolean): void {
    const previous = this.#inFlight.get(request.id);
    this.#inFlight.set(request.id, {
      message: request,
      modern,
      reissues: previous?.reissues ?? 0,
    });
  }

  /**
   * The session cancelled the request it knows as `id`, or gave up on it: an answer may still
   * come, but nobody waits for it, so it is forgotten now (a request answered 202 whose answer
   * never comes would otherwise stay). Its alias stays until its stream ends. Returns the id the
   * server knows it by (that of its latest re-issue, if any).
   */
  cancel(id: RequestId): RequestId {
    const current = this.#latest.get(id) ?? id;
    this.#inFlight.delete(current);
    return current;
  }

  /** Whether the session still waits for the response to `id`. */
  isWaiting(id: RequestId): boolean {
    return this.#inFlight.has(id);
  }

  /** Whether `id` was sent as a modern request (revision 2026-07-28 and later). */
  isModern(id: RequestId): boolean {
    return this.#inFlight.get(id)?.modern === true;
  }

  /** The response to `id` arrived: forgets the request and returns what it was. */
  settle(id: RequestId): InFlight | undefined {
    const entry = this.#inFlight.get(id);
    if (entry) this.#inFlight.delete(id);
    return entry;
  }

  /**
   * Gives up on `id`: the id the session knows for it when the session still waited for it (and
   * must be told), undefined when it was answered, cancelled or given up already.
   */
  drop(id: RequestId): RequestId | undefined {
    const waiting = this.#inFlight.has(id);
    const original = this.forget(id);
    return waiting ? original : undefined;
  }

  /**
   * Forgets a request that will get no answer (its POST failed, or it was cancelled and its
   * stream ended); returns the id the session knows for it.
   */
  forget(id: RequestId): RequestId {
    this.#inFlight.delete(id);
    return this.restore(id);
  }

  /** How many requests and re-issue aliases are remembered: zero once all are settled. */
  get size(): number {
    return this.#inFlight.size + this.#aliases.size + this.#latest.size;
  }

  /** The id the session knows for an answered request; the alias, if any, is dropped. */
  restore(id: RequestId): RequestId {
    const original = this.#aliases.get(id);
    if (original === undefined) return id;
    this.#aliases.delete(id);
    if (this.#latest.get(original) === id) this.#latest.delete(original);
    return original;
  }

  /**
   * The request again under a fresh id, counted as one more re-issue; undefined when it is not in
   * flight or was re-issued `max` times already.
   */
  reissue(id: RequestId, max: number): JsonRpcRequest | undefined {
    const entry = this.#inFlight.get(id);
    if (!entry || entry.reissues >= max) return undefined;
    const next = `mcp-inspect-reissue-${++this.#reissued}`;
    const original = this.restore(id); // the id it replaces is never answered
    this.#aliases.set(next, original);
    this.#latest.set(original, next);
    this.#inFlight.delete(id);
    this.#inFlight.set(next, { ...entry, reissues: entry.reissues + 1 });
    return { ...entry.message, id: next };
  }
}
