// The timers that watch a ready connection: liveness checks, and idle shutdown of local servers
// (calls in flight hold a server open).

import type { Client } from "../client/client.ts";
import type { ServerConfig } from "../config/config.ts";
import type { Phase } from "./_server.ts";
import type { ServerSettings } from "./_settings.ts";

/** What the timers read of their server when they fire. */
interface Watched {
  readonly name: string;
  readonly config: ServerConfig;
  readonly phase: Phase;
  readonly client: Client | undefined;
}

/** Checks a ready server's connection every `healthIntervalMs`. */
export class HealthCheck {
  readonly #server: Watched;
  readonly #settings: ServerSettings;
  readonly #onFailure: (reason: Error) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `onFailure` runs when the current client fails its check. */
  constructor(server: Watched, settings: ServerSettings, onFailure: (reason: Error) => void) {
    this.#server = server;
    this.#settings = settings;
    this.#onFailure = onFailure;
  }

  /** Schedules the next check, unless checks are turned off. */
  arm(): void {
    clearTimeout(this.#timer);
    const interval = this.#settings.healthIntervalMs;
    if (!(interval > 0) || interval === Infinity) return;
    this.#timer = setTimeout(() => void this.#check(), interval);
  }

  /** Drops the scheduled check, if any. */
  stop(): void {
    clearTimeout(this.#timer);
  }

  /**
   * The liveness check. `Client.ping()` sends `ping` in the legacy era and `server/discover` in
   * the modern era, which has no ping; this is the one place to change if that differs.
   */
  async #check(): Promise<void> {
    const server = this.#server;
    const client = server.client;
    if (!client || server.phase !== "ready") return;
    try {
      await client.ping({ timeoutMs: this.#settings.healthTimeoutMs });
    } catch (error) {
      if (client !== server.client) return;
      this.#onFailure(
        new Error(
          `Server "${server.name}" failed its liveness check: ${(error as Error).message}`,
          { cause: error },
        ),
      );
      return;
    }
    if (client === server.client) this.arm();
  }
}

/** Tells when a ready local server has spent its idle timeout with no call in flight. */
export class IdleTimer {
  readonly #server: Watched;
  readonly #settings: ServerSettings;
  readonly #onIdle: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight = 0;

  /** `onIdle` runs when the timeout passes with the server ready and no call in flight. */
  constructor(server: Watched, settings: ServerSettings, onIdle: () => void) {
    this.#server = server;
    this.#settings = settings;
    this.#onIdle = onIdle;
  }

  /** The server's idle timeout; 0 (never) unless it is a local (stdio) server. */
  #timeoutMs(): number {
    const config = this.#server.config;
    if (config.type !== "stdio" && !("command" in config)) return 0;
    return config.idleTimeoutMs ?? this.#settings.idleTimeoutMs;
  }

  /** Starts the idle timeout afresh, if the server is ready and no call is in flight. */
  arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const timeout = this.#timeoutMs();
    if (!(timeout > 0) || this.#inFlight > 0 || this.#server.phase !== "ready") return;
    this.#timer = setTimeout(() => {
      if (this.#inFlight > 0 || this.#server.phase !== "ready") return;
      this.#onIdle();
    }, timeout);
  }

  /** Drops the idle timeout, if any. */
  stop(): void {
    clearTimeout(this.#timer);
  }

  /** A call started: the server does not go idle until it ends. */
  begin(): void {
    this.#inFlight++;
    clearTimeout(this.#timer);
  }

  /** A call ended: the idle timeout starts again once none is in flight. */
  end(): void {
    this.#inFlight--;
    this.arm();
  }
}
