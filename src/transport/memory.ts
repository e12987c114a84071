/**
 * In-process transport pairs, for tests and for embedding a server in the same program.
 *
 * @module
 */

import { TransportError } from "../errors.ts";
import type { JsonRpcMessage } from "../jsonrpc.ts";
import type { Transport } from "./transport.ts";

/**
 * One end of an in-memory connection. Messages are copied through JSON on the way, exactly as
 * they would be on a wire, so neither side can observe the other's objects.
 *
 * @example
 * ```ts
 * import { MemoryTransport } from "@mcp-inspect/client";
 * const [client, server] = MemoryTransport.pair();
 * await client.start();
 * await server.start();
 * const writer = client.writable.getWriter();
 * const reader = server.readable.getReader();
 * await writer.write({ jsonrpc: "2.0", id: 1, method: "ping" });
 * console.log((await reader.read()).value);
 * reader.releaseLock();
 * writer.releaseLock();
 * await client.close();
 * await server.close();
 * ```
 */
export class MemoryTransport implements Transport {
  /** Messages from the other end. */
  readonly readable: ReadableStream<JsonRpcMessage>;
  /** Messages to the other end. */
  readonly writable: WritableStream<JsonRpcMessage>;
  readonly #incoming: ReadableStreamDefaultController<JsonRpcMessage>[] = [];
  #peer: MemoryTransport | undefined;
  #closed = false;

  private constructor() {
    this.readable = new ReadableStream<JsonRpcMessage>({
      start: (controller) => {
        this.#incoming.push(controller);
      },
    });
    this.writable = new WritableStream<JsonRpcMessage>({
      write: (message) => {
        const peer = this.#peer;
        if (this.#closed || !peer || peer.#closed) {
          throw new TransportError("Cannot write: the in-memory connection is closed");
        }
        peer.#deliver(JSON.parse(JSON.stringify(message)));
      },
    });
  }

  /**
   * Creates two connected ends.
   *
   * @example
   * ```ts
   * import { MemoryTransport } from "@mcp-inspect/client";
   * const [clientEnd, serverEnd] = MemoryTransport.pair();
   * await Promise.all([clientEnd.close(), serverEnd.close()]);
   * ```
   */
  static pair(): [MemoryTransport, MemoryTransport] {
    const a = new MemoryTransport();
    const b = new MemoryTransport();
    a.#peer = b;
    b.#peer = a;
    return [a, b];
  }

  #deliver(message: JsonRpcMessage): void {
    if (!this.#closed) this.#incoming[0]?.enqueue(message);
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#incoming[0]?.close();
    } catch {
      // already closed or errored
    }
  }

  /** Nothing to open: both ends are connected from the start. */
  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Closes both directions; the other end's readable ends. */
  close(): Promise<void> {
    this.#end();
    const peer = this.#peer;
    if (peer) peer.#end();
    return Promise.resolve();
  }

  /** Same as {@link close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
