// The life of a Streamable HTTP session: the handshake to replay, a new session when the server
// ends the old one, and the DELETE that ends it on close.

import { SessionExpiredError } from "../errors.ts";
import { type JsonRpcMessage, type JsonRpcRequest, type RequestId, toMessage } from "../jsonrpc.ts";
import { readLimited, sseEvents } from "./_http.ts";
import type { HttpLink } from "./_http_channel.ts";

/** Starts a new session when the server ended ours, and ends ours on close. */
export class SessionKeeper {
  readonly #link: HttpLink;
  /** Opens the GET stream of the current session. */
  readonly #listen: () => void;
  #initialize: JsonRpcRequest | undefined;
  #initialized = false;
  #replays = 0;
  #renewing: Promise<void> | undefined;

  constructor(link: HttpLink, listen: () => void) {
    this.#link = link;
    this.#listen = listen;
  }

  /** Settles when the renewal under way ends; undefined when none is. */
  get renewing(): Promise<void> | undefined {
    return this.#renewing;
  }

  /** Keeps the initialize request, to replay it for a new session. */
  rememberInitialize(request: JsonRpcRequest): void {
    this.#initialize = request;
  }

  /** Notes that notifications/initialized went out: a new session must send it too. */
  markInitialized(): void {
    this.#initialized = true;
  }

  /**
   * The server ended the session: start a new one by replaying the handshake, once for all the
   * requests that learn of it together (spec 2025-11-25 transports, session management, rule 4).
   */
  renew(expired: string): Promise<void> {
    const channel = this.#link.channel;
    if (channel.sessionId !== expired) return this.#renewing ?? Promise.resolve();
    this.#renewing ??= this.#replay().finally(() => this.#renewing = undefined);
    return this.#renewing;
  }

  async #replay(): Promise<void> {
    const { channel, closing, diagnose } = this.#link;
    channel.forgetSession();
    const initialize = this.#initialize;
    if (!initialize) throw new SessionExpiredError("Session expired before initialize was sent");
    const replay: JsonRpcRequest = { ...initialize, id: `mcp-inspect-renew-${++this.#replays}` };
    try {
      const response = await channel.request("POST", replay, JSON.stringify(replay));
      if (!response.ok) throw await channel.statusError(response, "POST");
      channel.keepSessionId(response);
      await this.#awaitReplay(response, replay.id);
      if (this.#initialized) {
        const note: JsonRpcMessage = { jsonrpc: "2.0", method: "notifications/initialized" };
        const ack = await channel.request("POST", note, JSON.stringify(note));
        await ack.body?.cancel();
      }
    } catch (error) {
      if (error instanceof SessionExpiredError || closing()) throw error;
      throw new SessionExpiredError(
        `Session expired and a new one could not be started: ${(error as Error).message}`,
        { cause: error },
      );
    }
    diagnose({ kind: "unexpected-message", message: "Server session expired; started a new one" });
    // The old session's GET stream can never carry what the new session sends.
    if (this.#initialized) this.#listen();
  }

  /** Reads the answer to a replayed initialize, which the session above must never see. */
  async #awaitReplay(response: Response, id: RequestId): Promise<void> {
    const { limits, signal, deliver } = this.#link;
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    let answer: unknown;
    if (type.includes("text/event-stream") && response.body) {
      for await (const event of sseEvents(response.body, limits.maxBytes, {}, signal)) {
        if (!event.data.trim()) continue;
        const message = JSON.parse(event.data);
        if (message?.id === id) {
          answer = message;
          break;
        }
        deliver(toMessage(message));
      }
    } else {
      answer = JSON.parse(await readLimited(response.body, limits.maxBytes));
    }
    if (typeof answer !== "object" || answer === null || !("result" in answer)) {
      throw new SessionExpiredError("Session expired and the server refused a new initialize");
    }
  }

  /** Ends the session with DELETE, waiting at most 2 s; a server that is gone ends it anyway. */
  async end(): Promise<void> {
    if (this.#link.channel.sessionId === undefined) return;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 2_000);
    try {
      const response = await this.#link.channel.request(
        "DELETE",
        undefined,
        undefined,
        undefined,
        controller.signal,
      );
      await response.body?.cancel();
    } catch {
      // the server may be gone already (405 is fine too); the session ends with it
    } finally {
      clearTimeout(timer);
    }
  }
}
