// Keeps an SSE stream of the Streamable HTTP transport alive: a response stream until its answer
// arrives, the GET stream for as long as the session lasts. A stream that drops is resumed with
// `Last-Event-ID`, a modern request is re-issued instead, and one beyond saving is given up.

import { ProtocolError, SessionExpiredError } from "../errors.ts";
import type { RequestId } from "../jsonrpc.ts";
import { backoffMs } from "./_http.ts";
import type { HttpLink } from "./_http_channel.ts";
import type { RequestLedger } from "./_http_ledger.ts";
import type { SessionKeeper } from "./_http_session.ts";
import { readSse, type StreamState } from "./_http_sse.ts";
import { sleep } from "./_process.ts";

/** What the transport does when a stream cannot go on as it was. */
export interface StreamHooks {
  /** Sends a modern request again under a new id; false when it was re-issued too often. */
  reissue(requestId: RequestId): boolean;
  /**
   * Gives up on a stream: a request fails with `reason` (a string is wrapped in a
   * ConnectionClosedError); for the GET stream, a diagnostic says why listening stopped.
   */
  lost(requestId: RequestId | undefined, reason: string | Error): void;
}

/** Reads the SSE streams of one transport, resuming them when they end too early. */
export class StreamKeeper {
  readonly #link: HttpLink;
  readonly #session: SessionKeeper;
  readonly #ledger: RequestLedger;
  readonly #hooks: StreamHooks;

  constructor(link: HttpLink, session: SessionKeeper, ledger: RequestLedger, hooks: StreamHooks) {
    this.#link = link;
    this.#session = session;
    this.#ledger = ledger;
    this.#hooks = hooks;
  }

  /**
   * Reads one SSE stream, and resumes it with `Last-Event-ID` when it ends too early: before the
   * response to `requestId` arrived, or (for the GET stream, `requestId` undefined) at all.
   */
  async read(
    requestId: RequestId | undefined,
    first: Response | undefined,
    own?: AbortSignal,
  ): Promise<void> {
    const link = this.#link;
    const signal = own ? AbortSignal.any([link.signal, own]) : link.signal;
    const session = link.channel.sessionId;
    const state: StreamState = { lastEventId: undefined, retryMs: undefined };
    let failures = 0;
    let listening = false;
    let response = first;
    while (!signal.aborted) {
      if (!response) {
        if (this.#session.renewing) await this.#session.renewing.catch(() => {});
        // spec: event ids are unique within a session, so no other session can resume this one.
        if (link.channel.sessionId !== session) {
          if (requestId === undefined) return; // the new session listens on a stream of its own
          return this.#hooks.lost(
            requestId,
            new SessionExpiredError(
              `Session expired before the response to request ${JSON.stringify(requestId)} arrived`,
            ),
          );
        }
        let opened: Response | "unsupported" | "expired";
        try {
          opened = await this.#openGet(state.lastEventId, signal);
        } catch (error) {
          if (signal.aborted) return;
          if (++failures > link.limits.maxReconnects) {
            return this.#hooks.lost(
              requestId,
              `after ${failures} attempts: ${(error as Error).message}`,
            );
          }
          await sleep(this.#retryDelay(state, failures - 1), signal);
          continue;
        }
        if (opened === "unsupported") {
          return requestId === undefined
            ? undefined
            : this.#hooks.lost(requestId, "the server does not offer a GET stream (405)");
        }
        if (opened === "expired") {
          return await this.#expiredWhileListening(requestId, session!, listening);
        }
        response = opened;
        failures = 0;
        listening = true;
      }
      try {
        await readSse(link, response, state, signal);
      } catch (error) {
        if (error instanceof ProtocolError) return this.#hooks.lost(requestId, error);
        // the connection dropped: resume below
      }
      response = undefined;
      if (signal.aborted) return;
      if (requestId !== undefined && !this.#ledger.isWaiting(requestId)) {
        // answered, or cancelled: its stream is over, so no answer can come for it any more
        this.#ledger.forget(requestId);
        return;
      }
      if (requestId !== undefined && this.#ledger.isModern(requestId)) {
        if (this.#hooks.reissue(requestId)) return;
        return this.#hooks.lost(
          requestId,
          "the stream broke and the request was re-issued too often",
        );
      }
      if (requestId !== undefined && state.lastEventId === undefined) {
        return this.#hooks.lost(
          requestId,
          "the stream ended before the response and carried no event id to resume from",
        );
      }
      await sleep(this.#retryDelay(state, failures), signal);
    }
  }

  /**
   * A GET answered 404 for our session id. The GET stream is often the first to learn that the
   * server ended the session, with no request in flight: start a new session then (spec
   * 2025-11-25 transports, session management, rule 4), which opens its own GET stream.
   */
  async #expiredWhileListening(
    requestId: RequestId | undefined,
    session: string,
    listening: boolean,
  ): Promise<void> {
    if (requestId !== undefined) {
      return this.#hooks.lost(
        requestId,
        new SessionExpiredError(
          `Session expired while the response stream of request ${
            JSON.stringify(requestId)
          } was being resumed`,
        ),
      );
    }
    if (!listening) {
      // A 404 to the first GET of a session is more likely a server without a GET route than a
      // session gone already; renewing on it would start session after session.
      return this.#hooks.lost(
        undefined,
        "the server answered the first GET of the session with 404",
      );
    }
    if (!this.#link.limits.reinitializeOnExpiry) {
      return this.#hooks.lost(undefined, "the session expired (HTTP 404)");
    }
    try {
      await this.#session.renew(session);
    } catch (error) {
      this.#hooks.lost(undefined, (error as Error).message);
    }
  }

  /**
   * Opens a GET stream. "unsupported" on 405, and on 404 without a session id (a server with no
   * GET route); "expired" on 404 with one.
   */
  async #openGet(
    lastEventId: string | undefined,
    signal: AbortSignal,
  ): Promise<Response | "unsupported" | "expired"> {
    const channel = this.#link.channel;
    const session = channel.sessionId;
    const response = await channel.request("GET", undefined, undefined, lastEventId, signal);
    if (response.status === 405 || (response.status === 404 && session === undefined)) {
      await response.body?.cancel();
      return "unsupported";
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return "expired";
    }
    if (!response.ok) throw await channel.statusError(response, "GET");
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    if (!type.includes("text/event-stream") || !response.body) {
      await response.body?.cancel();
      throw new ProtocolError(
        `Server answered GET with content type ${JSON.stringify(type)}; expected text/event-stream`,
      );
    }
    return response;
  }

  /** The server's `retry:` delay if it gave one, else a capped backoff; never past the maximum. */
  #retryDelay(state: StreamState, attempt: number): number {
    const max = this.#link.limits.maxDelayMs;
    if (state.retryMs !== undefined) return Math.min(state.retryMs, max);
    return backoffMs(attempt, this.#link.limits.reconnectDelayMs, max);
  }
}
