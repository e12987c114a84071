/**
 * The contract every transport fulfils.
 *
 * @module
 */

import type { Diagnostic } from "../errors.ts";
import type { JsonRpcMessage, RequestId } from "../jsonrpc.ts";

/**
 * A transport is a pair of web streams of JSON-RPC messages plus `close()`.
 *
 * The readable side closes when the peer ends the connection cleanly and errors (typically with a
 * {@link ConnectionClosedError} or {@link ProtocolError}) when the connection fails. The writable
 * side rejects writes once the connection is gone. `close()` is idempotent and releases every
 * resource the transport holds (processes, sockets, timers).
 *
 * @example A transport that echoes back what is written
 * ```ts
 * import type { JsonRpcMessage, Transport } from "@mcp-inspect/client";
 * const { readable, writable } = new TransformStream<JsonRpcMessage, JsonRpcMessage>();
 * const echo: Transport = {
 *   readable,
 *   writable,
 *   start: () => Promise.resolve(),
 *   close: () => writable.close().catch(() => {}),
 *   [Symbol.asyncDispose]() {
 *     return this.close();
 *   },
 * };
 * await echo.close();
 * ```
 */
export interface Transport extends AsyncDisposable {
  /** Messages from the peer. */
  readonly readable: ReadableStream<JsonRpcMessage>;
  /** Messages to the peer. */
  readonly writable: WritableStream<JsonRpcMessage>;
  /**
   * Opens the connection (spawns the process, opens the socket). Called once by the client
   * before it reads or writes; calling it again is a no-op.
   */
  start(): Promise<void>;
  /** Closes the connection and releases everything it holds. Idempotent. */
  close(): Promise<void>;
  /**
   * Sends one message, like writing it to {@link writable} but without a stream hop per message,
   * so the transport may coalesce messages sent together into one write. Resolves once the
   * message is handed to the OS; rejects like a write would. Optional: the session falls back to
   * `writable`.
   */
  send?(message: JsonRpcMessage): Promise<void>;
  /**
   * Tells the transport which protocol revision was negotiated. HTTP transports send it as a
   * header; stream transports ignore it.
   */
  setProtocolVersion?(version: string): void;
  /**
   * Set by the session before it writes anything. A transport whose sends can fail for one
   * request alone (an HTTP error status answering its POST) reports that here, so the request
   * fails with that error while the connection stays up.
   */
  onRequestError?: ((id: RequestId, error: Error) => void) | undefined;
  /**
   * Set by a reader that takes messages as they come (the session does), before it reads. A
   * transport that supports it hands each message here instead of queueing it on
   * {@link readable}, whenever nothing queued there waits before it: a
   * stream turn less per message. `readable` still ends, or errors, with the connection.
   * Optional on both sides: a transport that ignores it queues everything on `readable`.
   */
  onMessage?: ((message: JsonRpcMessage) => void) | undefined;
  /**
   * Set by the session before it reads anything. A transport reports here what it skipped (a
   * line that is not JSON, a malformed message), besides its own `onDiagnostic` option; the
   * session fails at once a pending request that a malformed answer names.
   */
  onDiagnostic?: ((diagnostic: Diagnostic) => void) | undefined;
}
