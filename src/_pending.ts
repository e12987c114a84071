// One request awaiting its response: its timers, its abort listener and its progress callback.
// Whatever way it settles, every timer is cleared and every listener removed.

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
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #totalTimer: ReturnType<typeof setTimeout> | undefined;
  #settled = false;
  readonly #onAbort: (() => void) | undefined;

  constructor(id: RequestId, method: string, init: PendingInit) {
    this.id = id;
    this.method = method;
    this.#init = init;
    this.#idleTimer = this.#arm("idle", init.timeoutMs);
    // The total limit only matters when progress can push the idle timer past it.
    if (init.resetTimeoutOnProgress || init.maxTotalTimeoutMs < init.timeoutMs) {
      this.#totalTimer = this.#arm("total", init.maxTotalTimeoutMs);
    }
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

  succeed(result: JsonObject): void {
    if (this.#settle()) this.#init.resolve(result);
  }

  fail(error: Error): void {
    if (this.#settle()) this.#init.reject(error);
  }

  progress(progress: Progress): void {
    if (this.#settled || !this.#init.onProgress) return;
    if (this.#init.resetTimeoutOnProgress) {
      clearTimeout(this.#idleTimer);
      this.#idleTimer = this.#arm("idle", this.#init.timeoutMs);
    }
    this.#init.onProgress(progress);
  }

  /** A timer for a limit; none for an infinite one (setTimeout would fire at once). */
  #arm(kind: "idle" | "total", ms: number): ReturnType<typeof setTimeout> | undefined {
    return Number.isFinite(ms) ? setTimeout(() => this.#timeout(kind), ms) : undefined;
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
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#totalTimer);
    if (this.#onAbort) this.#init.signal?.removeEventListener("abort", this.#onAbort);
    this.#init.onSettle();
    return true;
  }
}
