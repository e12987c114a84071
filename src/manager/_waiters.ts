// Calls waiting for a server to become ready, each bounded by its own timeout and signal.

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

export class Waiters<T> {
  readonly #waiting = new Set<Waiter<T>>();

  /** Waits for {@link resolve}; rejects after `timeoutMs` with `onTimeout()`, or on abort. */
  wait(timeoutMs: number, signal: AbortSignal | undefined, onTimeout: () => Error): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const { promise, resolve, reject } = Promise.withResolvers<T>();
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      this.#waiting.delete(waiter);
    };
    const waiter: Waiter<T> = {
      resolve: (value) => {
        settle();
        resolve(value);
      },
      reject: (error) => {
        settle();
        reject(error);
      },
    };
    const abort = () => waiter.reject(signal!.reason);
    const timer = setTimeout(() => waiter.reject(onTimeout()), timeoutMs);
    signal?.addEventListener("abort", abort, { once: true });
    this.#waiting.add(waiter);
    return promise;
  }

  resolve(value: T): void {
    for (const waiter of [...this.#waiting]) waiter.resolve(value);
  }

  reject(error: unknown): void {
    for (const waiter of [...this.#waiting]) waiter.reject(error);
  }
}
