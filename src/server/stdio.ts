/**
 * The server side of stdio: newline-delimited JSON-RPC on this process's stdin and stdout.
 *
 * @module
 */

import type { Diagnostic } from "../errors.ts";
import type { JsonRpcMessage } from "../jsonrpc.ts";
import { encodeLine, jsonRpcLines } from "../transport/framing.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../transport/stdio.ts";
import type { Transport } from "../transport/transport.ts";

/**
 * Options of {@link StdioServerTransport}.
 *
 * @example Logging the lines that are not JSON-RPC
 * ```ts
 * import type { StdioServerTransportOptions } from "@mcp-inspect/client/server";
 * const options: StdioServerTransportOptions = { onDiagnostic: (d) => console.error(d.message) };
 * ```
 */
export interface StdioServerTransportOptions {
  /** Where messages come from (default: `Deno.stdin.readable`). */
  stdin?: ReadableStream<Uint8Array>;
  /** Where messages go (default: `Deno.stdout.writable`). */
  stdout?: WritableStream<Uint8Array>;
  /** The largest message accepted, in bytes (default 10 MiB). */
  maxMessageBytes?: number;
  /** Receives lines that are not JSON-RPC messages. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/**
 * The transport of a server run as a child process: it reads its client's messages from stdin
 * and writes its own to stdout, one JSON document per line. Logs belong on stderr.
 *
 * @example Serving a server over stdio
 * ```ts ignore
 * import { McpServer, StdioServerTransport } from "@mcp-inspect/client/server";
 * await new McpServer(definition).serve(new StdioServerTransport());
 * ```
 */
export class StdioServerTransport implements Transport {
  /** Set by the session; see {@link Transport.onMessage}. */
  onMessage: ((message: JsonRpcMessage) => void) | undefined;
  readonly #options: StdioServerTransportOptions;
  #readable: ReadableStream<JsonRpcMessage> | undefined;
  #writable: WritableStream<JsonRpcMessage> | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Prepares the transport; nothing is read until {@link start}.
   *
   * @example A transport over in-memory streams
   * ```ts
   * import { StdioServerTransport } from "@mcp-inspect/client/server";
   * const transport = new StdioServerTransport({
   *   stdin: new ReadableStream({ start: (c) => c.close() }),
   *   stdout: new WritableStream(),
   * });
   * ```
   */
  constructor(options: StdioServerTransportOptions = {}) {
    this.#options = options;
  }

  /**
   * Messages from the client.
   *
   * @example Reading a client's line from a stream
   * ```ts
   * import { StdioServerTransport } from "@mcp-inspect/client/server";
   * const line = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
   * const transport = new StdioServerTransport({
   *   stdin: ReadableStream.from([line]),
   *   stdout: new WritableStream(),
   * });
   * await transport.start();
   * for await (const message of transport.readable) console.log(message); // the ping request
   * await transport.close();
   * ```
   */
  get readable(): ReadableStream<JsonRpcMessage> {
    if (!this.#readable) throw new Error("StdioServerTransport: call start() first");
    return this.#readable;
  }

  /**
   * Messages to the client.
   *
   * @example Writing a notification as one line
   * ```ts
   * import { StdioServerTransport } from "@mcp-inspect/client/server";
   * const print = (bytes: Uint8Array) => console.log(new TextDecoder().decode(bytes));
   * const transport = new StdioServerTransport({
   *   stdin: ReadableStream.from([]),
   *   stdout: new WritableStream({ write: print }),
   * });
   * await transport.start();
   * const writer = transport.writable.getWriter();
   * await writer.write({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
   * writer.releaseLock();
   * await transport.close();
   * ```
   */
  get writable(): WritableStream<JsonRpcMessage> {
    if (!this.#writable) throw new Error("StdioServerTransport: call start() first");
    return this.#writable;
  }

  /**
   * Starts reading stdin.
   *
   * @example The streams exist once it has started
   * ```ts
   * import { StdioServerTransport } from "@mcp-inspect/client/server";
   * const transport = new StdioServerTransport({
   *   stdin: ReadableStream.from([]),
   *   stdout: new WritableStream(),
   * });
   * await transport.start();
   * console.log(transport.readable instanceof ReadableStream); // true
   * await transport.close();
   * ```
   */
  start(): Promise<void> {
    if (this.#readable) return Promise.resolve();
    const stdin = this.#options.stdin ?? Deno.stdin.readable;
    this.#readable = jsonRpcLines(
      stdin,
      this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      (diagnostic) => this.#options.onDiagnostic?.(diagnostic),
      { onMessage: () => this.onMessage },
    );
    const out = (this.#options.stdout ?? Deno.stdout.writable).getWriter();
    this.#writable = new WritableStream<JsonRpcMessage>({
      write: (message) => out.write(encodeLine(message)),
      close: () => out.close(),
      abort: (reason) => out.abort(reason),
    });
    return Promise.resolve();
  }

  /**
   * Closes stdout; stdin ends when the client closes it.
   *
   * @example Closing stdout, twice with no harm
   * ```ts
   * import { StdioServerTransport } from "@mcp-inspect/client/server";
   * const transport = new StdioServerTransport({
   *   stdin: ReadableStream.from([]),
   *   stdout: new WritableStream({ close: () => console.log("stdout closed") }),
   * });
   * await transport.start();
   * await transport.close(); // stdout closed
   * await transport.close(); // nothing more
   * ```
   */
  close(): Promise<void> {
    this.#closing ??= this.#writable?.close().catch(() => {}) ?? Promise.resolve();
    return this.#closing;
  }

  /**
   * Same as {@link close}.
   *
   * @example Closing stdout at the end of a scope
   * ```ts
   * import { StdioServerTransport } from "@mcp-inspect/client/server";
   * await using transport = new StdioServerTransport({
   *   stdin: ReadableStream.from([]),
   *   stdout: new WritableStream(),
   * });
   * await transport.start();
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
