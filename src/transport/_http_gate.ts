// Bounds how many requests of one Streamable HTTP transport wait for their response headers at
// once. Unbounded, a burst of calls opens a connection per call: costly for both ends, and
// refused by many servers and proxies. Answers and notifications never wait here, so an answer
// the server needs before it can reply always gets through.

import { TransportError } from "../errors.ts";
import type { JsonRpcMessage, JsonRpcRequest } from "../jsonrpc.ts";

/** One request waiting for a slot. */
interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
}

/**
 * Whether a message waits for a slot. Only requests do: an answer or a notification may be what
 * the server waits for. Liveness checks (`ping`, and `server/discover`, which stands in for it in
 * the 2026-07-28 revision) do not either: they must measure the server, not our queue, or a
 * server busy with slow calls would look dead to a health check.
 */
export function takesSlot(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message && message.method !== "ping" &&
    message.method !== "server/discover";
}

/** The default of `maxConcurrentRequests`. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 32;

/** A first-come, first-served limit on requests in flight. */
export class RequestGate {
  readonly #limit: number;
  /** Waiters in order from `#head` on; the array is compacted once half of it is spent. */
  #queue: Waiter[] = [];
  #head = 0;
  #active = 0;

  /** `signal` ends the wait of every queued request, with its reason. */
  constructor(limit: number, signal: AbortSignal) {
    this.#limit = limit;
    signal.addEventListener("abort", () => {
      const waiting = this.#queue.slice(this.#head);
      this.#queue = [];
      this.#head = 0;
      for (const waiter of waiting) waiter.reject(signal.reason);
    }, { once: true });
  }

  /**
   * Takes a slot: `undefined` when one was free (no promise on the fast path), else a promise
   * that resolves when one frees up.
   */
  enter(): Promise<void> | undefined {
    if (this.#active < this.#limit) {
      this.#active++;
      return undefined;
    }
    return new Promise((resolve, reject) => this.#queue.push({ resolve, reject }));
  }

  /** Takes a slot if one is free, without joining the line; false when none is. */
  tryEnter(): boolean {
    if (this.#active >= this.#limit) return false;
    this.#active++;
    return true;
  }

  /** Gives a slot back; the first request in line takes it over. */
  leave(): void {
    if (this.#head === this.#queue.length) {
      this.#active--;
      return;
    }
    const next = this.#queue[this.#head++]!;
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    next.resolve();
  }
}

/** The option as given, checked: a whole number ≥ 1, or Infinity for no limit. */
export function concurrencyLimit(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Infinity || (Number.isInteger(value) && value >= 1)) return value;
  throw new TransportError(
    `maxConcurrentRequests must be a whole number of at least 1, or Infinity; got ${value}`,
  );
}
