// Resource subscriptions of every connection of an McpServer, counted per URI: the server's
// hooks hear of a URI when its first subscriber arrives and after its last one leaves, so that a
// proxy subscribes upstream once, however many clients watch the resource.

/**
 * What a server does when a resource gains its first subscriber or loses its last.
 *
 * @example Watching a resource only while a client subscribes to it
 * ```ts
 * import { McpServer, type SubscriptionHooks } from "@mcp-inspect/client/server";
 * const hooks: SubscriptionHooks = {
 *   subscribe: (uri) => console.error(`watching ${uri}`),
 *   unsubscribe: (uri) => console.error(`no longer watching ${uri}`),
 * };
 * const server = new McpServer({
 *   serverInfo: { name: "notes", version: "1.0.0" },
 *   capabilities: { resources: { subscribe: true } },
 *   handlers: {},
 *   subscriptions: hooks,
 * });
 * ```
 */
export interface SubscriptionHooks {
  /** Called when the first client subscribes to `uri`; a rejection refuses the subscription. */
  subscribe(uri: string): void | Promise<void>;
  /** Called after the last client unsubscribed from `uri` (or went away). */
  unsubscribe(uri: string): void | Promise<void>;
}

export class SubscriptionCounter {
  readonly #hooks: SubscriptionHooks | undefined;
  readonly #counts = new Map<string, number>();
  /** Subscriptions in progress, so that a second subscriber waits for the first one's answer. */
  readonly #pending = new Map<string, Promise<void>>();

  constructor(hooks: SubscriptionHooks | undefined) {
    this.#hooks = hooks;
  }

  get enabled(): boolean {
    return this.#hooks !== undefined;
  }

  /** Counts one subscriber of `uri`; rejects (counting nothing) when the hook refuses. */
  async acquire(uri: string): Promise<void> {
    const pending = this.#pending.get(uri);
    if (pending) await pending;
    const count = this.#counts.get(uri) ?? 0;
    if (count > 0 || !this.#hooks) {
      this.#counts.set(uri, count + 1);
      return;
    }
    const subscribing = Promise.resolve(this.#hooks.subscribe(uri));
    this.#pending.set(uri, subscribing.then(() => {}, () => {}));
    try {
      await subscribing;
      this.#counts.set(uri, (this.#counts.get(uri) ?? 0) + 1);
    } finally {
      this.#pending.delete(uri);
    }
  }

  /** Forgets one subscriber of `uri`; the hook hears of the last one, its failure ignored. */
  release(uri: string): void {
    const count = this.#counts.get(uri) ?? 0;
    if (count > 1) {
      this.#counts.set(uri, count - 1);
      return;
    }
    if (count === 0) return;
    this.#counts.delete(uri);
    Promise.resolve()
      .then(() => this.#hooks?.unsubscribe(uri))
      .catch(() => {}); // the upstream server may be gone; nothing waits on this
  }
}
