// The modern era's `subscriptions/listen`: one long-lived request whose stream carries the
// notifications the client opted in to. Re-established with backoff when it drops.

import { CancelledError, ConnectionClosedError, type Diagnostic } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { RequestOptions } from "../session.ts";
import type { ListenFilter } from "../types.ts";

type Request = (method: string, params: JsonObject, options: RequestOptions) => Promise<JsonObject>;

const MAX_BACKOFF_MS = 30_000;

export class Listener {
  readonly #request: Request;
  readonly #diagnose: (diagnostic: Diagnostic) => void;
  #filter: ListenFilter = {};
  #controller: AbortController | undefined;
  #task: Promise<void> | undefined;
  #closed = false;
  #failures = 0;
  /** What the server agreed to send, from its acknowledgement. */
  acknowledged: ListenFilter | undefined;

  constructor(request: Request, diagnose: (diagnostic: Diagnostic) => void) {
    this.#request = request;
    this.#diagnose = diagnose;
  }

  get filter(): ListenFilter {
    return this.#filter;
  }

  /** Replaces the filter, reopening the stream (or closing it when nothing is wanted). */
  async update(filter: ListenFilter): Promise<void> {
    this.#filter = filter;
    await this.#stop();
    if (this.#closed || !wantsAnything(filter)) return;
    const controller = new AbortController();
    this.#controller = controller;
    this.#task = this.#run(controller.signal);
  }

  async #run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && !this.#closed) {
      try {
        await this.#request("subscriptions/listen", { notifications: { ...this.#filter } }, {
          signal,
          timeoutMs: Infinity,
          maxTotalTimeoutMs: Infinity,
        });
        this.#failures = 0; // the server ended it gracefully: open a fresh one
      } catch (error) {
        if (signal.aborted || error instanceof CancelledError) return;
        if (error instanceof ConnectionClosedError) return; // the client is going away
        this.#failures++;
        this.#diagnose({
          kind: "unexpected-message",
          message: `The subscriptions/listen stream dropped (${
            (error as Error).message
          }); reopening`,
        });
      }
      const delay = Math.min(MAX_BACKOFF_MS, 250 * 2 ** this.#failures) * (0.5 + Math.random() / 2);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, delay);
        function done() {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          resolve();
        }
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }

  async #stop(): Promise<void> {
    this.#controller?.abort("subscriptions/listen replaced");
    this.#controller = undefined;
    await this.#task;
    this.#task = undefined;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#stop();
  }
}

function wantsAnything(filter: ListenFilter): boolean {
  return Boolean(
    filter.toolsListChanged || filter.promptsListChanged || filter.resourcesListChanged ||
      (filter.resourceSubscriptions && filter.resourceSubscriptions.length > 0),
  );
}
