/**
 * The legacy HTTP+SSE transport of protocol revision 2024-11-05: a GET opens an SSE stream whose
 * first `endpoint` event names where to POST messages; every answer arrives on the stream.
 *
 * @module
 */

import {
  ConnectionClosedError,
  type Diagnostic,
  ProtocolError,
  TransportError,
} from "../errors.ts";
import { type JsonRpcMessage, messageId, type RequestId, toMessage } from "../jsonrpc.ts";
import { preview } from "./framing.ts";
import {
  cancelledRequest,
  checkedHeaders,
  displayUrl,
  endpointUrl,
  sseEvents,
  statusError,
} from "./_http.ts";
import {
  concurrencyLimit,
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  RequestGate,
  takesSlot,
} from "./_http_gate.ts";
import { within } from "./_process.ts";
import { fetchWithinOrigin } from "./_redirect.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./stdio.ts";
import type { Transport } from "./transport.ts";
import { deliver } from "./_deliver.ts";

/**
 * Options of {@link SseTransport}.
 *
 * @example Waiting at most 5 s for the endpoint
 * ```ts
 * import type { SseTransportOptions } from "@mcp-inspect/client";
 * const options: SseTransportOptions = { url: "http://127.0.0.1:3001/sse", endpointTimeoutMs: 5_000 };
 * ```
 */
export interface SseTransportOptions {
  /** The SSE endpoint: `http:` or `https:`. */
  url: string | URL;
  /** Headers sent with every request. Checked up front: no CR, LF or invalid names. */
  headers?: HeadersInit | undefined;
  /** Headers computed for each request (the message is absent for the GET). */
  requestHeaders?: (message: JsonRpcMessage | undefined) => HeadersInit | Promise<HeadersInit>;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
  /** The largest SSE event accepted, in bytes (default 10 MiB). */
  maxMessageBytes?: number;
  /** How long to wait for the `endpoint` event (default 10 s). */
  endpointTimeoutMs?: number;
  /**
   * Requests whose POST may be in flight at once (default 32; `Infinity` for no limit). Later
   * ones queue in order; answers, notifications and liveness checks (`ping`,
   * `server/discover`) never queue.
   */
  maxConcurrentRequests?: number;
  /** Receives non-fatal oddities. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/**
 * Talks to a server that still speaks the HTTP+SSE transport of 2024-11-05. The POST endpoint
 * the server names must be on the same origin as the SSE URL, or `start()` fails: a server must
 * not be able to send our messages (and headers) elsewhere.
 *
 * @example Connecting to a legacy server
 * ```ts
 * import { Client, SseTransport } from "@mcp-inspect/client";
 * // A test server of this repository: a Deno.serve handler speaking only HTTP+SSE
 * import { legacySseHandler } from "../../testdata/http/legacy_sse.ts";
 *
 * await using server = Deno.serve({ port: 0, onListen() {} }, legacySseHandler());
 * const url = `http://127.0.0.1:${server.addr.port}/sse`;
 * await using client = await Client.connect(new SseTransport({ url }));
 * console.log(client.protocolVersion); // "2024-11-05"
 * ```
 */
export class SseTransport implements Transport {
  /** Messages from the server. */
  readonly readable: ReadableStream<JsonRpcMessage>;
  /** Messages to the server: each becomes a POST to the announced endpoint. */
  readonly writable: WritableStream<JsonRpcMessage>;
  /** Set by the session; see {@link Transport.onRequestError}. */
  onRequestError: ((id: RequestId, error: Error) => void) | undefined;
  /** Set by the session; see {@link Transport.onDiagnostic}. */
  onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined;
  /** Set by the session; see {@link Transport.onMessage}. */
  onMessage: ((message: JsonRpcMessage) => void) | undefined;
  readonly #url: URL;
  readonly #options: SseTransportOptions;
  readonly #headers: [string, string][];
  readonly #fetch: typeof fetch;
  readonly #abort = new AbortController();
  readonly #tasks = new Set<Promise<unknown>>();
  readonly #gate: RequestGate;
  /** Requests waiting for a slot, each with whether the session has cancelled it meanwhile. */
  readonly #queued = new Map<RequestId, boolean>();
  #incoming!: ReadableStreamDefaultController<JsonRpcMessage>;
  #endpoint: URL | undefined;
  #starting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Checks the URL and headers; the stream opens in {@link start}.
   *
   * @example Constructing opens nothing
   * ```ts
   * import { SseTransport } from "@mcp-inspect/client";
   * const transport = new SseTransport({ url: "http://127.0.0.1:3001/sse" });
   * await transport.close();
   * ```
   */
  constructor(options: SseTransportOptions) {
    this.#options = options;
    this.#url = endpointUrl(options.url, "SSE URL");
    this.#headers = checkedHeaders(options.headers, "headers");
    this.#fetch = options.fetch ?? fetch;
    this.#gate = new RequestGate(
      concurrencyLimit(options.maxConcurrentRequests, DEFAULT_MAX_CONCURRENT_REQUESTS),
      this.#abort.signal,
    );
    this.readable = new ReadableStream({
      start: (controller) => void (this.#incoming = controller),
    });
    this.writable = new WritableStream({ write: (message) => this.#write(message) });
  }

  /**
   * Where messages are posted, once the server has said.
   *
   * @example The endpoint a server announces
   * ```ts
   * import { SseTransport } from "@mcp-inspect/client";
   * const fakeServer = () => // its SSE stream names the POST endpoint
   *   Promise.resolve(new Response("event: endpoint\ndata: /messages?session=1\n\n", {
   *     headers: { "content-type": "text/event-stream" },
   *   }));
   * await using transport = new SseTransport({ url: "http://localhost/sse", fetch: fakeServer });
   * await transport.start();
   * console.log(transport.endpoint?.href); // "http://localhost/messages?session=1"
   * ```
   */
  get endpoint(): URL | undefined {
    return this.#endpoint;
  }

  /**
   * Opens the SSE stream and waits for the `endpoint` event.
   *
   * @example A server that never names its endpoint
   * ```ts
   * import { SseTransport } from "@mcp-inspect/client";
   * await using transport = new SseTransport({
   *   url: "http://localhost/sse",
   *   fetch: () => // a fake server whose stream ends at once, naming no endpoint
   *     Promise.resolve(new Response("", { headers: { "content-type": "text/event-stream" } })),
   * });
   * await transport.start().catch((error) => console.log(error.message));
   * // "Server closed the SSE stream"
   * ```
   */
  start(): Promise<void> {
    if (this.#closing) return Promise.reject(new TransportError("Transport is closed"));
    this.#starting ??= this.#open();
    return this.#starting;
  }

  async #open(): Promise<void> {
    const response = await fetchWithinOrigin(this.#fetch, this.#url, {
      method: "GET",
      headers: await this.#headersFor(undefined, "text/event-stream"),
      signal: this.#abort.signal,
    });
    if (!response.ok) throw await statusError(response, "GET", this.#url);
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    if (!type.includes("text/event-stream") || !response.body) {
      await response.body?.cancel();
      throw new ProtocolError(
        `Server answered GET ${displayUrl(this.#url)} with content type ${
          JSON.stringify(type)
        }; expected text/event-stream`,
      );
    }
    const maxBytes = this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const reader = sseEvents(response.body, maxBytes, {}, this.#abort.signal).getReader();
    let announced: (endpoint: URL | Error) => void = () => {};
    const endpoint = new Promise<URL | Error>((resolve) => announced = resolve);
    this.#track(this.#read(reader, announced));
    const timeoutMs = this.#options.endpointTimeoutMs ?? 10_000;
    const result = await within(endpoint, timeoutMs);
    if (result === undefined) {
      throw new TransportError(
        `Server sent no endpoint event on ${displayUrl(this.#url)} within ${timeoutMs} ms`,
      );
    }
    if (result instanceof Error) throw result;
    this.#endpoint = result;
  }

  async #read(
    reader: ReadableStreamDefaultReader<{ event?: string | undefined; data: string }>,
    announced: (endpoint: URL | Error) => void,
  ): Promise<void> {
    let reason: Error = new ConnectionClosedError("Server closed the SSE stream");
    try {
      while (true) {
        const { value: event, done } = await reader.read();
        if (done) break;
        if (event.event === "endpoint") {
          announced(this.#endpointFrom(event.data));
          continue;
        }
        if ((event.event ?? "message") !== "message" || event.data.trim() === "") continue;
        this.#deliver(event.data);
      }
    } catch (error) {
      reason = this.#closing
        ? reason
        : new ConnectionClosedError(`SSE stream failed: ${(error as Error).message}`, {}, {
          cause: error,
        });
    } finally {
      reader.releaseLock();
    }
    announced(reason);
    if (this.#closing) return;
    try {
      this.#incoming.error(reason);
    } catch {
      // already closed
    }
  }

  #endpointFrom(data: string): URL | Error {
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), this.#url);
    } catch {
      return new ProtocolError(`Server announced an invalid endpoint: ${preview(data)}`);
    }
    if (endpoint.origin !== this.#url.origin) {
      return new TransportError(
        `Server announced an endpoint on another origin (${endpoint.origin}); refusing to send messages there`,
      );
    }
    return endpoint;
  }

  #deliver(data: string): void {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      this.#diagnose({
        kind: "non-json-line",
        message: "Skipped an SSE event that is not JSON",
        data: preview(data),
      });
      return;
    }
    let message: JsonRpcMessage;
    try {
      message = toMessage(value);
    } catch (error) {
      const id = messageId(value);
      this.#diagnose({
        kind: "invalid-message",
        message: (error as Error).message,
        data: preview(data),
        ...(id === undefined ? {} : { id }),
      });
      return;
    }
    deliver(this.#incoming, this.onMessage, message);
  }

  #write(message: JsonRpcMessage): void {
    if (this.#closing) throw new ConnectionClosedError("Cannot send: the transport is closed");
    if (!this.#endpoint) throw new TransportError("Cannot send: the transport is not started");
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined && this.#queued.has(cancelled)) this.#queued.set(cancelled, true);
    this.#track(this.#post(this.#endpoint, message));
  }

  async #post(endpoint: URL, message: JsonRpcMessage): Promise<void> {
    const id = takesSlot(message) ? message.id : undefined;
    try {
      if (id !== undefined) {
        const queued = this.#gate.enter();
        if (queued) {
          this.#queued.set(id, false);
          let cancelled: boolean | undefined;
          try {
            await queued;
          } finally {
            cancelled = this.#queued.get(id);
            this.#queued.delete(id);
          }
          if (cancelled) {
            this.#gate.leave(); // cancelled while it waited: never sent
            return;
          }
        }
      }
      let response: Response;
      try {
        response = await fetchWithinOrigin(this.#fetch, endpoint, {
          method: "POST",
          headers: await this.#headersFor(message, "application/json, text/event-stream"),
          body: JSON.stringify(message),
          signal: this.#abort.signal,
        });
      } finally {
        if (id !== undefined) this.#gate.leave();
      }
      if (!response.ok) throw await statusError(response, "POST", endpoint);
      await response.body?.cancel(); // the answer comes on the SSE stream
    } catch (error) {
      if (this.#closing) return;
      if ("method" in message && "id" in message) {
        this.onRequestError?.(message.id, error as Error);
      } else {
        this.#diagnose({
          kind: "unexpected-message",
          message: `Could not send a message: ${(error as Error).message}`,
        });
      }
    }
  }

  async #headersFor(message: JsonRpcMessage | undefined, accept: string): Promise<Headers> {
    const headers = new Headers(this.#headers);
    if (this.#options.requestHeaders) {
      const extra = checkedHeaders(await this.#options.requestHeaders(message), "requestHeaders");
      for (const [name, value] of extra) headers.set(name, value);
    }
    headers.set("accept", accept);
    if (message !== undefined) headers.set("content-type", "application/json");
    return headers;
  }

  #track(task: Promise<unknown>): void {
    this.#tasks.add(task);
    task.finally(() => this.#tasks.delete(task)).catch(() => {});
  }

  #diagnose(diagnostic: Diagnostic): void {
    try {
      this.#options.onDiagnostic?.(diagnostic);
      this.onDiagnostic?.(diagnostic);
    } catch {
      // a faulty diagnostics sink must not break the transport
    }
  }

  /**
   * Closes the stream and stops every request. Idempotent.
   *
   * @example Closing twice
   * ```ts
   * import { SseTransport } from "@mcp-inspect/client";
   * const fakeServer = () => // its SSE stream names the POST endpoint
   *   Promise.resolve(new Response("event: endpoint\ndata: /messages?session=1\n\n", {
   *     headers: { "content-type": "text/event-stream" },
   *   }));
   * const transport = new SseTransport({ url: "http://localhost/sse", fetch: fakeServer });
   * await transport.start();
   * await transport.close();
   * await transport.close(); // resolves again, doing nothing
   * ```
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#abort.abort(new ConnectionClosedError("Transport closed"));
      await this.#starting?.catch(() => {});
      await Promise.allSettled([...this.#tasks]);
      try {
        this.#incoming.close();
      } catch {
        // already errored or closed
      }
    })();
    return this.#closing;
  }

  /**
   * Same as {@link close}.
   *
   * @example Closing the transport at the end of a scope
   * ```ts
   * import { SseTransport } from "@mcp-inspect/client";
   * {
   *   await using transport = new SseTransport({ url: "http://127.0.0.1:3001/sse" });
   *   console.log(transport.endpoint); // undefined: not started
   * } // closed here
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
