// One request awaiting its response: its deadlines, its abort listener and its progress callback.
// Whatever way it settles, its abort listener is removed. It owns no timer: the session keeps one
// timer for all pending requests (a timer per request cost ~3 µs of set/clear per call). What is
// the same for every request of a session (its defaults, what to do on settling) comes from one
// owner, not from closures made per request: a fresh client's first thousands of concurrent calls
// spent a tenth of their time collecting such garbage.

import { CancelledError, TimeoutError } from "./errors.ts";
import type { JsonObject, RequestId } from "./jsonrpc.ts";
import type { Progress, RequestOptions } from "./session.ts";

/** What every pending request of a session shares. */
export interface PendingOwner {
  /** Default idle timeout, for requests that set none. */
  readonly timeoutMs: number;
  /** Default total limit, for requests that set none. */
  readonly maxTotalTimeoutMs: number;
  /** Called once, however the request settles. */
  settled(pending: PendingRequest): void;
  /** Called when we stop waiting for a reason of our own (timeout, abort), with that reason. */
  gaveUp(pending: PendingRequest, reason: string): void;
}

export class PendingRequest {
  readonly id: RequestId;
  readonly method: string;
  /** Settles with the answer, or with why there will be none. */
  readonly promise: Promise<JsonObject>;
  readonly #owner: PendingOwner;
  readonly #options: RequestOptions;
  #resolve!: (result: JsonObject) => void;
  #reject!: (error: Error) => void;
  #idleDeadline: number;
  readonly #totalDeadline: number;
  #settled = false;
  #onAbort: (() => void) | undefined;

  constructor(id: RequestId, method: string, options: RequestOptions, owner: PendingOwner) {
    this.id = id;
    this.method = method;
    this.#owner = owner;
    this.#options = options;
    this.promise = new Promise<JsonObject>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    const timeoutMs = this.#timeoutMs();
    const maxTotalTimeoutMs = this.#maxTotalTimeoutMs();
    const now = Date.now();
    this.#idleDeadline = now + timeoutMs;
    // The total limit only matters when progress can push the idle deadline past it.
    this.#totalDeadline = options.resetTimeoutOnProgress || maxTotalTimeoutMs < timeoutMs
      ? now + maxTotalTimeoutMs
      : Infinity;
    const signal = options.signal;
    if (signal) {
      this.#onAbort = () => this.#giveUp(new CancelledError(method, signal.reason));
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
    const total = this.#totalDeadline < this.#idleDeadline;
    const limit = total ? this.#maxTotalTimeoutMs() : this.#timeoutMs();
    this.#giveUp(new TimeoutError(this.method, limit, total ? "total" : "idle"));
    return true;
  }

  succeed(result: JsonObject): void {
    if (this.#settle()) this.#resolve(result);
  }

  fail(error: Error): void {
    if (this.#settle()) this.#reject(error);
  }

  progress(progress: Progress): void {
    const onProgress = this.#options.onProgress;
    if (this.#settled || !onProgress) return;
    // Only moves the deadline later, so the session's timer never needs re-arming for it.
    if (this.#options.resetTimeoutOnProgress) {
      this.#idleDeadline = Date.now() + this.#timeoutMs();
    }
    onProgress(progress);
  }

  /**
   * The idle timeout, read again when needed rather than kept: a pending request holds only what
   * the common case uses, and a burst of thousands keeps them all alive at once.
   */
  #timeoutMs(): number {
    return this.#options.timeoutMs ?? this.#owner.timeoutMs;
  }

  /** The total limit, read again when needed like {@link #timeoutMs}. */
  #maxTotalTimeoutMs(): number {
    return this.#options.maxTotalTimeoutMs ?? this.#owner.maxTotalTimeoutMs;
  }

  #giveUp(error: CancelledError | TimeoutError): void {
    if (this.#settle()) {
      this.#owner.gaveUp(this, error.message);
      this.#reject(error);
    }
  }

  /** Marks the request settled and releases its resources; false if it already was. */
  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    if (this.#onAbort) {
      this.#options.signal?.removeEventListener("abort", this.#onAbort);
      this.#onAbort = undefined;
    }
    this.#owner.settled(this);
    return true;
  }
}
