/**
 * The JSON-RPC session over a transport: request ids, pending requests, timeouts, cancellation,
 * progress, and dispatch of the peer's requests and notifications. It knows nothing of MCP
 * methods beyond `ping`, `notifications/cancelled` and `notifications/progress`.
 *
 * @module
 */

import {
  CancelledError,
  ConnectionClosedError,
  type Diagnostic,
  ProtocolError,
  TransportError,
} from "./errors.ts";
import type {
  JsonObject,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from "./jsonrpc.ts";
import type { Transport } from "./transport/transport.ts";
import { Incoming } from "./_incoming.ts";
import { Outgoing } from "./_outgoing.ts";
import { type PendingOwner, PendingRequest } from "./_pending.ts";

/**
 * The default per-request timeout: 60 s.
 *
 * @example Allowing a slow server twice the default
 * ```ts
 * import { DEFAULT_REQUEST_TIMEOUT_MS, type SessionOptions } from "@mcp-inspect/client";
 * const options: SessionOptions = { requestTimeoutMs: 2 * DEFAULT_REQUEST_TIMEOUT_MS };
 * console.log(options.requestTimeoutMs); // 120000
 * ```
 */
export const DEFAULT_REQUEST_TIMEOUT_MS: number = 60_000;

/**
 * The default maximum total time of a request, whatever progress arrives: 10 minutes.
 *
 * @example Capping a request that reports progress at half the default
 * ```ts
 * import { DEFAULT_MAX_TOTAL_TIMEOUT_MS, type RequestOptions } from "@mcp-inspect/client";
 * const options: RequestOptions = {
 *   resetTimeoutOnProgress: true,
 *   maxTotalTimeoutMs: DEFAULT_MAX_TOTAL_TIMEOUT_MS / 2, // 5 minutes
 * };
 * ```
 */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS: number = 600_000;

/** The options of a request that passes none: shared, never written to (see request()). */
const NO_OPTIONS: RequestOptions = {};

/**
 * A progress update for a request, from `notifications/progress`.
 *
 * @example Printing progress as it arrives
 * ```ts
 * import type { Progress } from "@mcp-inspect/client";
 * const onProgress = (p: Progress) => console.log(`${p.progress}/${p.total ?? "?"} ${p.message ?? ""}`);
 * onProgress({ progress: 1, total: 4 });
 * ```
 */
export interface Progress {
  /** How far along, increasing with each update. */
  progress: number;
  /** The total, if known. */
  total?: number;
  /** A human-readable description of the current step. */
  message?: string;
}

/**
 * Per-request options: cancellation, timeouts and progress.
 *
 * @example Cancel a call after 5 s of silence, but allow progress to keep it alive
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({
 *   tools: [{
 *     name: "build",
 *     handler: (_args, { progress }) => {
 *       progress({ progress: 1, total: 2, message: "Compiling" });
 *       return "Built";
 *     },
 *   }],
 * });
 * await using client = await Client.connect(fake.transport());
 * await client.callTool("build", {}, {
 *   timeoutMs: 5_000,
 *   resetTimeoutOnProgress: true,
 *   maxTotalTimeoutMs: 120_000,
 *   onProgress: (p) => console.error(p.message), // "Compiling"
 * });
 * ```
 */
export interface RequestOptions {
  /** Aborting sends `notifications/cancelled` and rejects with {@link CancelledError}. */
  signal?: AbortSignal | undefined;
  /** Time allowed without an answer (default 60 s, or the client's setting). */
  timeoutMs?: number | undefined;
  /** Restart the `timeoutMs` clock whenever progress arrives. */
  resetTimeoutOnProgress?: boolean;
  /** A limit that progress never extends (default 10 minutes, or the client's setting). */
  maxTotalTimeoutMs?: number | undefined;
  /** Receives progress updates; asking for them adds a progress token to the request. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /**
   * Entries added to the request's `_meta`, such as W3C trace context (`traceparent`,
   * `tracestate`). Entries the request already carries win.
   */
  meta?: JsonObject | undefined;
}

/**
 * What a handler of an incoming request knows about it.
 *
 * @example Passing the request's signal on to the work it starts
 * ```ts
 * import { MemoryTransport, Session } from "@mcp-inspect/client";
 * const [here, there] = MemoryTransport.pair();
 * await Promise.all([here.start(), there.start()]);
 * await using session = new Session(here);
 * await using peer = new Session(there);
 * const listRoots = (signal: AbortSignal) => ({ roots: [], stopped: signal.aborted });
 * session.setRequestHandler("roots/list", (_params, { signal }) => listRoots(signal));
 * console.log(await peer.request("roots/list", {})); // { roots: [], stopped: false }
 * ```
 */
export interface IncomingRequestContext {
  /** The request's id. */
  id: RequestId;
  /** The request's method. */
  method: string;
  /** Aborted when the peer cancels the request or the session closes. */
  signal: AbortSignal;
}

/**
 * Answers one kind of incoming request. Throw {@link McpError} to answer with an error code.
 *
 * @example A handler that answers `roots/list` with no roots
 * ```ts
 * import type { RequestHandler } from "@mcp-inspect/client";
 * const handler: RequestHandler = () => ({ roots: [] });
 * ```
 */
export type RequestHandler = (
  params: JsonObject,
  context: IncomingRequestContext,
) => JsonObject | Promise<JsonObject>;

/**
 * Options of {@link Session}.
 *
 * @example A shorter timeout and a diagnostics sink
 * ```ts
 * import type { SessionOptions } from "@mcp-inspect/client";
 * const options: SessionOptions = { requestTimeoutMs: 10_000, onDiagnostic: console.warn };
 * ```
 */
export interface SessionOptions {
  /** Default per-request timeout (60 s). */
  requestTimeoutMs?: number | undefined;
  /** Default maximum total time of a request (10 minutes). */
  maxTotalTimeoutMs?: number | undefined;
  /** Receives non-fatal oddities, such as responses with unknown ids. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** Called once when the session ends, with the reason. */
  onClose?: (reason: Error) => void;
}

/**
 * A JSON-RPC session over a {@link Transport}. {@link Client} builds MCP on top of it; use it
 * directly to speak raw JSON-RPC.
 *
 * @example Sending a raw request
 * ```ts
 * import { Session } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const transport = new FakeServer().transport();
 * await transport.start();
 * await using session = new Session(transport);
 * const result = await session.request("ping", {});
 * console.log(result); // {}
 * ```
 */
export class Session implements AsyncDisposable {
  readonly #transport: Transport;
  readonly #options: SessionOptions;
  /** Our requests awaiting an answer, with their one deadline timer. */
  readonly #outgoing = new Outgoing((diagnostic) => this.#diagnose(diagnostic));
  /** The peer's side: its requests and notifications. */
  readonly #incoming: Incoming;
  readonly #writer: WritableStreamDefaultWriter<JsonRpcMessage>;
  readonly #loop: Promise<void>;
  /** The defaults and callbacks every request shares. */
  readonly #owner: PendingOwner;
  #nextId = 1;
  /** What the transport's last send returned, and the requests sent with it (see #watch). */
  #lastSent: Promise<void> | undefined;
  #sentWith: PendingRequest[] = [];
  /**
   * The last write that went through: a transport that answers every send with one settled
   * promise (Streamable HTTP) returns it again, and a promise that resolved cannot reject later,
   * so a request sent with it needs no watch.
   */
  #sentOk: Promise<void> | undefined;
  #closedReason: Error | undefined;
  #transportClosed: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Starts reading from a transport that is already started.
   *
   * @example Two sessions over an in-memory pair
   * ```ts
   * import { MemoryTransport, Session } from "@mcp-inspect/client";
   * const [a, b] = MemoryTransport.pair();
   * const left = new Session(a);
   * const right = new Session(b);
   * console.log(await left.request("ping", {})); // {}
   * await left.close();
   * await right.close();
   * ```
   */
  constructor(transport: Transport, options: SessionOptions = {}) {
    this.#transport = transport;
    this.#options = options;
    this.#owner = {
      timeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS,
      settled: (pending) => this.#outgoing.delete(pending.id),
      gaveUp: (pending, reason) => {
        // The spec forbids cancelling initialize; for the rest, tell the server to stop work.
        if (pending.method !== "initialize") {
          this.notify("notifications/cancelled", { requestId: pending.id, reason }).catch(() => {});
        }
      },
    };
    transport.onRequestError = (id, error) => this.#outgoing.get(id)?.fail(error);
    transport.onDiagnostic = (diagnostic) => this.#transportDiagnostic(diagnostic);
    this.#writer = transport.writable.getWriter();
    this.#incoming = new Incoming({
      respond: (response) => this.#respond(response),
      diagnose: (diagnostic) => this.#diagnose(diagnostic),
    });
    this.#incoming.listen("notifications/progress", (p) => this.#outgoing.progress(p));
    // Messages come straight from a transport that can hand them over, else through readable.
    transport.onMessage = (message) => this.#dispatch(message);
    this.#loop = this.#read(transport.readable.getReader());
  }

  /**
   * Why the session ended, or `undefined` while it is open.
   *
   * @example The reason after the session was closed
   * ```ts
   * import { MemoryTransport, Session } from "@mcp-inspect/client";
   * const [near] = MemoryTransport.pair();
   * const session = new Session(near);
   * console.log(session.closedReason); // undefined
   * await session.close();
   * console.log(session.closedReason?.message); // "Connection closed by the client"
   * ```
   */
  get closedReason(): Error | undefined {
    return this.#closedReason;
  }

  /**
   * How many requests await an answer.
   *
   * @example A request nobody answers stays pending
   * ```ts
   * import { MemoryTransport, Session } from "@mcp-inspect/client";
   * const [near] = MemoryTransport.pair(); // nothing answers on the other end
   * const session = new Session(near);
   * const call = session.request("tools/list").catch(() => {});
   * console.log(session.pendingCount); // 1
   * await session.close(); // rejects what is pending
   * await call;
   * console.log(session.pendingCount); // 0
   * ```
   */
  get pendingCount(): number {
    return this.#outgoing.size;
  }

  /**
   * Sends a request and resolves with its result.
   *
   * @throws {McpError} when the peer answers with an error.
   * @throws {TimeoutError} / {@link CancelledError} / {@link ConnectionClosedError}.
   *
   * @example Calling a method the peer handles
   * ```ts
   * import { MemoryTransport, Session } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * await using peer = new Session(far);
   * peer.setRequestHandler("echo", (params) => params);
   * await using session = new Session(near);
   * console.log(await session.request("echo", { text: "hi" })); // { text: "hi" }
   * ```
   *
   * @example Giving up on a request nobody answers
   * ```ts
   * import { MemoryTransport, Session, TimeoutError } from "@mcp-inspect/client";
   * const [near] = MemoryTransport.pair(); // nothing answers on the other end
   * await using session = new Session(near);
   * const error = await session.request("tools/list", {}, { timeoutMs: 10 }).catch((e) => e);
   * console.log(error instanceof TimeoutError); // true
   * ```
   */
  request(
    method: string,
    params: JsonObject = {},
    options: RequestOptions = NO_OPTIONS,
  ): Promise<JsonObject> {
    if (this.#closedReason) return Promise.reject(this.#closedReason);
    if (options.signal?.aborted) {
      return Promise.reject(new CancelledError(method, options.signal.reason));
    }
    const id = this.#nextId++;
    const message: JsonRpcRequest = { jsonrpc: "2.0", id, method, params };
    if (options.onProgress || options.meta) {
      const meta: JsonObject = { ...options.meta, ...(params._meta as JsonObject | undefined) };
      if (options.onProgress) meta.progressToken = id;
      message.params = { ...params, _meta: meta };
    }
    const pending = new PendingRequest(id, method, options, this.#owner);
    this.#outgoing.add(pending);
    const sent = this.#send(message);
    if (sent !== this.#sentOk) {
      if (sent !== this.#lastSent) this.#watch(sent);
      this.#sentWith.push(pending);
    }
    return pending.promise;
  }

  /**
   * Fails the requests that went out with `sent` if it rejects. A transport that joins the
   * messages written meanwhile into one write (stdio) returns one promise for all of them, so
   * one handler per write replaces a closure and a promise per request: in a burst of thousands
   * of calls they all lived until the write completed, and their collection showed in profiles.
   */
  #watch(sent: Promise<void>): void {
    const members: PendingRequest[] = [];
    this.#lastSent = sent;
    this.#sentWith = members;
    const done = () => {
      if (this.#lastSent !== sent) return;
      this.#lastSent = undefined;
      this.#sentWith = [];
    };
    sent.then(() => {
      this.#sentOk = sent;
      done();
    }, (error) => {
      done();
      const reason = this.#asClosed(error);
      for (const pending of members) pending.fail(reason);
    });
  }

  /** Every message goes out one way, so that their order is kept. */
  #send(message: JsonRpcMessage): Promise<void> {
    return this.#transport.send ? this.#transport.send(message) : this.#writer.write(message);
  }

  /**
   * Sends a notification.
   *
   * @example Telling the peer something, expecting no answer
   * ```ts
   * import { MemoryTransport, Session } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * await using peer = new Session(far);
   * const heard = new Promise((resolve) => peer.onNotification("notifications/hello", resolve));
   * await using session = new Session(near);
   * await session.notify("notifications/hello", { from: "near" });
   * console.log(await heard); // { from: "near" }
   * ```
   */
  notify(method: string, params?: JsonObject): Promise<void> {
    if (this.#closedReason) return Promise.reject(this.#closedReason);
    const message: JsonRpcNotification = params === undefined
      ? { jsonrpc: "2.0", method }
      : { jsonrpc: "2.0", method, params };
    return this.#send(message).catch((error) => {
      throw this.#asClosed(error);
    });
  }

  /**
   * Installs the handler for incoming requests of one method, replacing any other.
   *
   * @example Answering the peer's `roots/list`
   * ```ts
   * import { MemoryTransport, Session } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * await using session = new Session(near);
   * session.setRequestHandler("roots/list", () => ({ roots: [{ uri: "file:///tmp" }] }));
   * await using peer = new Session(far);
   * console.log(await peer.request("roots/list")); // { roots: [ { uri: "file:///tmp" } ] }
   * ```
   */
  setRequestHandler(method: string, handler: RequestHandler): void {
    this.#incoming.setHandler(method, handler);
  }

  /**
   * Adds a listener for incoming notifications of one method; returns a function removing it.
   *
   * @example Listening to the peer's log messages, then stopping
   * ```ts
   * import { MemoryTransport, Session } from "@mcp-inspect/client";
   * const [near, far] = MemoryTransport.pair();
   * await using session = new Session(near);
   * const off = session.onNotification("notifications/message", (p) => console.log(p.data));
   * await using peer = new Session(far);
   * await peer.notify("notifications/message", { level: "info", data: "hello" });
   * await peer.request("ping"); // answered in order, so the notification was handled first
   * off();
   * ```
   */
  onNotification(method: string, listener: (params: JsonObject) => void): () => void {
    return this.#incoming.listen(method, listener);
  }

  /**
   * Rejects every pending request, closes the transport and waits until all is released.
   *
   * @example A pending request fails when the session closes
   * ```ts
   * import { MemoryTransport, Session } from "@mcp-inspect/client";
   * const [near] = MemoryTransport.pair(); // nothing answers on the other end
   * const session = new Session(near);
   * const failed = session.request("tools/list").catch((error: Error) => error.message);
   * await session.close();
   * console.log(await failed); // "Connection closed by the client"
   * ```
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#terminate(new ConnectionClosedError("Connection closed by the client"));
      await this.#transportClosed;
      await this.#loop;
    })();
    return this.#closing;
  }

  /**
   * Same as {@link close}.
   *
   * @example Closing the session at the end of a scope
   * ```ts
   * import { MemoryTransport, Session } from "@mcp-inspect/client";
   * const [near] = MemoryTransport.pair();
   * {
   *   await using session = new Session(near);
   *   await session.notify("notifications/initialized");
   * } // the session and its transport are closed here
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #read(reader: ReadableStreamDefaultReader<JsonRpcMessage>): Promise<void> {
    let reason: Error = new ConnectionClosedError("Server closed the connection");
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        this.#dispatch(value);
      }
    } catch (error) {
      reason = error instanceof ConnectionClosedError ? error : new ConnectionClosedError(
        `Connection failed: ${error instanceof Error ? error.message : String(error)}`,
        {},
        { cause: error },
      );
    } finally {
      reader.releaseLock();
    }
    this.#terminate(reason);
  }

  #dispatch(message: JsonRpcMessage): void {
    if ("method" in message) {
      if ("id" in message) this.#incoming.handle(message as JsonRpcRequest);
      else this.#incoming.deliver(message.method, message.params ?? {});
      return;
    }
    this.#outgoing.answer(message);
  }

  /** A malformed answer to a pending request fails it now rather than at its timeout. */
  #transportDiagnostic(diagnostic: Diagnostic): void {
    const pending = diagnostic.id === undefined ? undefined : this.#outgoing.get(diagnostic.id);
    if (pending) {
      pending.fail(
        new ProtocolError(
          `The server's answer to ${pending.method} (id ${
            JSON.stringify(pending.id)
          }) is invalid: ${
            diagnostic.message.replace(/^Skipped an invalid message from the server: /, "")
          }`,
        ),
      );
    }
    this.#diagnose(diagnostic);
  }

  #respond(response: JsonRpcResponse): void {
    if (this.#closedReason) return;
    this.#send(response).catch(() => {});
  }

  #diagnose(diagnostic: Diagnostic): void {
    try {
      this.#options.onDiagnostic?.(diagnostic);
    } catch {
      // a faulty diagnostics sink must not break the session
    }
  }

  #asClosed(error: unknown): Error {
    if (this.#closedReason) return this.#closedReason;
    if (error instanceof TransportError) return error;
    return new ConnectionClosedError(`Cannot send: ${(error as Error)?.message ?? error}`, {}, {
      cause: error,
    });
  }

  #terminate(reason: Error): void {
    if (this.#closedReason) return;
    this.#closedReason = reason;
    this.#transport.onMessage = undefined;
    this.#outgoing.failAll(reason);
    this.#incoming.abortAll(reason);
    this.#writer.releaseLock();
    this.#transportClosed = this.#transport.close();
    try {
      this.#options.onClose?.(reason);
    } catch {
      // the session is closing anyway
    }
  }
}
