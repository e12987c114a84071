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
  TransportError,
} from "../errors.ts";
import {
  type JsonRpcMessage,
  type JsonRpcRequest,
  messageId,
  type RequestId,
  toMessage,
} from "../jsonrpc.ts";
import { declaredVersion, type HttpChannel, type HttpLink, openLink } from "./_http_channel.ts";
import { RequestLedger } from "./_http_ledger.ts";
import { answered, ErrorBody, jsonText, parseJson, post } from "./_http_post.ts";
import { type RequestSink, sendRequest } from "./_http_fast.ts";
import { takesSlot } from "./_http_gate.ts";
import { SessionKeeper } from "./_http_session.ts";
import { StreamKeeper } from "./_http_stream.ts";
import { preview } from "./framing.ts";
import type { Transport } from "./transport.ts";
import { deliver } from "./_deliver.ts";

/** What send() returns for a message nothing waits on: its POST is under way. */
const SENT: Promise<void> = Promise.resolve();

/**
 * Options of {@link StreamableHttpTransport}.
 *
 * @example A fixed header and a token read for each request
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
  headers?: HeadersInit | undefined;
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
  /**
   * The longest wait: for `retry:` and backoff (default 30 s). A `Retry-After` longer than this
   * is not retried: the request fails with an {@link HttpError} carrying `retryAfterMs`.
   */
  maxDelayMs?: number;
  /** Retries of idempotent requests answered 429 or 503 (default 3). */
  maxRetries?: number;
  /**
   * Requests that may wait for their response headers at once (default 32; `Infinity` for no
   * limit). Later ones queue in order, so that a burst of calls does not open a connection per
   * call. A request holds its slot only until the headers arrive, not while an SSE answer
   * streams; answers, notifications and liveness checks (`ping`, `server/discover`) never queue,
   * nor does anything sent while a request of the server awaits our answer.
   */
  maxConcurrentRequests?: number;
  /** Receives non-fatal oddities. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
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
 * @example Listing the tools of a local server
 * ```ts
 * import { Client, StreamableHttpTransport } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * await using http = new FakeServer({ tools: [{ name: "echo" }] }).serveHttp(); // a free port
 * await using client = await Client.connect(
 *   new StreamableHttpTransport({ url: http.url }), // http://127.0.0.1:PORT/mcp
 * );
 * console.log(await client.listTools()); // [{ inputSchema: { type: "object" }, name: "echo" }]
 * ```
 */
export class StreamableHttpTransport implements Transport {
  /** Messages from the server. */
  readonly readable: ReadableStream<JsonRpcMessage>;
  /** Messages to the server: each becomes a POST. */
  readonly writable: WritableStream<JsonRpcMessage>;
  /** Set by the session; see {@link Transport.onRequestError}. */
  onRequestError: ((id: RequestId, error: Error) => void) | undefined;
  /** Set by the session; see {@link Transport.onDiagnostic}. */
  onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined;
  /** Set by the session; see {@link Transport.onMessage}. */
  onMessage: ((message: JsonRpcMessage) => void) | undefined;
  readonly #onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined;
  readonly #abort = new AbortController();
  /** POSTs and streams under way (see #track); close() waits until none is. */
  #inFlight = 0;
  /** Resolves close()'s wait once nothing is under way. */
  #drained: (() => void) | undefined;
  /** One function for every task, rather than a closure per POST. */
  readonly #untrack = (): void => {
    if (--this.#inFlight === 0) this.#drained?.();
  };
  /** Whether the session still waits for a request: asked before a queued POST goes out. */
  readonly #wanted = (id: RequestId): boolean => this.#ledger.isWaiting(id);
  /** Where a request sent on its own path hands what it gets (see sendRequest()). */
  readonly #sink: RequestSink = {
    sending: (request) => {
      this.#ledger.add(request, declaredVersion(request) !== undefined);
      this.#inFlight++;
    },
    json: (request, text) => this.#json(request, text),
    other: (sent, response) => {
      const request = sent.message as JsonRpcRequest;
      const failed = (error: unknown) => this.#failed(request, request, error);
      const onResponse = (answer: Response | undefined) =>
        this.#answered(request, request, answer, failed);
      try {
        return Promise.resolve(answered(sent, response, this.#wanted, onResponse, failed));
      } catch (error) {
        failed(error);
        return SENT;
      }
    },
    failed: (request, error) => this.#failed(request, request, error),
    done: this.#untrack,
  };
  /** The handshake message in flight, which what is sent meanwhile waits for. */
  #handshake: Promise<void> | undefined;
  /** The channel, the resolved options and our sinks, as the private parts see them. */
  readonly #link: HttpLink;
  readonly #channel: HttpChannel;
  /** Our requests in flight and the server's that wait for our answer. */
  readonly #ledger = new RequestLedger();
  readonly #session: SessionKeeper;
  readonly #streams: StreamKeeper;
  #incoming!: ReadableStreamDefaultController<JsonRpcMessage>;
  #closing: Promise<void> | undefined;
  /** Ends the GET stream of the current session when a new session replaces it. */
  #listening: AbortController | undefined;

  /**
   * Checks the URL and headers; nothing is sent until the client writes.
   *
   * @example Constructing sends nothing
   * ```ts
   * import { StreamableHttpTransport } from "@mcp-inspect/client";
   * const transport = new StreamableHttpTransport({ url: "http://127.0.0.1:3000/mcp" });
   * await transport.close();
   * ```
   */
  constructor(options: StreamableHttpTransportOptions) {
    this.#onDiagnostic = options.onDiagnostic;
    this.#link = openLink(options, {
      signal: this.#abort.signal,
      deliver: (message) => this.#deliver(message),
      diagnose: (diagnostic) => this.#diagnose(diagnostic),
      closing: () => this.#closing !== undefined,
    });
    this.#channel = this.#link.channel;
    this.#session = new SessionKeeper(this.#link, () => this.#listen());
    this.#streams = new StreamKeeper(this.#link, this.#session, this.#ledger, {
      reissue: (requestId) => this.#reissue(requestId),
      lost: (requestId, reason) => this.#lost(requestId, reason),
    });
    this.readable = new ReadableStream({
      start: (controller) => void (this.#incoming = controller),
    });
    this.writable = new WritableStream({ write: (message) => this.#write(message) });
  }

  /**
   * The session id the server assigned, if any. Treat it as a secret.
   *
   * @example The id a server assigns in its answer to initialize
   * ```ts
   * import { StreamableHttpTransport } from "@mcp-inspect/client";
   * await using transport = new StreamableHttpTransport({
   *   url: "http://localhost/mcp",
   *   fetch: () => // a fake server: every answer assigns session "s-1"
   *     Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: {} }, {
   *       headers: { "mcp-session-id": "s-1" },
   *     })),
   * });
   * console.log(transport.sessionId); // undefined
   * await transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
   * console.log(transport.sessionId); // "s-1"
   * ```
   */
  get sessionId(): string | undefined {
    return this.#channel.sessionId;
  }

  /**
   * Nothing to open: the first POST starts the conversation.
   *
   * @example Starting sends nothing
   * ```ts
   * import { StreamableHttpTransport } from "@mcp-inspect/client";
   * await using transport = new StreamableHttpTransport({ url: "http://127.0.0.1:3000/mcp" });
   * await transport.start(); // resolves at once, whether a server listens or not
   * ```
   */
  start(): Promise<void> {
    if (this.#closing) return Promise.reject(new TransportError("Transport is closed"));
    return Promise.resolve();
  }

  /**
   * Sends `MCP-Protocol-Version` with every later request.
   *
   * @example The header on the next POST
   * ```ts
   * import { StreamableHttpTransport } from "@mcp-inspect/client";
   * const versions: (string | null)[] = [];
   * await using transport = new StreamableHttpTransport({
   *   url: "http://localhost/mcp",
   *   fetch: (_url, init) => { // a fake server that answers every POST
   *     versions.push(new Headers(init?.headers).get("mcp-protocol-version"));
   *     return Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: {} }));
   *   },
   * });
   * transport.setProtocolVersion("2025-11-25");
   * await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
   * await transport.readable.getReader().read(); // the answer
   * console.log(versions); // ["2025-11-25"]
   * ```
   */
  setProtocolVersion(version: string): void {
    this.#channel.protocolVersion = version;
  }

  /**
   * Sends one message: a POST, without the writable stream's turns per message. The handshake
   * goes out in order (what is sent while it is in flight waits for it); after it, requests
   * overlap.
   *
   * @example Sending to a server that is not listening
   * ```ts
   * import { StreamableHttpTransport } from "@mcp-inspect/client";
   * const transport = new StreamableHttpTransport({ url: "http://127.0.0.1:1/mcp" });
   * await transport.start();
   * await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" }).catch(() => {});
   * await transport.close();
   * ```
   */
  send(message: JsonRpcMessage): Promise<void> {
    const handshake = this.#handshake;
    return handshake ? handshake.then(() => this.#write(message)) : this.#write(message);
  }

  /** Starts the POST of one message; only the handshake's messages are awaited. */
  #write(message: JsonRpcMessage): Promise<void> {
    if (this.#closing) {
      return Promise.reject(new ConnectionClosedError("Cannot send: the transport is closed"));
    }
    const method = "method" in message ? message.method : undefined;
    // A request other than initialize (whose answer starts the session) takes its own path when
    // it can go at once: sent now, its JSON answer handed on with no steps between.
    if (method !== undefined && method !== "initialize" && "id" in message) {
      const request = message as JsonRpcRequest;
      const gated = !this.#ledger.serving && takesSlot(request);
      if (sendRequest(this.#link, this.#session, request, gated, this.#sink)) return SENT;
    }
    const out = this.#ledger.outgoing(message);
    const sending = this.#track(this.#send(out));
    // The handshake goes out in order; everything after it may overlap.
    if (method !== "initialize" && method !== "notifications/initialized") return SENT;
    const settled = sending.then(() => {}, () => {});
    this.#handshake = settled;
    return sending.then(() => {
      if (this.#handshake === settled) this.#handshake = undefined;
    });
  }

  /**
   * POSTs one message and hands on its answer. Never rejects: a failure reaches the session as
   * the request's error or as a diagnostic. Chained rather than async: on the common path (a
   * free slot, a JSON answer) the POST goes out in the caller's turn, and the answer reaches the
   * session with no turns but fetch's own.
   */
  #send(message: JsonRpcMessage): Promise<void> {
    const request = "method" in message && "id" in message ? message as JsonRpcRequest : undefined;
    // One handler pair per POST, given to fetch's own promise, each failure routed to #failed
    // where it arises: each promise turn here costs hundreds of instructions.
    const failed = (error: unknown) => this.#failed(message, request, error);
    try {
      if (request) {
        this.#ledger.add(request, declaredVersion(request) !== undefined);
        if (request.method === "initialize") this.#session.rememberInitialize(request);
      }
      const answered = (response: Response | undefined) =>
        this.#answered(message, request, response, failed);
      return post(
        this.#link,
        this.#session,
        message,
        answered,
        failed,
        this.#wanted,
        this.#ledger.serving,
      );
    } catch (error) {
      // a message JSON cannot carry fails like a refused POST
      return Promise.reject(error).then(undefined, failed);
    }
  }

  /**
   * The successful answer to a POST, or `undefined` for a request given up on while it waited to
   * be sent. Never throws, and the promise it returns never rejects.
   */
  #answered(
    message: JsonRpcMessage,
    request: JsonRpcRequest | undefined,
    response: Response | undefined,
    failed: (error: unknown) => void,
  ): Promise<void> | void {
    if (!response) return void this.#ledger.forget(request!.id); // cancelled while queued
    if ("method" in message && message.method === "notifications/initialized") {
      // A notification's answer has no body worth reading; the session is open once it is in.
      return (response.body ? response.body.cancel() : SENT).then(() => {
        try {
          this.#session.markInitialized();
          this.#listen();
        } catch (error) {
          failed(error);
        }
      }, failed);
    }
    try {
      return this.#accept(response, request, failed);
    } catch (error) {
      failed(error);
    }
  }

  /** A POST that failed: the request fails with the error, or a diagnostic says what was lost. */
  #failed(message: JsonRpcMessage, request: JsonRpcRequest | undefined, error: unknown): void {
    if (this.#closing) return;
    try {
      if (request && error instanceof ErrorBody) {
        this.#deliver({ jsonrpc: "2.0", id: request.id, error: error.error });
      } else if (request) {
        this.onRequestError?.(this.#ledger.forget(request.id), error as Error);
      } else {
        throw error;
      }
    } catch (failure) {
      // Nothing awaits this POST: what cannot reach the request is reported, not lost.
      this.#diagnose({
        kind: "unexpected-message",
        message: `Could not send ${"method" in message ? message.method : "a response"}: ${
          (failure as Error).message
        }`,
      });
    }
  }

  /**
   * Handles a successful POST response: nothing, one JSON answer, or an SSE stream. The promise
   * it returns never rejects: what fails goes to `failed`. May throw (an invalid session id).
   */
  #accept(
    response: Response,
    request: JsonRpcRequest | undefined,
    failed: (error: unknown) => void,
  ): Promise<void> {
    if (request?.method === "initialize") this.#channel.keepSessionId(response);
    if (!request || response.status === 202 || response.status === 204) {
      // a request answered 202 gets its response on the GET stream
      return response.body ? response.body.cancel().then(undefined, failed) : SENT;
    }
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    if (type.includes("text/event-stream") && response.body) {
      this.#track(this.#streams.read(request.id, response));
      return SENT;
    }
    if (type.includes("application/json")) {
      return jsonText(this.#link, response).then((text) => this.#json(request, text), failed);
    }
    return (response.body ? response.body.cancel() : SENT).then(() =>
      failed(
        new ProtocolError(
          `Server answered ${request.method} with content type ${
            JSON.stringify(type)
          }; expected application/json or text/event-stream`,
        ),
      ), failed);
  }

  /**
   * 2026-07-28 removed stream resumption: a broken response stream loses the request, and the
   * client must send it again under a new id. The session keeps waiting on the original id.
   */
  #reissue(requestId: RequestId): boolean {
    const again = this.#ledger.reissue(requestId, this.#link.limits.maxReconnects);
    if (!again) return false;
    this.#track(this.#send(again));
    return true;
  }

  /** Opens the GET stream of the current session, ending that of an earlier one. */
  #listen(): void {
    if (!this.#link.limits.openServerStream || this.#closing) return;
    this.#listening?.abort();
    const controller = new AbortController();
    this.#listening = controller;
    this.#track(this.#streams.read(undefined, undefined, controller.signal));
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
    const original = this.#ledger.drop(requestId);
    if (original === undefined) return;
    this.onRequestError?.(
      original,
      typeof reason === "string"
        ? new ConnectionClosedError(
          `Lost the response stream of request ${JSON.stringify(original)}: ${reason}`,
        )
        : reason,
    );
  }

  /** A JSON answer's text to `request`, parsed and handed on; never throws. */
  #json(request: JsonRpcRequest, text: string): void {
    try {
      const value = parseJson(text, request.method);
      if (!Array.isArray(value)) this.#deliverJson(value, request);
      else for (const item of value) this.#deliverJson(item, request);
    } catch (error) {
      this.#failed(request, request, error);
    }
  }

  /**
   * Hands one message of a JSON answer to the session. A malformed one is reported, naming the
   * request it meant (this POST's request when it names none: a JSON answer is that request's),
   * so that the session fails the request at once instead of leaving it to its timeout.
   */
  #deliverJson(value: unknown, request: JsonRpcRequest): void {
    let message: JsonRpcMessage;
    try {
      message = toMessage(value);
    } catch (error) {
      const wire = messageId(value) ?? request.id;
      const id = this.#ledger.drop(wire) ?? wire;
      this.#diagnose({
        kind: "invalid-message",
        message: `Skipped an invalid message from the server: ${(error as Error).message}`,
        data: preview(JSON.stringify(value) ?? String(value)),
        id,
      });
      return;
    }
    this.#deliver(message);
  }

  /** Hands a message to the session, under the id it knows; a modern tools/list is checked. */
  #deliver(message: JsonRpcMessage): void {
    if (this.#closing) return;
    this.#ledger.received(message);
    let out = message;
    if (!("method" in message) && message.id !== undefined && message.id !== null) {
      const id = message.id;
      const entry = this.#ledger.settle(id);
      if (entry?.modern && entry.message.method === "tools/list" && "result" in message) {
        out = { ...message, result: this.#channel.learnTools(message.result, this.#link.diagnose) };
      }
      const original = this.#ledger.restore(id);
      if (original !== id) out = { ...out, id: original } as JsonRpcMessage;
    }
    deliver(this.#incoming, this.onMessage, out);
  }

  /** Counts a POST or stream under way until it settles, for close() to wait for. */
  #track<T>(task: Promise<T>): Promise<T> {
    this.#inFlight++;
    task.then(this.#untrack, this.#untrack);
    return task;
  }

  #diagnose(diagnostic: Diagnostic): void {
    try {
      this.#onDiagnostic?.(diagnostic);
      this.onDiagnostic?.(diagnostic);
    } catch {
      // a faulty diagnostics sink must not break the transport
    }
  }

  /**
   * Stops every stream and request, ends the session with DELETE (405 is fine), and closes.
   *
   * @example Ending the session the server assigned
   * ```ts
   * import { StreamableHttpTransport } from "@mcp-inspect/client";
   * const methods: string[] = [];
   * const transport = new StreamableHttpTransport({
   *   url: "http://localhost/mcp",
   *   fetch: (_url, init) => { // a fake server that assigns a session
   *     methods.push(init?.method ?? "GET");
   *     const headers = { "mcp-session-id": "s-1" };
   *     return Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: {} }, { headers }));
   *   },
   * });
   * await transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
   * await transport.close();
   * console.log(methods); // ["POST", "DELETE"]
   * ```
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#abort.abort(new ConnectionClosedError("Transport closed"));
      if (this.#inFlight > 0) await new Promise<void>((resolve) => this.#drained = resolve);
      await this.#session.end();
      try {
        this.#incoming.close();
      } catch {
        // already closed
      }
    })();
    return this.#closing;
  }

  /**
   * Same as {@link close}.
   *
   * @example Closing the transport at the end of a scope
   * ```ts
   * import { StreamableHttpTransport } from "@mcp-inspect/client";
   * {
   *   await using transport = new StreamableHttpTransport({ url: "http://127.0.0.1:3000/mcp" });
   *   await transport.start();
   * } // closed here: no session was opened, so nothing is sent
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
