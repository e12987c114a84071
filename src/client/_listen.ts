// The modern era's `subscriptions/listen`: one long-lived request whose stream carries the
// notifications the client opted in to (the list changes the server advertises, the resources
// subscribed to). Re-established with backoff when it drops.

import { CancelledError, ConnectionClosedError, type Diagnostic } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { RequestOptions } from "../session.ts";
import type { ListenFilter, ServerCapabilities } from "../types.ts";

type Request = (method: string, params: JsonObject, options: RequestOptions) => Promise<JsonObject>;

const MAX_BACKOFF_MS = 30_000;
/** How long a new stream waits for the server's acknowledgement before going on without it. */
const ACK_WAIT_MS = 2_000;

export class Listener {
  readonly #request: Request;
  readonly #diagnose: (diagnostic: Diagnostic) => void;
  #filter: ListenFilter = {};
  #controller: AbortController | undefined;
  #task: Promise<void> | undefined;
  #closed = false;
  #failures = 0;
  #capabilities: ServerCapabilities = {};
  #enabled = true;
  readonly #subscriptions = new Set<string>();
  /** What the server agreed to send, from its acknowledgement. */
  acknowledged: ListenFilter | undefined;
  #ack: PromiseWithResolvers<void> | undefined;

  constructor(request: Request, diagnose: (diagnostic: Diagnostic) => void) {
    this.#request = request;
    this.#diagnose = diagnose;
  }

  get filter(): ListenFilter {
    return this.#filter;
  }

  /** Records the server's `notifications/subscriptions/acknowledged`. */
  acknowledge(filter: ListenFilter | undefined): void {
    this.acknowledged = filter;
    this.#ack?.resolve();
  }

  /**
   * Listens for the list changes the server advertises, unless listening is off (`listen:
   * false`: then nothing is listened for, not even subscribed resources).
   */
  async start(capabilities: ServerCapabilities, enabled: boolean): Promise<void> {
    this.#capabilities = capabilities;
    this.#enabled = enabled;
    if (enabled) await this.update(this.#wanted());
  }

  /** Adds a resource to the stream's `resourceSubscriptions`. */
  async subscribe(uri: string): Promise<void> {
    this.#subscriptions.add(uri);
    await this.update(this.#wanted());
  }

  /** Removes a resource from the stream's `resourceSubscriptions`. */
  async unsubscribe(uri: string): Promise<void> {
    this.#subscriptions.delete(uri);
    await this.update(this.#wanted());
  }

  #wanted(): ListenFilter {
    return listenFilter(this.#capabilities, this.#enabled, this.#subscriptions);
  }

  /**
   * Replaces the filter, reopening the stream (or closing it when nothing is wanted). Resolves
   * once the server acknowledged the new stream, so that nothing published after it is missed;
   * a server that never acknowledges delays this by at most two seconds.
   */
  async update(filter: ListenFilter): Promise<void> {
    this.#filter = filter;
    await this.#stop();
    if (this.#closed || !wantsAnything(filter)) return;
    const controller = new AbortController();
    this.#controller = controller;
    const ack = Promise.withResolvers<void>();
    this.#ack = ack;
    this.#task = this.#run(controller.signal);
    const timer = setTimeout(ack.resolve, ACK_WAIT_MS);
    await ack.promise;
    clearTimeout(timer);
  }

  async #run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && !this.#closed) {
      const ack = this.#ack;
      try {
        await this.#request("subscriptions/listen", { notifications: { ...this.#filter } }, {
          signal,
          timeoutMs: Infinity,
          maxTotalTimeoutMs: Infinity,
        });
        this.#failures = 0; // the server ended it gracefully: open a fresh one
        ack?.resolve();
      } catch (error) {
        ack?.resolve(); // refused or dropped: nothing to wait for
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
    this.#ack?.resolve();
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

/**
 * What to listen for: the list changes the server advertises (none when `listen` is off) and
 * the resources subscribed to.
 */
function listenFilter(
  capabilities: ServerCapabilities,
  listen: boolean,
  subscriptions: ReadonlySet<string>,
): ListenFilter {
  const filter: ListenFilter = {};
  if (!listen) return filter;
  if (capabilities.tools?.listChanged) filter.toolsListChanged = true;
  if (capabilities.prompts?.listChanged) filter.promptsListChanged = true;
  if (capabilities.resources?.listChanged) filter.resourcesListChanged = true;
  if (subscriptions.size > 0) filter.resourceSubscriptions = [...subscriptions];
  return filter;
}
