// Reconnection of one managed server: when the next attempt comes (exponential backoff with
// jitter), when it gives up, the calls that wait for it meanwhile, and the resource subscriptions
// it renews.

import type { Client } from "../client/client.ts";
import type { Diagnostic } from "../errors.ts";
import type { CallOptions, Phase } from "./_server.ts";
import type { ServerSettings } from "./_settings.ts";
import { Waiters } from "./_waiters.ts";
import { ServerUnavailableError } from "./errors.ts";
import { headline } from "./_headline.ts";

/** What a waiting call needs to know of its server, read when the wait starts and if it times out. */
interface Reconnecting {
  readonly name: string;
  readonly phase: Phase;
  readonly lastError: Error | undefined;
  readonly retrying: boolean;
}

/** The retry timer and attempt count of one server, and the calls waiting for its next client. */
export class Reconnection {
  readonly #settings: ServerSettings;
  readonly #waiters = new Waiters<Client>();
  #failures = 0;
  #gaveUp = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Runs once a connection has lasted `stableAfterMs`: only then does the backoff start over. */
  #stable: ReturnType<typeof setTimeout> | undefined;

  constructor(settings: ServerSettings) {
    this.#settings = settings;
  }

  /** Whether the attempts are spent, so that no retry is coming. */
  get gaveUp(): boolean {
    return this.#gaveUp;
  }

  /**
   * Runs `retry` after the next delay: exponential backoff with jitter, so that many servers
   * failing together do not retry in step. Once the attempts are spent, schedules nothing and
   * rejects the waiting calls with `gaveUp()` instead.
   */
  schedule(retry: () => void, gaveUp: () => Error): void {
    clearTimeout(this.#timer);
    // Lost before it proved stable: a server that crashes on every call keeps backing off.
    clearTimeout(this.#stable);
    if (this.#failures >= this.#settings.maxReconnectAttempts) {
      this.#gaveUp = true;
      this.#waiters.reject(gaveUp());
      return;
    }
    const { initialDelayMs, maxDelayMs, multiplier, jitter } = this.#settings.reconnect;
    const base = Math.min(maxDelayMs, initialDelayMs * multiplier ** this.#failures++);
    const delay = base * (1 - jitter * Math.random());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      retry();
    }, delay);
  }

  /** Drops the scheduled retry, if any. */
  cancel(): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#stable);
  }

  /**
   * A connection is up. The attempt count starts over only once it has lasted `stableAfterMs`:
   * a server that handshakes, then crashes on its first call, must not be restarted on every
   * call at the initial delay.
   */
  connected(): void {
    this.#gaveUp = false;
    clearTimeout(this.#stable);
    this.#stable = setTimeout(() => {
      this.#stable = undefined;
      this.#failures = 0;
    }, this.#settings.reconnect.stableAfterMs);
  }

  /** Hands a new client to the calls waiting for one. */
  resolve(client: Client): void {
    this.#waiters.resolve(client);
  }

  /** Fails the calls waiting for a client. */
  reject(error: Error): void {
    this.#waiters.reject(error);
  }

  /**
   * Waits until `server`, which is not ready, has a client again; rejects at once when the call
   * says not to wait or no retry is coming, and after the call's (or the manager's) wait timeout.
   */
  async wait(server: Reconnecting, options: CallOptions): Promise<void> {
    const mode = options.whileReconnecting ?? this.#settings.whileReconnecting;
    if (mode === "fail" || !server.retrying) {
      const last = server.lastError ? ` (last error: ${headline(server.lastError)})` : "";
      throw new ServerUnavailableError(
        server.name,
        server.phase,
        server.lastError,
        this.#gaveUp
          ? `it gave up reconnecting after ${this.#failures} failed attempts in a row${last}`
          : undefined,
      );
    }
    const waitMs = options.waitTimeoutMs ?? this.#settings.waitTimeoutMs;
    await this.#waiters.wait(waitMs, options.signal, () =>
      new ServerUnavailableError(
        server.name,
        server.phase,
        server.lastError,
        `it did not become ready within ${waitMs} ms (it is ${server.phase}${
          server.lastError ? `; last error: ${headline(server.lastError)}` : ""
        })`,
      ));
  }
}

/**
 * Subscribes a new client to the resources watched through the manager (`uris`); `report` hears
 * of each that fails, which does not fail the connection.
 */
export function resubscribe(
  client: Client,
  uris: Iterable<string>,
  report: (diagnostic: Diagnostic) => void,
): void {
  for (const uri of uris) {
    client.subscribeResource(uri).catch((error) =>
      report({
        kind: "unexpected-message",
        message: `Could not subscribe to ${uri} again after reconnecting: ${error.message}`,
      })
    );
  }
}
