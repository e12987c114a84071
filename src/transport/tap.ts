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
 * @example
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
 * ```ts ignore
 * const transport = new TapTransport(new StdioTransport({ command: "server" }), {
 *   sent: (message) => console.error("→", JSON.stringify(message)),
 *   received: (message) => console.error("←", JSON.stringify(message)),
 * });
 * await using client = await Client.connect(transport);
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
   * @example
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

  /** Messages from the server, after the `received` listener saw them. */
  get readable(): ReadableStream<JsonRpcMessage> {
    if (!this.#readable) throw new Error("TapTransport is not started");
    return this.#readable;
  }

  /** Messages to the server, after the `sent` listener saw them. */
  get writable(): WritableStream<JsonRpcMessage> {
    if (!this.#writable) throw new Error("TapTransport is not started");
    return this.#writable;
  }

  /** Forwards request failures of the inner transport to the session. */
  set onRequestError(handler: ((id: RequestId, error: Error) => void) | undefined) {
    this.inner.onRequestError = handler;
  }

  /** The session's request-failure handler, as installed on the inner transport. */
  get onRequestError(): ((id: RequestId, error: Error) => void) | undefined {
    return this.inner.onRequestError;
  }

  /** Forwards diagnostics of the inner transport to the session. */
  set onDiagnostic(handler: ((diagnostic: Diagnostic) => void) | undefined) {
    this.inner.onDiagnostic = handler;
  }

  /** The session's diagnostics handler, as installed on the inner transport. */
  get onDiagnostic(): ((diagnostic: Diagnostic) => void) | undefined {
    return this.inner.onDiagnostic;
  }

  /** Starts the inner transport and the taps. */
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

  /** Passes the negotiated revision on. */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  /** Closes the inner transport. */
  close(): Promise<void> {
    return this.inner.close();
  }

  /** Same as {@link close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
