/**
 * HTTP with automatic detection: Streamable HTTP first, and the legacy HTTP+SSE transport when
 * the server turns the first POST away, as the spec's backwards-compatibility rule says.
 *
 * @module
 */

import { ConnectionClosedError, type Diagnostic, HttpError, TransportError } from "../errors.ts";
import type { JsonRpcMessage, RequestId } from "../jsonrpc.ts";
import { SseTransport } from "./sse.ts";
import { StreamableHttpTransport, type StreamableHttpTransportOptions } from "./streamable_http.ts";
import type { Transport } from "./transport.ts";
import { deliver } from "./_deliver.ts";

/**
 * Options of {@link HttpTransport}.
 *
 * @example Forcing the legacy transport
 * ```ts
 * import type { HttpTransportOptions } from "@mcp-inspect/client";
 * const options: HttpTransportOptions = { url: "http://127.0.0.1:3001/sse", transport: "sse" };
 * ```
 */
export interface HttpTransportOptions extends StreamableHttpTransportOptions {
  /**
   * `"auto"` (default): Streamable HTTP, falling back to HTTP+SSE when the server answers the
   * first POST with 400, 404 or 405. `"streamable-http"` or `"sse"` forces one.
   */
  transport?: "auto" | "streamable-http" | "sse";
  /** The SSE URL of the legacy transport, if it differs from `url`. */
  sseUrl?: string | URL;
}

/** Statuses that, answering the first POST, mean "this server predates Streamable HTTP". */
const LEGACY_STATUSES = new Set([400, 404, 405]);

/**
 * Connects to an MCP server over HTTP, whichever HTTP transport it speaks.
 *
 * @example Connecting without knowing the server's transport
 * ```ts
 * import { Client, HttpTransport } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * await using http = new FakeServer().serveHttp(); // Streamable HTTP on a free port
 * const transport = new HttpTransport({ url: http.url });
 * await using client = await Client.connect(transport);
 * console.log(transport.kind); // "streamable-http" (a server of 2024-11-05 gives "sse")
 * ```
 */
export class HttpTransport implements Transport {
  /** Messages from the server, whichever transport carries them. */
  readonly readable: ReadableStream<JsonRpcMessage>;
  /** Messages to the server. */
  readonly writable: WritableStream<JsonRpcMessage>;
  /** Set by the session; see {@link Transport.onRequestError}. */
  onRequestError: ((id: RequestId, error: Error) => void) | undefined;
  /** Set by the session; see {@link Transport.onDiagnostic}. */
  onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined;
  /** Set by the session; see {@link Transport.onMessage}. */
  onMessage: ((message: JsonRpcMessage) => void) | undefined;
  readonly #options: HttpTransportOptions;
  #incoming!: ReadableStreamDefaultController<JsonRpcMessage>;
  #delegate: Transport | undefined;
  #writer: WritableStreamDefaultWriter<JsonRpcMessage> | undefined;
  #pump: Promise<void> | undefined;
  #probing: RequestId | undefined;
  #turnedAway: HttpError | undefined;
  #protocolVersion: string | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Checks the options; nothing is sent until the client starts the transport.
   *
   * @example Constructing sends nothing
   * ```ts
   * import { HttpTransport } from "@mcp-inspect/client";
   * const transport = new HttpTransport({ url: "http://127.0.0.1:3000/mcp" });
   * await transport.close();
   * ```
   */
  constructor(options: HttpTransportOptions) {
    this.#options = options;
    // Constructing checks the URL and headers now, so bad options fail before any request.
    new StreamableHttpTransport(options);
    if (options.sseUrl !== undefined) new SseTransport({ ...options, url: options.sseUrl });
    this.readable = new ReadableStream({
      start: (controller) => void (this.#incoming = controller),
    });
    this.writable = new WritableStream({ write: (message) => this.#write(message) });
  }

  /**
   * Which transport is in use: known after `start()` (`"sse"`) or the first POST.
   *
   * @example Streamable HTTP until the server turns the first POST away
   * ```ts
   * import { HttpTransport } from "@mcp-inspect/client";
   * await using transport = new HttpTransport({ url: "http://127.0.0.1:3000/mcp" });
   * console.log(transport.kind); // undefined
   * await transport.start(); // sends nothing yet
   * console.log(transport.kind); // "streamable-http": it becomes "sse" on a 400, 404 or 405
   * ```
   */
  get kind(): "streamable-http" | "sse" | undefined {
    if (this.#delegate instanceof SseTransport) return "sse";
    return this.#delegate ? "streamable-http" : undefined;
  }

  /**
   * Starts the forced transport, or prepares Streamable HTTP in auto mode.
   *
   * @example Starting the legacy transport opens its SSE stream
   * ```ts
   * import { HttpTransport } from "@mcp-inspect/client";
   * await using transport = new HttpTransport({
   *   url: "http://localhost/sse",
   *   transport: "sse",
   *   fetch: () => // a fake legacy server: its SSE stream names the POST endpoint
   *     Promise.resolve(new Response("event: endpoint\ndata: /messages\n\n", {
   *       headers: { "content-type": "text/event-stream" },
   *     })),
   * });
   * await transport.start();
   * console.log(transport.kind); // "sse"
   * ```
   */
  async start(): Promise<void> {
    if (this.#closing) throw new TransportError("Transport is closed");
    if (this.#delegate) return;
    await this.#use(this.#options.transport === "sse" ? this.#sse() : this.#streamable());
  }

  /**
   * Tells the transport in use which revision was negotiated.
   *
   * @example The header on the next POST
   * ```ts
   * import { HttpTransport } from "@mcp-inspect/client";
   * const versions: (string | null)[] = [];
   * await using transport = new HttpTransport({
   *   url: "http://localhost/mcp",
   *   fetch: (_url, init) => { // a fake server that answers every POST
   *     versions.push(new Headers(init?.headers).get("mcp-protocol-version"));
   *     return Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: {} }));
   *   },
   * });
   * await transport.start();
   * transport.setProtocolVersion("2025-11-25");
   * await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
   * await transport.readable.getReader().read(); // the answer
   * console.log(versions); // ["2025-11-25"]
   * ```
   */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
    this.#delegate?.setProtocolVersion?.(version);
  }

  #streamable(): StreamableHttpTransport {
    return new StreamableHttpTransport(this.#options);
  }

  #sse(): SseTransport {
    return new SseTransport({ ...this.#options, url: this.#options.sseUrl ?? this.#options.url });
  }

  async #use(delegate: Transport): Promise<void> {
    this.#delegate = delegate;
    delegate.onDiagnostic = (diagnostic) => this.onDiagnostic?.(diagnostic);
    // Straight through both transports when the reader takes messages as they come.
    delegate.onMessage = (message) => void deliver(this.#incoming, this.onMessage, message);
    delegate.onRequestError = (id, error) => {
      if (id === this.#probing && error instanceof HttpError && LEGACY_STATUSES.has(error.status)) {
        this.#turnedAway = error;
        return;
      }
      this.onRequestError?.(id, error);
    };
    await delegate.start();
    if (this.#protocolVersion) delegate.setProtocolVersion?.(this.#protocolVersion);
    this.#writer = delegate.writable.getWriter();
    this.#pump = this.#forward(delegate);
  }

  async #forward(delegate: Transport): Promise<void> {
    const reader = delegate.readable.getReader();
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        deliver(this.#incoming, this.onMessage, value);
      }
      if (this.#delegate === delegate && !this.#closing) this.#incoming.close();
    } catch (error) {
      if (this.#delegate === delegate && !this.#closing) this.#incoming.error(error);
    } finally {
      reader.releaseLock();
    }
  }

  /**
   * Sends one message through the transport in use, by its own `send` when it has one (see
   * {@link Transport.send}).
   *
   * @example Sending before the transport is started fails
   * ```ts
   * import { HttpTransport } from "@mcp-inspect/client";
   * const transport = new HttpTransport({ url: "http://127.0.0.1:1/mcp" });
   * await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" }).catch(() => {});
   * await transport.close();
   * ```
   */
  send(message: JsonRpcMessage): Promise<void> {
    return this.#write(message);
  }

  /** One path out for every message, so their order holds whichever way they are sent. */
  #pass(message: JsonRpcMessage): Promise<void> {
    const delegate = this.#delegate!;
    return delegate.send ? delegate.send(message) : this.#writer!.write(message);
  }

  async #write(message: JsonRpcMessage): Promise<void> {
    if (this.#closing || !this.#writer) {
      throw new ConnectionClosedError("Cannot send: the transport is not open");
    }
    const probe = this.#options.transport !== "streamable-http" &&
      this.#options.transport !== "sse" && "id" in message && "method" in message &&
      message.method === "initialize" && this.#probing === undefined;
    if (!probe) return this.#pass(message);
    this.#probing = (message as { id: RequestId }).id;
    await this.#pass(message);
    const turnedAway = this.#turnedAway;
    if (!turnedAway) return;
    // spec backwards compatibility: a 400, 404 or 405 to the first POST means an older server.
    const old = this.#delegate!;
    this.#writer.releaseLock();
    this.#delegate = undefined;
    await old.close();
    await this.#pump;
    try {
      await this.#use(this.#sse());
    } catch (error) {
      this.onRequestError?.(
        this.#probing,
        new TransportError(
          `${turnedAway.message}; the legacy HTTP+SSE transport failed too: ${
            (error as Error).message
          }`,
          { cause: error },
        ),
      );
      return;
    }
    await this.#pass(message);
  }

  /**
   * Closes whichever transport is in use. Idempotent.
   *
   * @example Closing twice
   * ```ts
   * import { HttpTransport } from "@mcp-inspect/client";
   * const transport = new HttpTransport({ url: "http://127.0.0.1:3000/mcp" });
   * await transport.start();
   * await transport.close();
   * await transport.close(); // resolves again, doing nothing
   * ```
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#writer?.releaseLock();
      await this.#delegate?.close();
      await this.#pump;
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
   * import { HttpTransport } from "@mcp-inspect/client";
   * {
   *   await using transport = new HttpTransport({ url: "http://127.0.0.1:3000/mcp" });
   *   await transport.start();
   * } // closed here
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
