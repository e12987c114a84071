/**
 * A transport wrapper that shows every message going in and out, for wire logs and checks.
 *
 * @module
 */

import type { Diagnostic } from "../errors.ts";
import type { JsonRpcMessage, RequestId } from "../jsonrpc.ts";
import type { Transport } from "./transport.ts";

/**
 * What {@link TapTransport} calls for each message.
 *
 * @example Printing each message with its direction
 * ```ts
 * import type { TapListeners } from "@mcp-inspect/client";
 * const listeners: TapListeners = { sent: (m) => console.error("→", m), received: (m) => console.error("←", m) };
 * ```
 */
export interface TapListeners {
  /** A message the client wrote. */
  sent?: (message: JsonRpcMessage) => void;
  /** A message the server sent. */
  received?: (message: JsonRpcMessage) => void;
}

/**
 * Wraps a transport and reports every message to listeners, without changing any. A throwing
 * listener is ignored: observing must never break the connection.
 *
 * @example Logging the wire
 * ```ts
 * import { Client, TapTransport } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const transport = new TapTransport(new FakeServer().transport(), {
 *   sent: (message) => console.error("→", JSON.stringify(message)),
 *   received: (message) => console.error("←", JSON.stringify(message)),
 * });
 * await using client = await Client.connect(transport);
 * // → {"jsonrpc":"2.0","id":1,"method":"server/discover",...}, then ← its answer
 * ```
 */
export class TapTransport implements Transport {
  /** The wrapped transport. */
  readonly inner: Transport;
  readonly #listeners: TapListeners;
  #readable: ReadableStream<JsonRpcMessage> | undefined;
  #writable: WritableStream<JsonRpcMessage> | undefined;

  /**
   * Wraps `inner`; nothing happens until `start()`.
   *
   * @example Wrapping one end of an in-memory pair
   * ```ts
   * import { MemoryTransport, TapTransport } from "@mcp-inspect/client";
   * const [a] = MemoryTransport.pair();
   * const tapped = new TapTransport(a, {});
   * await tapped.close();
   * ```
   */
  constructor(inner: Transport, listeners: TapListeners) {
    this.inner = inner;
    this.#listeners = listeners;
  }

  /**
   * Messages from the server, after the `received` listener saw them.
   *
   * @example Seeing a message before the reader gets it
   * ```ts
   * import { MemoryTransport, TapTransport } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * await using tap = new TapTransport(near, { received: (m) => console.log("←", m) });
   * await tap.start();
   * await far.writable.getWriter().write({ jsonrpc: "2.0", method: "notifications/initialized" });
   * await tap.readable.getReader().read(); // the listener has printed the message by now
   * ```
   */
  get readable(): ReadableStream<JsonRpcMessage> {
    if (!this.#readable) throw new Error("TapTransport is not started");
    return this.#readable;
  }

  /**
   * Messages to the server, after the `sent` listener saw them.
   *
   * @example Seeing a message as it is written
   * ```ts
   * import { MemoryTransport, TapTransport } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * await using tap = new TapTransport(near, { sent: (m) => console.log("→", m) });
   * await tap.start();
   * await tap.writable.getWriter().write({ jsonrpc: "2.0", id: 1, method: "ping" });
   * await far.close();
   * ```
   */
  get writable(): WritableStream<JsonRpcMessage> {
    if (!this.#writable) throw new Error("TapTransport is not started");
    return this.#writable;
  }

  /**
   * Forwards request failures of the inner transport to the session.
   *
   * @example The handler lands on the inner transport
   * ```ts
   * import { MemoryTransport, TapTransport } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * await using tap = new TapTransport(near, {});
   * tap.onRequestError = (id, error) => console.error(id, error.message);
   * console.log(tap.inner.onRequestError === tap.onRequestError); // true
   * await far.close();
   * ```
   */
  set onRequestError(handler: ((id: RequestId, error: Error) => void) | undefined) {
    this.inner.onRequestError = handler;
  }

  /**
   * The session's request-failure handler, as installed on the inner transport.
   *
   * @example The handler a session installed
   * ```ts
   * import { MemoryTransport, Session, TapTransport } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * const tap = new TapTransport(near, {});
   * console.log(tap.onRequestError); // undefined
   * await tap.start();
   * await using _session = new Session(tap);
   * console.log(typeof tap.onRequestError); // "function"
   * await far.close();
   * ```
   */
  get onRequestError(): ((id: RequestId, error: Error) => void) | undefined {
    return this.inner.onRequestError;
  }

  /**
   * Forwards diagnostics of the inner transport to the session.
   *
   * @example The handler lands on the inner transport
   * ```ts
   * import { MemoryTransport, TapTransport } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * await using tap = new TapTransport(near, {});
   * tap.onDiagnostic = (diagnostic) => console.warn(diagnostic.message);
   * console.log(tap.inner.onDiagnostic === tap.onDiagnostic); // true
   * await far.close();
   * ```
   */
  set onDiagnostic(handler: ((diagnostic: Diagnostic) => void) | undefined) {
    this.inner.onDiagnostic = handler;
  }

  /**
   * The session's diagnostics handler, as installed on the inner transport.
   *
   * @example The handler a session installed
   * ```ts
   * import { MemoryTransport, Session, TapTransport } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * const tap = new TapTransport(near, {});
   * await tap.start();
   * await using _session = new Session(tap, { onDiagnostic: console.warn });
   * console.log(typeof tap.onDiagnostic); // "function"
   * await far.close();
   * ```
   */
  get onDiagnostic(): ((diagnostic: Diagnostic) => void) | undefined {
    return this.inner.onDiagnostic;
  }

  /**
   * Starts the inner transport and the taps.
   *
   * @example The streams exist once started
   * ```ts
   * import { MemoryTransport, TapTransport } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * await using tap = new TapTransport(near, {});
   * await tap.start(); // starts `near` too
   * console.log(tap.readable.locked); // false
   * await far.close();
   * ```
   */
  async start(): Promise<void> {
    await this.inner.start();
    const notify = (
      listener: ((m: JsonRpcMessage) => void) | undefined,
      message: JsonRpcMessage,
    ) => {
      try {
        listener?.(message);
      } catch {
        // observers must not break the connection
      }
    };
    this.#readable = this.inner.readable.pipeThrough(
      new TransformStream<JsonRpcMessage, JsonRpcMessage>({
        transform: (message, controller) => {
          notify(this.#listeners.received, message);
          controller.enqueue(message);
        },
      }),
    );
    const writer = this.inner.writable.getWriter();
    this.#writable = new WritableStream<JsonRpcMessage>({
      write: (message) => {
        notify(this.#listeners.sent, message);
        return writer.write(message);
      },
    });
  }

  /**
   * Passes the negotiated revision on.
   *
   * @example An HTTP transport under the tap sends the revision as a header
   * ```ts
   * import { StreamableHttpTransport, TapTransport } from "@mcp-inspect/client";
   * const versions: (string | null)[] = [];
   * const inner = new StreamableHttpTransport({
   *   url: "http://localhost/mcp",
   *   fetch: (_url, init) => { // a fake server that answers every POST
   *     versions.push(new Headers(init?.headers).get("mcp-protocol-version"));
   *     return Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: {} }));
   *   },
   * });
   * await using tap = new TapTransport(inner, {});
   * await tap.start();
   * tap.setProtocolVersion("2025-11-25");
   * await tap.writable.getWriter().write({ jsonrpc: "2.0", id: 1, method: "ping" });
   * await tap.readable.getReader().read(); // the answer
   * console.log(versions); // ["2025-11-25"]
   * ```
   */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  /**
   * Closes the inner transport.
   *
   * @example Closing the tap closes what it wraps
   * ```ts
   * import { MemoryTransport, TapTransport } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * const tap = new TapTransport(near, {});
   * await tap.close(); // closes `near`, which ends `far` too
   * console.log((await far.readable.getReader().read()).done); // true
   * ```
   */
  close(): Promise<void> {
    return this.inner.close();
  }

  /**
   * Same as {@link close}.
   *
   * @example Closing the tap at the end of a scope
   * ```ts
   * import { MemoryTransport, TapTransport } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * {
   *   await using tap = new TapTransport(near, { sent: console.log });
   *   await tap.start();
   * } // `near` is closed here, and so `far`
   * console.log((await far.readable.getReader().read()).done); // true
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
