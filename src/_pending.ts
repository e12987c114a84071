// One request awaiting its response: its deadlines, its abort listener and its progress callback.
// Whatever way it settles, its abort listener is removed. It owns no timer: the session keeps one
// timer for all pending requests (a timer per request cost ~3 µs of set/clear per call).

import { CancelledError, TimeoutError } from "./errors.ts";
import type { JsonObject, RequestId } from "./jsonrpc.ts";
import type { Progress } from "./session.ts";

export interface PendingInit {
  timeoutMs: number;
  maxTotalTimeoutMs: number;
  resetTimeoutOnProgress: boolean;
  signal: AbortSignal | undefined;
  onProgress: ((progress: Progress) => void) | undefined;
  resolve: (result: JsonObject) => void;
  reject: (error: Error) => void;
  /** Called once, however the request settles. */
  onSettle: () => void;
  /** Called when we stop waiting for a reason of our own (timeout, abort), with that reason. */
  onGiveUp: (reason: string) => void;
}

export class PendingRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly #init: PendingInit;
  #idleDeadline: number;
  readonly #totalDeadline: number;
  #settled = false;
  readonly #onAbort: (() => void) | undefined;

  constructor(id: RequestId, method: string, init: PendingInit) {
    this.id = id;
    this.method = method;
    this.#init = init;
    const now = Date.now();
    this.#idleDeadline = now + init.timeoutMs;
    // The total limit only matters when progress can push the idle deadline past it.
    this.#totalDeadline = init.resetTimeoutOnProgress || init.maxTotalTimeoutMs < init.timeoutMs
      ? now + init.maxTotalTimeoutMs
      : Infinity;
    if (init.signal) {
      const signal = init.signal;
      this.#onAbort = () => {
        const error = new CancelledError(method, signal.reason);
        if (this.#settle()) {
          init.onGiveUp(error.message);
          init.reject(error);
        }
      };
      signal.addEventListener("abort", this.#onAbort, { once: true });
    }
  }

  /** When this request times out, in `Date.now()` time. */
  get deadline(): number {
    return Math.min(this.#idleDeadline, this.#totalDeadline);
  }

  /** Times the request out if its deadline has passed; true if it did. */
  expire(now: number): boolean {
    if (this.#settled || now < this.deadline) return false;
    this.#timeout(this.#totalDeadline < this.#idleDeadline ? "total" : "idle");
    return true;
  }

  succeed(result: JsonObject): void {
    if (this.#settle()) this.#init.resolve(result);
  }

  fail(error: Error): void {
    if (this.#settle()) this.#init.reject(error);
  }

  progress(progress: Progress): void {
    if (this.#settled || !this.#init.onProgress) return;
    // Only moves the deadline later, so the session's timer never needs re-arming for it.
    if (this.#init.resetTimeoutOnProgress) this.#idleDeadline = Date.now() + this.#init.timeoutMs;
    this.#init.onProgress(progress);
  }

  #timeout(kind: "idle" | "total"): void {
    const limit = kind === "idle" ? this.#init.timeoutMs : this.#init.maxTotalTimeoutMs;
    const error = new TimeoutError(this.method, limit, kind);
    if (this.#settle()) {
      this.#init.onGiveUp(error.message);
      this.#init.reject(error);
    }
  }

  /** Marks the request settled and releases its resources; false if it already was. */
  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    if (this.#onAbort) this.#init.signal?.removeEventListener("abort", this.#onAbort);
    this.#init.onSettle();
    return true;
  }
}
