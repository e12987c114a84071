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
  ProtocolError,
  SessionExpiredError,
  TransportError,
} from "../errors.ts";
import { type JsonRpcMessage, type JsonRpcRequest, type RequestId, toMessage } from "../jsonrpc.ts";
import { preview } from "./_framing.ts";
import {
  backoffMs,
  checkedHeaders,
  displayUrl,
  endpointUrl,
  readLimited,
  retryAfterMs,
  sseEvents,
  statusError,
} from "./_http.ts";
import { sleep } from "./_process.ts";
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
  /** On 404 for a request carrying a session id, start a new session once (default true). */
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

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

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
 * followed only within the server's origin, so headers never travel elsewhere.
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
  #incoming!: ReadableStreamDefaultController<JsonRpcMessage>;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #initialize: JsonRpcRequest | undefined;
  #initializedSent = false;
  #reinitializing: Promise<void> | undefined;
  #replays = 0;
  #closing: Promise<void> | undefined;

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
    if (request) this.#waiting.add(request.id);
    if (request?.method === "initialize") this.#initialize = request;
    try {
      const response = await this.#post(message);
      await this.#accept(response, request);
      if ("method" in message && message.method === "notifications/initialized") {
        this.#initializedSent = true;
        if (this.#options.openServerStream ?? true) this.#track(this.#stream(undefined, undefined));
      }
    } catch (error) {
      if (this.#closing) return;
      if (request) {
        this.#waiting.delete(request.id);
        this.onRequestError?.(request.id, error as Error);
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
      if (!response.ok) throw await statusError(response, "POST", this.#url);
      return response;
    }
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
      this.#track(this.#stream(request.id, response.body));
    } else if (type.includes("application/json")) {
      const text = await readLimited(response.body, this.#maxBytes);
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
      const response = await this.#request("POST", replay, JSON.stringify(replay));
      if (!response.ok) {
        const error = await statusError(response, "POST", this.#url);
        throw new SessionExpiredError(
          `Session expired and a new one could not be started: ${error.message}`,
        );
      }
      this.#keepSessionId(response);
      await this.#awaitReplay(response, replay.id);
      if (this.#initializedSent) {
        const note: JsonRpcMessage = { jsonrpc: "2.0", method: "notifications/initialized" };
        const ack = await this.#request("POST", note, JSON.stringify(note));
        await ack.body?.cancel();
      }
      this.#diagnose({
        kind: "unexpected-message",
        message: "Server session expired; started a new one",
      });
    })().finally(() => this.#reinitializing = undefined);
    return this.#reinitializing;
  }

  /** Reads the answer to a replayed initialize, which the session above must never see. */
  async #awaitReplay(response: Response, id: RequestId): Promise<void> {
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    let answer: unknown;
    if (type.includes("text/event-stream") && response.body) {
      for await (const event of sseEvents(response.body, this.#maxBytes)) {
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

  /**
   * Reads one SSE stream, and resumes it with `Last-Event-ID` when it ends too early: before the
   * response to `requestId` arrived, or (for the GET stream, `requestId` undefined) at all.
   */
  async #stream(
    requestId: RequestId | undefined,
    first: ReadableStream<Uint8Array> | undefined,
  ): Promise<void> {
    const state: StreamState = { lastEventId: undefined, retryMs: undefined };
    const maxFailures = this.#options.maxReconnects ?? 5;
    let failures = 0;
    let body = first;
    while (!this.#closing) {
      if (!body) {
        let opened: ReadableStream<Uint8Array> | "unsupported";
        try {
          opened = await this.#openGet(state.lastEventId);
        } catch (error) {
          if (this.#closing) return;
          if (++failures > maxFailures || error instanceof SessionExpiredError) {
            return this.#lost(requestId, `after ${failures} attempts: ${(error as Error).message}`);
          }
          await sleep(this.#retryDelay(state, failures - 1), this.#abort.signal);
          continue;
        }
        if (opened === "unsupported") {
          return requestId === undefined
            ? undefined
            : this.#lost(requestId, "the server does not offer a GET stream (405)");
        }
        body = opened;
        failures = 0;
      }
      try {
        await this.#consume(body, state);
      } catch (error) {
        if (error instanceof ProtocolError) return this.#lost(requestId, error.message, error);
        // the connection dropped: resume below
      }
      body = undefined;
      if (this.#closing || (requestId !== undefined && !this.#waiting.has(requestId))) return;
      if (requestId !== undefined && state.lastEventId === undefined) {
        return this.#lost(
          requestId,
          "the stream ended before the response and carried no event id to resume from",
        );
      }
      await sleep(this.#retryDelay(state, failures), this.#abort.signal);
    }
  }

  async #consume(body: ReadableStream<Uint8Array>, state: StreamState): Promise<void> {
    const events = sseEvents(body, this.#maxBytes, {
      onId: (id) => state.lastEventId = id,
      onRetry: (ms) => state.retryMs = ms,
    });
    try {
      for await (const event of events) {
        if ((event.event !== undefined && event.event !== "message") || event.data.trim() === "") {
          continue;
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
          continue;
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
    } catch (error) {
      if (
        (error as Error)?.name === "ParseError" || /buffer/i.test((error as Error)?.message ?? "")
      ) {
        throw new ProtocolError(
          `SSE event exceeds the ${this.#maxBytes} bytes limit (maxMessageBytes)`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  /** Opens a GET stream; "unsupported" on 405. */
  async #openGet(
    lastEventId: string | undefined,
  ): Promise<ReadableStream<Uint8Array> | "unsupported"> {
    const session = this.#sessionId;
    const response = await this.#request("GET", undefined, undefined, lastEventId);
    if (response.status === 405) {
      await response.body?.cancel();
      return "unsupported";
    }
    if (response.status === 404 && session !== undefined) {
      await response.body?.cancel();
      throw new SessionExpiredError("Session expired while resuming a stream");
    }
    if (!response.ok) throw await statusError(response, "GET", this.#url);
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

  #lost(requestId: RequestId | undefined, why: string, cause?: unknown): void {
    if (this.#closing) return;
    if (requestId === undefined) {
      this.#diagnose({
        kind: "unexpected-message",
        message: `Stopped listening for server messages: ${why}`,
      });
      return;
    }
    if (!this.#waiting.delete(requestId)) return;
    this.onRequestError?.(
      requestId,
      new ConnectionClosedError(
        `Lost the response stream of request ${JSON.stringify(requestId)}: ${why}`,
        {},
        cause ? { cause } : undefined,
      ),
    );
  }

  #deliver(message: JsonRpcMessage): void {
    if (this.#closing) return;
    if (!("method" in message) && message.id !== undefined && message.id !== null) {
      this.#waiting.delete(message.id);
    }
    this.#incoming.enqueue(message);
  }

  /** One HTTP request with our headers, following redirects only within the server's origin. */
  async #request(
    method: "POST" | "GET" | "DELETE",
    message: JsonRpcMessage | undefined,
    body: string | undefined,
    lastEventId?: string,
    signal: AbortSignal = this.#abort.signal,
  ): Promise<Response> {
    const headers = new Headers(this.#headers);
    if (this.#options.requestHeaders) {
      for (
        const [name, value] of checkedHeaders(
          await this.#options.requestHeaders(message),
          "requestHeaders",
        )
      ) {
        headers.set(name, value);
      }
    }
    headers.set(
      "accept",
      method === "POST" ? "application/json, text/event-stream" : "text/event-stream",
    );
    if (body !== undefined) headers.set("content-type", "application/json");
    if (this.#sessionId !== undefined) headers.set("mcp-session-id", this.#sessionId);
    if (this.#protocolVersion !== undefined) {
      headers.set("mcp-protocol-version", this.#protocolVersion);
    }
    if (lastEventId !== undefined) headers.set("last-event-id", lastEventId);
    let url = this.#url;
    for (let hop = 0; hop < 5; hop++) {
      const response = await this.#fetch(url, {
        method,
        headers,
        body: body ?? null,
        redirect: "manual",
        signal,
      });
      if (!REDIRECTS.has(response.status)) return response;
      await response.body?.cancel();
      const location = response.headers.get("location");
      const next = location === null ? undefined : new URL(location, url);
      if (!next || next.origin !== this.#url.origin) {
        throw new TransportError(
          `Refusing to follow a redirect from ${displayUrl(url)} to ${
            next ? next.origin : "nowhere"
          }: requests and their headers stay on the server's origin`,
        );
      }
      if (method !== "GET" && response.status !== 307 && response.status !== 308) {
        throw new TransportError(
          `Server redirected ${method} with status ${response.status}; only 307 and 308 keep the request`,
        );
      }
      url = next;
    }
    throw new TransportError(`Too many redirects from ${displayUrl(this.#url)}`);
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
