/**
 * The Streamable HTTP transport (protocol revisions 2025-03-26 and later): every message is a
 * POST; answers come back as JSON or as an SSE stream; an optional GET stream carries what the
 * server sends on its own.
 *
 * @module
 */

import {
  ConnectionClosedError,
  type Diagnostic,
  HttpError,
  ProtocolError,
  SessionExpiredError,
  TransportError,
} from "../errors.ts";
import {
  type JsonObject,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
  toMessage,
} from "../jsonrpc.ts";
import { formatBytes, preview } from "./_framing.ts";
import {
  backoffMs,
  checkedHeaders,
  displayUrl,
  endpointUrl,
  networkError,
  readLimited,
  redact,
  retryAfterMs,
  secretsOf,
  sseEvents,
  statusError,
} from "./_http.ts";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { type HeaderParam, headerParams, paramHeaders, standardHeaders } from "./_mcp_headers.ts";
import { sleep } from "./_process.ts";
import { fetchWithinOrigin } from "./_redirect.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./stdio.ts";
import type { Transport } from "./transport.ts";

/**
 * Options of {@link StreamableHttpTransport}.
 *
 * @example
 * ```ts
 * import type { StreamableHttpTransportOptions } from "@mcp-inspect/client";
 * const options: StreamableHttpTransportOptions = {
 *   url: "https://example.com/mcp",
 *   headers: { "X-Team": "tools" },
 *   requestHeaders: () => ({ Authorization: `Bearer ${Deno.env.get("TOKEN")}` }),
 * };
 * ```
 */
export interface StreamableHttpTransportOptions {
  /** The MCP endpoint: `http:` or `https:`. */
  url: string | URL;
  /** Headers sent with every request. Checked up front: no CR, LF or invalid names. */
  headers?: HeadersInit;
  /** Headers computed for each request (the message is absent for GET and DELETE). */
  requestHeaders?: (message: JsonRpcMessage | undefined) => HeadersInit | Promise<HeadersInit>;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
  /** The largest JSON body or SSE event accepted, in bytes (default 10 MiB). */
  maxMessageBytes?: number;
  /**
   * On 404 for a request carrying a session id (a POST, or a GET stream that was open before),
   * start a new session once (default true).
   */
  reinitializeOnExpiry?: boolean;
  /** Open the GET stream for messages the server sends on its own (default true). */
  openServerStream?: boolean;
  /** Failed reconnection attempts of a dropped stream before giving up (default 5). */
  maxReconnects?: number;
  /** First reconnection delay when the server gave no `retry:` (default 1 s, doubling). */
  reconnectDelayMs?: number;
  /** The longest wait: for `retry:`, `Retry-After` and backoff alike (default 30 s). */
  maxDelayMs?: number;
  /** Retries of idempotent requests answered 429 or 503 (default 3). */
  maxRetries?: number;
  /** Receives non-fatal oddities. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/** Methods whose repetition does no harm, retried after 429 or 503. */
const IDEMPOTENT = new Set([
  "initialize",
  "ping",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "server/discover",
]);

/** Errors only a modern server sends (HeaderMismatch, MissingRequiredClientCapability, Unsupported version). */
const MODERN_ERROR_CODES = new Set([-32020, -32021, -32022]);

/** The protocol revision a modern message declares in its `_meta`, if any. */
function declaredVersion(message: JsonRpcMessage | undefined): string | undefined {
  if (!message || !("method" in message)) return undefined;
  const meta = message.params?._meta as JsonObject | undefined;
  const version = meta?.["io.modelcontextprotocol/protocolVersion"];
  return typeof version === "string" ? version : undefined;
}

/** A request in flight: what was sent, whether it was modern, how often it was re-issued. */
interface InFlight {
  message: JsonRpcRequest;
  modern: boolean;
  reissues: number;
}

/** A JSON-RPC error that came as the body of an HTTP error status. */
class ErrorBody extends Error {
  readonly error: JsonRpcErrorObject;
  constructor(error: JsonRpcErrorObject) {
    super(error.message);
    this.error = error;
  }
}

interface StreamState {
  lastEventId: string | undefined;
  retryMs: number | undefined;
}

/**
 * Talks to an MCP server over Streamable HTTP.
 *
 * Sessions (`Mcp-Session-Id`) are kept and ended with DELETE on close; an expired session is
 * replaced transparently once. A response stream that drops is resumed with `Last-Event-ID`,
 * after the server's `retry:` delay or a capped backoff. 429 and 503 are retried for idempotent
 * requests after `Retry-After`. 401 and 403 raise {@link AuthorizationError}. Redirects are
 * followed only within the server's origin, so headers never travel elsewhere. Error messages
 * never show the session id, credential headers or the URL's query, even when a server echoes
 * them back.
 *
 * @example
 * ```ts ignore
 * import { Client, StreamableHttpTransport } from "@mcp-inspect/client";
 * await using client = await Client.connect(
 *   new StreamableHttpTransport({ url: "http://127.0.0.1:3000/mcp" }),
 * );
 * console.log(await client.listTools());
 * ```
 */
export class StreamableHttpTransport implements Transport {
  /** Messages from the server. */
  readonly readable: ReadableStream<JsonRpcMessage>;
  /** Messages to the server: each becomes a POST. */
  readonly writable: WritableStream<JsonRpcMessage>;
  /** Set by the session; see {@link Transport.onRequestError}. */
  onRequestError: ((id: RequestId, error: Error) => void) | undefined;
  readonly #url: URL;
  readonly #options: StreamableHttpTransportOptions;
  readonly #headers: [string, string][];
  readonly #fetch: typeof fetch;
  readonly #maxBytes: number;
  readonly #abort = new AbortController();
  readonly #tasks = new Set<Promise<unknown>>();
  /** Requests still awaiting their response; a stream carrying one is worth resuming. */
  readonly #waiting = new Set<RequestId>();
  /** Requests in flight by id, and the ids of re-issued requests mapped to the original ones. */
  readonly #inFlight = new Map<RequestId, InFlight>();
  readonly #aliases = new Map<RequestId, RequestId>();
  /** `x-mcp-header` parameters of the tools, from the last modern tools/list. */
  readonly #toolHeaders = new Map<string, HeaderParam[]>();
  #reissued = 0;
  #incoming!: ReadableStreamDefaultController<JsonRpcMessage>;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #initialize: JsonRpcRequest | undefined;
  #initializedSent = false;
  #reinitializing: Promise<void> | undefined;
  #replays = 0;
  #closing: Promise<void> | undefined;
  /** Ends the GET stream of the current session when a new session replaces it. */
  #listening: AbortController | undefined;
  /** Every session id the server gave, and the last computed headers: kept out of messages. */
  readonly #sessionIds = new Set<string>();
  #dynamicHeaders: [string, string][] = [];

  /**
   * Checks the URL and headers; nothing is sent until the client writes.
   *
   * @example
   * ```ts
   * import { StreamableHttpTransport } from "@mcp-inspect/client";
   * const transport = new StreamableHttpTransport({ url: "http://127.0.0.1:3000/mcp" });
   * await transport.close();
   * ```
   */
  constructor(options: StreamableHttpTransportOptions) {
    this.#options = options;
    this.#url = endpointUrl(options.url);
    this.#headers = checkedHeaders(options.headers, "headers");
    this.#fetch = options.fetch ?? fetch;
    this.#maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.readable = new ReadableStream({
      start: (controller) => void (this.#incoming = controller),
    });
    this.writable = new WritableStream({ write: (message) => this.#write(message) });
  }

  /** The session id the server assigned, if any. Treat it as a secret. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** Nothing to open: the first POST starts the conversation. */
  start(): Promise<void> {
    if (this.#closing) return Promise.reject(new TransportError("Transport is closed"));
    return Promise.resolve();
  }

  /** Sends `MCP-Protocol-Version` with every later request. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  async #write(message: JsonRpcMessage): Promise<void> {
    if (this.#closing) throw new ConnectionClosedError("Cannot send: the transport is closed");
    const method = "method" in message ? message.method : undefined;
    if (method === "notifications/cancelled") {
      this.#waiting.delete((message as { params?: { requestId?: RequestId } }).params?.requestId!);
    }
    const sending = this.#track(this.#send(message));
    // The handshake goes out in order; everything after it may overlap.
    if (method === "initialize" || method === "notifications/initialized") await sending;
  }

  async #send(message: JsonRpcMessage): Promise<void> {
    const request = "method" in message && "id" in message ? message as JsonRpcRequest : undefined;
    if (request) {
      this.#waiting.add(request.id);
      const previous = this.#inFlight.get(request.id);
      this.#inFlight.set(request.id, {
        message: request,
        modern: declaredVersion(request) !== undefined,
        reissues: previous?.reissues ?? 0,
      });
    }
    if (request?.method === "initialize") this.#initialize = request;
    try {
      const response = await this.#post(message);
      await this.#accept(response, request);
      if ("method" in message && message.method === "notifications/initialized") {
        this.#initializedSent = true;
        this.#listen();
      }
    } catch (error) {
      if (this.#closing) return;
      if (request && error instanceof ErrorBody) {
        this.#deliver({ jsonrpc: "2.0", id: request.id, error: error.error });
      } else if (request) {
        this.#waiting.delete(request.id);
        this.#inFlight.delete(request.id);
        this.onRequestError?.(this.#original(request.id), error as Error);
      } else {
        this.#diagnose({
          kind: "unexpected-message",
          message: `Could not send ${"method" in message ? message.method : "a response"}: ${
            (error as Error).message
          }`,
        });
      }
    }
  }

  /** POSTs a message; handles session expiry and retries; returns a successful response. */
  async #post(message: JsonRpcMessage): Promise<Response> {
    const method = "method" in message ? message.method : undefined;
    const maxRetries = this.#options.maxRetries ?? 3;
    let renewed = false;
    for (let attempt = 0;; attempt++) {
      // Sent during a renewal, a request would carry no session id: wait for the new one.
      if (this.#reinitializing) await this.#reinitializing;
      const session = this.#sessionId;
      const response = await this.#request("POST", message, JSON.stringify(message));
      if (response.status === 404 && session !== undefined && method !== "initialize") {
        await response.body?.cancel();
        if (!(this.#options.reinitializeOnExpiry ?? true)) {
          throw new SessionExpiredError(
            `Session expired: the server answered 404 to ${method ?? "a response"}`,
          );
        }
        if (renewed) {
          throw new SessionExpiredError("Session expired again right after a new one was started");
        }
        await this.#renew(session);
        // An answer to a request of the old session means nothing to the new one.
        if (method === undefined) {
          throw new SessionExpiredError("Session expired before the answer could be delivered");
        }
        renewed = true;
        continue;
      }
      const retryable = response.status === 429 || response.status === 503;
      if (retryable && attempt < maxRetries && method !== undefined && IDEMPOTENT.has(method)) {
        const wait = retryAfterMs(response.headers.get("retry-after")) ??
          backoffMs(attempt, this.#options.reconnectDelayMs ?? 1_000, this.#maxDelay());
        await response.body?.cancel();
        await sleep(Math.min(wait, this.#maxDelay()), this.#abort.signal);
        continue;
      }
      if (!response.ok) throw await this.#postError(response, method);
      return response;
    }
  }

  /**
   * An error status, as a typed error. A JSON-RPC error in the body is the server's real answer
   * (modern servers send UnsupportedProtocolVersion and HeaderMismatch with 400), so it reaches
   * the session as an error response; for initialize only a modern error counts, because a 4xx
   * there is how an older server says it predates Streamable HTTP.
   */
  async #postError(response: Response, method: string | undefined): Promise<Error> {
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    const secrets = this.#secrets();
    if (response.status === 401 || response.status === 403 || !type.includes("application/json")) {
      return await statusError(response, "POST", this.#url, secrets);
    }
    const text = await readLimited(response.body, 64 * 1024).catch(() => "");
    let error: JsonRpcErrorObject | undefined;
    try {
      const body = JSON.parse(text);
      if (typeof body?.error?.code === "number" && typeof body.error.message === "string") {
        error = body.error;
      }
    } catch {
      // not JSON after all
    }
    if (error && (method !== "initialize" || MODERN_ERROR_CODES.has(error.code))) {
      return new ErrorBody({ ...error, message: redact(error.message, secrets) });
    }
    return new HttpError(
      `Server answered HTTP ${response.status} to POST ${displayUrl(this.#url)}: ${
        preview(redact(text, secrets))
      }`,
      response.status,
    );
  }

  /** The id the session knows for a request, through any re-issues. */
  #original(id: RequestId): RequestId {
    return this.#aliases.get(id) ?? id;
  }

  /**
   * 2026-07-28 removed stream resumption: a broken response stream loses the request, and the
   * client must send it again under a new id. The session keeps waiting on the original id.
   */
  #reissue(requestId: RequestId): boolean {
    const entry = this.#inFlight.get(requestId);
    if (!entry || entry.reissues >= (this.#options.maxReconnects ?? 5)) return false;
    const id = `mcp-inspect-reissue-${++this.#reissued}`;
    this.#aliases.set(id, this.#original(requestId));
    this.#waiting.delete(requestId);
    this.#inFlight.delete(requestId);
    this.#inFlight.set(id, { ...entry, reissues: entry.reissues + 1 });
    this.#track(this.#send({ ...entry.message, id }));
    return true;
  }

  /** Handles a successful POST response: nothing, one JSON answer, or an SSE stream. */
  async #accept(response: Response, request: JsonRpcRequest | undefined): Promise<void> {
    if (request?.method === "initialize") this.#keepSessionId(response);
    if (!request || response.status === 202 || response.status === 204) {
      await response.body?.cancel();
      return; // a request answered 202 gets its response on the GET stream
    }
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    if (type.includes("text/event-stream") && response.body) {
      this.#track(this.#stream(request.id, response.body, response.headers.get("content-length")));
    } else if (type.includes("application/json")) {
      const text = await readLimited(
        response.body,
        this.#maxBytes,
        response.headers.get("content-length"),
      );
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new ProtocolError(
          `Server answered ${request.method} with invalid JSON: ${preview(text)}`,
        );
      }
      for (const item of Array.isArray(value) ? value : [value]) this.#deliver(toMessage(item));
    } else {
      await response.body?.cancel();
      throw new ProtocolError(
        `Server answered ${request.method} with content type ${
          JSON.stringify(type)
        }; expected application/json or text/event-stream`,
      );
    }
  }

  #keepSessionId(response: Response): void {
    const id = response.headers.get("mcp-session-id");
    if (id === null) return;
    // spec: visible ASCII only; anything else could smuggle bytes into our next requests
    if (!/^[\x21-\x7e]+$/.test(id)) {
      throw new ProtocolError("Server sent an invalid Mcp-Session-Id");
    }
    this.#sessionId = id;
    this.#sessionIds.add(id);
  }

  /**
   * The server ended the session: start a new one by replaying the handshake, once for all the
   * requests that learn of it together (spec 2025-11-25 transports, session management, rule 4).
   */
  #renew(expired: string): Promise<void> {
    if (this.#sessionId !== expired) return this.#reinitializing ?? Promise.resolve();
    this.#reinitializing ??= (async () => {
      this.#sessionId = undefined;
      const initialize = this.#initialize;
      if (!initialize) throw new SessionExpiredError("Session expired before initialize was sent");
      const replay: JsonRpcRequest = { ...initialize, id: `mcp-inspect-renew-${++this.#replays}` };
      try {
        const response = await this.#request("POST", replay, JSON.stringify(replay));
        if (!response.ok) throw await statusError(response, "POST", this.#url, this.#secrets());
        this.#keepSessionId(response);
        await this.#awaitReplay(response, replay.id);
        if (this.#initializedSent) {
          const note: JsonRpcMessage = { jsonrpc: "2.0", method: "notifications/initialized" };
          const ack = await this.#request("POST", note, JSON.stringify(note));
          await ack.body?.cancel();
        }
      } catch (error) {
        if (error instanceof SessionExpiredError || this.#closing) throw error;
        throw new SessionExpiredError(
          `Session expired and a new one could not be started: ${(error as Error).message}`,
          { cause: error },
        );
      }
      this.#diagnose({
        kind: "unexpected-message",
        message: "Server session expired; started a new one",
      });
      // The old session's GET stream can never carry what the new session sends.
      if (this.#initializedSent) this.#listen();
    })().finally(() => this.#reinitializing = undefined);
    return this.#reinitializing;
  }

  /** Reads the answer to a replayed initialize, which the session above must never see. */
  async #awaitReplay(response: Response, id: RequestId): Promise<void> {
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    let answer: unknown;
    if (type.includes("text/event-stream") && response.body) {
      for await (const event of sseEvents(response.body, this.#maxBytes, {}, this.#abort.signal)) {
        if (!event.data.trim()) continue;
        const message = JSON.parse(event.data);
        if (message?.id === id) {
          answer = message;
          break;
        }
        this.#deliver(toMessage(message));
      }
    } else {
      answer = JSON.parse(await readLimited(response.body, this.#maxBytes));
    }
    if (typeof answer !== "object" || answer === null || !("result" in answer)) {
      throw new SessionExpiredError("Session expired and the server refused a new initialize");
    }
  }

  /** Opens the GET stream of the current session, ending that of an earlier one. */
  #listen(): void {
    if (!(this.#options.openServerStream ?? true) || this.#closing) return;
    this.#listening?.abort();
    const controller = new AbortController();
    this.#listening = controller;
    this.#track(this.#stream(undefined, undefined, undefined, controller.signal));
  }

  /**
   * Reads one SSE stream, and resumes it with `Last-Event-ID` when it ends too early: before the
   * response to `requestId` arrived, or (for the GET stream, `requestId` undefined) at all.
   */
  async #stream(
    requestId: RequestId | undefined,
    first: ReadableStream<Uint8Array> | undefined,
    firstLength?: string | null,
    own?: AbortSignal,
  ): Promise<void> {
    const signal = own ? AbortSignal.any([this.#abort.signal, own]) : this.#abort.signal;
    const session = this.#sessionId;
    const state: StreamState = { lastEventId: undefined, retryMs: undefined };
    const maxFailures = this.#options.maxReconnects ?? 5;
    let failures = 0;
    let listening = false;
    let body = first;
    while (!signal.aborted) {
      if (!body) {
        if (this.#reinitializing) await this.#reinitializing.catch(() => {});
        // spec: event ids are unique within a session, so no other session can resume this one.
        if (this.#sessionId !== session) {
          if (requestId === undefined) return; // the new session listens on a stream of its own
          return this.#lost(
            requestId,
            new SessionExpiredError(
              `Session expired before the response to request ${JSON.stringify(requestId)} arrived`,
            ),
          );
        }
        let opened: ReadableStream<Uint8Array> | "unsupported" | "expired";
        try {
          opened = await this.#openGet(state.lastEventId, signal);
        } catch (error) {
          if (signal.aborted) return;
          if (++failures > maxFailures) {
            return this.#lost(requestId, `after ${failures} attempts: ${(error as Error).message}`);
          }
          await sleep(this.#retryDelay(state, failures - 1), signal);
          continue;
        }
        if (opened === "unsupported") {
          return requestId === undefined
            ? undefined
            : this.#lost(requestId, "the server does not offer a GET stream (405)");
        }
        if (opened === "expired") {
          return await this.#expiredWhileListening(requestId, session!, listening);
        }
        body = opened;
        failures = 0;
        listening = true;
      }
      try {
        // Only the first body's length is known; resumed GET streams are open-ended.
        await this.#consume(body, state, body === first ? firstLength : undefined, signal);
      } catch (error) {
        if (error instanceof ProtocolError) return this.#lost(requestId, error);
        // the connection dropped: resume below
      }
      body = undefined;
      if (signal.aborted || (requestId !== undefined && !this.#waiting.has(requestId))) return;
      if (requestId !== undefined && this.#inFlight.get(requestId)?.modern) {
        if (this.#reissue(requestId)) return;
        return this.#lost(requestId, "the stream broke and the request was re-issued too often");
      }
      if (requestId !== undefined && state.lastEventId === undefined) {
        return this.#lost(
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
      return this.#lost(
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
      return this.#lost(undefined, "the server answered the first GET of the session with 404");
    }
    if (!(this.#options.reinitializeOnExpiry ?? true)) {
      return this.#lost(undefined, "the session expired (HTTP 404)");
    }
    try {
      await this.#renew(session);
    } catch (error) {
      this.#lost(undefined, (error as Error).message);
    }
  }

  async #consume(
    body: ReadableStream<Uint8Array>,
    state: StreamState,
    declaredLength: string | null | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const callbacks = {
      onId: (id: string) => state.lastEventId = id,
      onRetry: (ms: number) => state.retryMs = ms,
    };
    // A stream of known, bounded length (a whole answer in one response) skips the two stream
    // stages, which cost more than the answer itself. It is still fed chunk by chunk, so that a
    // connection lost halfway keeps the events and the event id received before the loss.
    const length = declaredLength ? Number(declaredLength) : NaN;
    if (Number.isInteger(length) && length <= this.#maxBytes) {
      const parser = createParser({ ...callbacks, onEvent: (event) => this.#onEvent(event) });
      const decoder = new TextDecoder();
      const reader = body.getReader();
      const stop = () => void reader.cancel().catch(() => {});
      signal.addEventListener("abort", stop, { once: true });
      try {
        while (true) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
        }
        parser.feed(decoder.decode());
      } finally {
        signal.removeEventListener("abort", stop);
        reader.releaseLock();
      }
      return;
    }
    const events = sseEvents(body, this.#maxBytes, callbacks, signal);
    try {
      for await (const event of events) this.#onEvent(event);
    } catch (error) {
      if (
        (error as Error)?.name === "ParseError" || /buffer/i.test((error as Error)?.message ?? "")
      ) {
        throw new ProtocolError(
          `SSE event exceeds the ${formatBytes(this.#maxBytes)} limit (maxMessageBytes)`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  #onEvent(event: EventSourceMessage): void {
    if ((event.event !== undefined && event.event !== "message") || event.data.trim() === "") {
      return;
    }
    // The parser bounds only what it buffers across chunks; an event that came whole in one
    // chunk is measured here.
    if (
      event.data.length > this.#maxBytes / 3 &&
      new TextEncoder().encode(event.data).byteLength > this.#maxBytes
    ) {
      throw new ProtocolError(
        `SSE event exceeds the ${formatBytes(this.#maxBytes)} limit (maxMessageBytes)`,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch {
      this.#diagnose({
        kind: "non-json-line",
        message: "Skipped an SSE event that is not JSON",
        data: preview(event.data),
      });
      return;
    }
    try {
      this.#deliver(toMessage(value));
    } catch (error) {
      this.#diagnose({
        kind: "invalid-message",
        message: (error as Error).message,
        data: preview(event.data),
      });
    }
  }

  /**
   * Opens a GET stream. "unsupported" on 405, and on 404 without a session id (a server with no
   * GET route); "expired" on 404 with one.
   */
  async #openGet(
    lastEventId: string | undefined,
    signal: AbortSignal,
  ): Promise<ReadableStream<Uint8Array> | "unsupported" | "expired"> {
    const session = this.#sessionId;
    const response = await this.#request("GET", undefined, undefined, lastEventId, signal);
    if (response.status === 405 || (response.status === 404 && session === undefined)) {
      await response.body?.cancel();
      return "unsupported";
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return "expired";
    }
    if (!response.ok) throw await statusError(response, "GET", this.#url, this.#secrets());
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    if (!type.includes("text/event-stream") || !response.body) {
      await response.body?.cancel();
      throw new ProtocolError(
        `Server answered GET with content type ${JSON.stringify(type)}; expected text/event-stream`,
      );
    }
    return response.body;
  }

  #retryDelay(state: StreamState, attempt: number): number {
    const max = this.#maxDelay();
    if (state.retryMs !== undefined) return Math.min(state.retryMs, max);
    return backoffMs(attempt, this.#options.reconnectDelayMs ?? 1_000, max);
  }

  #maxDelay(): number {
    return this.#options.maxDelayMs ?? 30_000;
  }

  /**
   * Gives up on a stream: a request fails with `reason` (a string is wrapped in a
   * ConnectionClosedError); for the GET stream, a diagnostic says why listening stopped.
   */
  #lost(requestId: RequestId | undefined, reason: string | Error): void {
    if (this.#closing) return;
    if (requestId === undefined) {
      this.#diagnose({
        kind: "unexpected-message",
        message: `Stopped listening for server messages: ${
          typeof reason === "string" ? reason : reason.message
        }`,
      });
      return;
    }
    if (!this.#waiting.delete(requestId)) return;
    this.#inFlight.delete(requestId);
    this.onRequestError?.(
      this.#original(requestId),
      typeof reason === "string"
        ? new ConnectionClosedError(
          `Lost the response stream of request ${JSON.stringify(requestId)}: ${reason}`,
        )
        : reason,
    );
  }

  /** Values that must never appear in an error message. */
  #secrets(): string[] {
    const all = [
      ...this.#sessionIds,
      ...secretsOf([...this.#headers, ...this.#dynamicHeaders], this.#url),
    ];
    return all.sort((a, b) => b.length - a.length);
  }

  #deliver(message: JsonRpcMessage): void {
    if (this.#closing) return;
    let out = message;
    if (!("method" in message) && message.id !== undefined && message.id !== null) {
      const id = message.id;
      this.#waiting.delete(id);
      const entry = this.#inFlight.get(id);
      this.#inFlight.delete(id);
      if (entry?.modern && entry.message.method === "tools/list" && "result" in message) {
        out = { ...message, result: this.#checkToolHeaders(message.result) };
      }
      const original = this.#aliases.get(id);
      if (original !== undefined) {
        this.#aliases.delete(id);
        out = { ...out, id: original } as JsonRpcMessage;
      }
    }
    this.#incoming.enqueue(out);
  }

  /**
   * Learns each tool's x-mcp-header parameters and drops the tools whose annotations break the
   * rules (spec: such a tool MUST be excluded, so one bad tool cannot spoil the others).
   */
  #checkToolHeaders(result: JsonObject): JsonObject {
    if (!Array.isArray(result.tools)) return result;
    const kept = [];
    for (const tool of result.tools as { name?: unknown; inputSchema?: unknown }[]) {
      const params = headerParams(tool?.inputSchema);
      if (typeof params === "string") {
        this.#diagnose({
          kind: "invalid-message",
          message: `Dropped tool ${JSON.stringify(tool?.name)} from tools/list: ${params}`,
        });
        continue;
      }
      if (typeof tool.name === "string") this.#toolHeaders.set(tool.name, params);
      kept.push(tool);
    }
    return { ...result, tools: kept };
  }

  /** One HTTP request with our headers, following redirects only within the server's origin. */
  async #request(
    method: "POST" | "GET" | "DELETE",
    message: JsonRpcMessage | undefined,
    body: string | undefined,
    lastEventId?: string,
    signal: AbortSignal = this.#abort.signal,
  ): Promise<Response> {
    // A plain record, lowercased keys: one conversion inside fetch instead of a Headers.set
    // (with its validation) per header on the hot path.
    const headers: Record<string, string> = {};
    for (const [name, value] of this.#headers) headers[name.toLowerCase()] = value;
    if (this.#options.requestHeaders) {
      const extra = checkedHeaders(await this.#options.requestHeaders(message), "requestHeaders");
      this.#dynamicHeaders = extra;
      for (const [name, value] of extra) headers[name.toLowerCase()] = value;
    }
    headers.accept = method === "POST"
      ? "application/json, text/event-stream"
      : "text/event-stream";
    if (body !== undefined) headers["content-type"] = "application/json";
    const declared = declaredVersion(message);
    // A modern request has no session; the revision it declares goes in the header too.
    if (this.#sessionId !== undefined && !declared) headers["mcp-session-id"] = this.#sessionId;
    const version = declared ?? this.#protocolVersion;
    if (version !== undefined) headers["mcp-protocol-version"] = version;
    if (declared && message) {
      for (const [name, value] of standardHeaders(message)) headers[name] = value;
      if ("method" in message && message.method === "tools/call") {
        const params = this.#toolHeaders.get(String(message.params?.name)) ?? [];
        for (const [name, value] of paramHeaders(params, message.params?.arguments)) {
          headers[name.toLowerCase()] = value;
        }
      }
    }
    if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
    try {
      return await fetchWithinOrigin(this.#fetch, this.#url, {
        method,
        headers,
        body: body ?? null,
        signal,
      });
    } catch (error) {
      // Only fetch's own failures are rewritten; a wrapped fetch's typed errors pass as they are.
      if (signal.aborted || !(error instanceof TypeError)) throw error;
      throw networkError(error, method, this.#url);
    }
  }

  #track<T>(task: Promise<T>): Promise<T> {
    this.#tasks.add(task);
    task.finally(() => this.#tasks.delete(task)).catch(() => {});
    return task;
  }

  #diagnose(diagnostic: Diagnostic): void {
    try {
      this.#options.onDiagnostic?.(diagnostic);
    } catch {
      // a faulty diagnostics sink must not break the transport
    }
  }

  /** Stops every stream and request, ends the session with DELETE (405 is fine), and closes. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#abort.abort(new ConnectionClosedError("Transport closed"));
      await Promise.allSettled([...this.#tasks]);
      if (this.#sessionId !== undefined) await this.#endSession();
      try {
        this.#incoming.close();
      } catch {
        // already closed
      }
    })();
    return this.#closing;
  }

  async #endSession(): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 2_000);
    try {
      const response = await this.#request(
        "DELETE",
        undefined,
        undefined,
        undefined,
        controller.signal,
      );
      await response.body?.cancel();
    } catch {
      // the server may be gone already; the session ends with it
    } finally {
      clearTimeout(timer);
    }
  }

  /** Same as {@link close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
