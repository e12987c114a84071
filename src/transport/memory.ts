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
 * @example Passing a message from one end to the other
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
  /** What serves the other end, for an end made by {@link MemoryTransport.serving}. */
  #served: Promise<void> | undefined;

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
   * @example Making and closing a pair
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

  /**
   * The client end of a pair whose other end `serve` serves at once: a server, a fake or a
   * replay in the same program, as one transport. Closing it ends the connection, then waits
   * for `serve` to return (and rejects if it failed), so that nothing of the server outlives
   * the client.
   *
   * @example A server that answers pings, until the client closes
   * ```ts
   * import { MemoryTransport } from "@mcp-inspect/client";
   * import assert from "node:assert/strict";
   *
   * let served = false;
   * const client = MemoryTransport.serving(async (server) => {
   *   await server.start();
   *   const writer = server.writable.getWriter();
   *   for await (const message of server.readable) {
   *     if ("method" in message && "id" in message && message.method === "ping") {
   *       await writer.write({ jsonrpc: "2.0", id: message.id, result: {} });
   *     }
   *   }
   *   writer.releaseLock();
   *   served = true;
   * });
   * await client.start();
   * const writer = client.writable.getWriter();
   * const reader = client.readable.getReader();
   * await writer.write({ jsonrpc: "2.0", id: 1, method: "ping" });
   * assert.deepEqual((await reader.read()).value, { jsonrpc: "2.0", id: 1, result: {} });
   * reader.releaseLock();
   * writer.releaseLock();
   * await client.close();
   * assert.equal(served, true); // close() returned after the server did
   * ```
   */
  static serving(serve: (serverEnd: MemoryTransport) => Promise<void>): MemoryTransport {
    const [client, server] = MemoryTransport.pair();
    client.#served = serve(server);
    return client;
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

  /**
   * Nothing to open: both ends are connected from the start.
   *
   * @example Starting an end, as a client does
   * ```ts
   * import { MemoryTransport } from "@mcp-inspect/client";
   * const [clientEnd, serverEnd] = MemoryTransport.pair();
   * await clientEnd.start(); // resolves at once
   * await Promise.all([clientEnd.close(), serverEnd.close()]);
   * ```
   */
  start(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Closes both directions; the other end's readable ends. An end made by
   * {@link MemoryTransport.serving} resolves once its server has returned.
   *
   * @example The other end sees the connection end
   * ```ts
   * import { MemoryTransport } from "@mcp-inspect/client";
   * const [clientEnd, serverEnd] = MemoryTransport.pair();
   * await clientEnd.close();
   * const reader = serverEnd.readable.getReader();
   * console.log((await reader.read()).done); // true
   * reader.releaseLock();
   * ```
   */
  close(): Promise<void> {
    this.#end();
    const peer = this.#peer;
    if (peer) peer.#end();
    return this.#served ?? Promise.resolve();
  }

  /**
   * Same as {@link close}.
   *
   * @example Closing an end at the end of a scope
   * ```ts
   * import { MemoryTransport } from "@mcp-inspect/client";
   * const [clientEnd, serverEnd] = MemoryTransport.pair();
   * {
   *   await using transport = clientEnd;
   *   await transport.start();
   * } // both ends are closed here
   * console.log((await serverEnd.readable.getReader().read()).done); // true
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
