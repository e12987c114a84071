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
  McpError,
  mcpErrorFrom,
  TransportError,
} from "./errors.ts";
import {
  ErrorCode,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from "./jsonrpc.ts";
import type { Transport } from "./transport/transport.ts";
import { PendingRequest } from "./_pending.ts";

/** The default per-request timeout: 60 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS: number = 60_000;

/** The default maximum total time of a request, whatever progress arrives: 10 minutes. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS: number = 600_000;

/**
 * A progress update for a request, from `notifications/progress`.
 *
 * @example
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
 * ```ts ignore
 * await client.callTool("build", {}, {
 *   timeoutMs: 5_000,
 *   resetTimeoutOnProgress: true,
 *   maxTotalTimeoutMs: 120_000,
 *   onProgress: (p) => console.error(p.message),
 * });
 * ```
 */
export interface RequestOptions {
  /** Aborting sends `notifications/cancelled` and rejects with {@link CancelledError}. */
  signal?: AbortSignal;
  /** Time allowed without an answer (default 60 s, or the client's setting). */
  timeoutMs?: number;
  /** Restart the `timeoutMs` clock whenever progress arrives. */
  resetTimeoutOnProgress?: boolean;
  /** A limit that progress never extends (default 10 minutes, or the client's setting). */
  maxTotalTimeoutMs?: number;
  /** Receives progress updates; asking for them adds a progress token to the request. */
  onProgress?: (progress: Progress) => void;
  /**
   * Entries added to the request's `_meta`, such as W3C trace context (`traceparent`,
   * `tracestate`). Entries the request already carries win.
   */
  meta?: JsonObject;
}

/**
 * What a handler of an incoming request knows about it.
 *
 * @example
 * ```ts ignore
 * session.setRequestHandler("roots/list", (_params, { signal }) => listRoots(signal));
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
 * @example
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
 * @example
 * ```ts
 * import type { SessionOptions } from "@mcp-inspect/client";
 * const options: SessionOptions = { requestTimeoutMs: 10_000, onDiagnostic: console.warn };
 * ```
 */
export interface SessionOptions {
  /** Default per-request timeout (60 s). */
  requestTimeoutMs?: number;
  /** Default maximum total time of a request (10 minutes). */
  maxTotalTimeoutMs?: number;
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
 * ```ts ignore
 * const transport = new StdioTransport({ command: "deno", args: ["run", "server.ts"] });
 * await transport.start();
 * await using session = new Session(transport);
 * const result = await session.request("ping", {});
 * ```
 */
export class Session implements AsyncDisposable {
  readonly #transport: Transport;
  readonly #options: SessionOptions;
  readonly #pending = new Map<RequestId, PendingRequest>();
  readonly #handlers = new Map<string, RequestHandler>();
  readonly #listeners = new Map<string, Set<(params: JsonObject) => void>>();
  readonly #incoming = new Map<RequestId, AbortController>();
  readonly #writer: WritableStreamDefaultWriter<JsonRpcMessage>;
  readonly #loop: Promise<void>;
  #nextId = 1;
  #closedReason: Error | undefined;
  #transportClosed: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  /** One timer for every pending request, due at the earliest deadline. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  /**
   * Starts reading from a transport that is already started.
   *
   * @example
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
    transport.onRequestError = (id, error) => this.#pending.get(id)?.fail(error);
    this.#writer = transport.writable.getWriter();
    this.#handlers.set("ping", () => ({}));
    this.#listeners.set("notifications/cancelled", new Set([(p) => this.#onCancelled(p)]));
    this.#listeners.set("notifications/progress", new Set([(p) => this.#onProgress(p)]));
    this.#loop = this.#read(transport.readable.getReader());
  }

  /** Why the session ended, or `undefined` while it is open. */
  get closedReason(): Error | undefined {
    return this.#closedReason;
  }

  /** How many requests await an answer. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /**
   * Sends a request and resolves with its result.
   *
   * @throws {McpError} when the peer answers with an error.
   * @throws {TimeoutError} / {@link CancelledError} / {@link ConnectionClosedError}.
   */
  request(
    method: string,
    params: JsonObject = {},
    options: RequestOptions = {},
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
    return new Promise<JsonObject>((resolve, reject) => {
      const pending = new PendingRequest(id, method, {
        timeoutMs: options.timeoutMs ?? this.#options.requestTimeoutMs ??
          DEFAULT_REQUEST_TIMEOUT_MS,
        maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? this.#options.maxTotalTimeoutMs ??
          DEFAULT_MAX_TOTAL_TIMEOUT_MS,
        resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? false,
        signal: options.signal,
        onProgress: options.onProgress,
        resolve,
        reject,
        onSettle: () => this.#pending.delete(id),
        onGiveUp: (reason) => {
          // The spec forbids cancelling initialize; for the rest, tell the server to stop work.
          if (method !== "initialize") {
            this.notify("notifications/cancelled", { requestId: id, reason }).catch(() => {});
          }
        },
      });
      this.#pending.set(id, pending);
      this.#arm(pending.deadline);
      this.#send(message).catch((error) => pending.fail(this.#asClosed(error)));
    });
  }

  /** Every message goes out one way, so that their order is kept. */
  #send(message: JsonRpcMessage): Promise<void> {
    return this.#transport.send ? this.#transport.send(message) : this.#writer.write(message);
  }

  /**
   * Makes sure the timer fires by `at`. Deadlines are mostly increasing (one default timeout), so
   * this is usually a comparison. The timer is not cleared when requests settle: it fires once
   * per timeout period at most, finds nothing, and goes away.
   */
  #arm(at: number): void {
    if (at >= this.#timerAt || at === Infinity) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#sweep(), Math.max(0, at - Date.now()));
  }

  #sweep(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const pending of [...this.#pending.values()]) {
      if (!pending.expire(now)) next = Math.min(next, pending.deadline);
    }
    this.#arm(next);
  }

  /** Sends a notification. */
  notify(method: string, params?: JsonObject): Promise<void> {
    if (this.#closedReason) return Promise.reject(this.#closedReason);
    const message: JsonRpcNotification = params === undefined
      ? { jsonrpc: "2.0", method }
      : { jsonrpc: "2.0", method, params };
    return this.#send(message).catch((error) => {
      throw this.#asClosed(error);
    });
  }

  /** Installs the handler for incoming requests of one method, replacing any other. */
  setRequestHandler(method: string, handler: RequestHandler): void {
    this.#handlers.set(method, handler);
  }

  /** Adds a listener for incoming notifications of one method; returns a function removing it. */
  onNotification(method: string, listener: (params: JsonObject) => void): () => void {
    let set = this.#listeners.get(method);
    if (!set) this.#listeners.set(method, set = new Set());
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Rejects every pending request, closes the transport and waits until all is released. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#terminate(new ConnectionClosedError("Connection closed by the client"));
      await this.#transportClosed;
      await this.#loop;
    })();
    return this.#closing;
  }

  /** Same as {@link close}. */
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
      if ("id" in message) this.#onRequest(message as JsonRpcRequest);
      else this.#emit(message.method, message.params ?? {});
      return;
    }
    this.#onResponse(message);
  }

  #onResponse(response: JsonRpcResponse): void {
    const id = response.id;
    const pending = id === undefined || id === null ? undefined : this.#pending.get(id);
    if (!pending) {
      this.#diagnose({
        kind: "unknown-response",
        message: id === undefined || id === null
          ? "Dropped an error response without an id"
          : `Dropped a response for unknown or already answered request id ${JSON.stringify(id)}`,
        data: JSON.stringify(response).slice(0, 200),
      });
      return;
    }
    if ("error" in response) {
      const { code, message, data } = response.error;
      pending.fail(mcpErrorFrom(code, message, data));
    } else {
      pending.succeed(response.result);
    }
  }

  #onRequest(request: JsonRpcRequest): void {
    const handler = this.#handlers.get(request.method);
    if (!handler) {
      this.#respond({
        jsonrpc: "2.0",
        id: request.id,
        error: { code: ErrorCode.MethodNotFound, message: `Method not found: ${request.method}` },
      });
      return;
    }
    const controller = new AbortController();
    this.#incoming.set(request.id, controller);
    const context = { id: request.id, method: request.method, signal: controller.signal };
    Promise.resolve()
      .then(() => handler(request.params ?? {}, context))
      .then(
        (result): JsonRpcResponse => ({ jsonrpc: "2.0", id: request.id, result }),
        (error): JsonRpcResponse => ({ jsonrpc: "2.0", id: request.id, error: toWire(error) }),
      )
      .then((response) => {
        this.#incoming.delete(request.id);
        // A cancelled request gets no answer (spec: basic/utilities/cancellation).
        if (!controller.signal.aborted) this.#respond(response);
      });
  }

  #respond(response: JsonRpcResponse): void {
    if (this.#closedReason) return;
    this.#send(response).catch(() => {});
  }

  #emit(method: string, params: JsonObject): void {
    const listeners = this.#listeners.get(method);
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener(params);
      } catch (error) {
        this.#diagnose({
          kind: "notification-handler-failed",
          message: `A listener for ${method} threw: ${(error as Error)?.message ?? error}`,
        });
      }
    }
  }

  #onCancelled(params: JsonObject): void {
    const id = params.requestId as RequestId;
    this.#incoming.get(id)?.abort(
      new CancelledError(String(id), typeof params.reason === "string" ? params.reason : undefined),
    );
  }

  #onProgress(params: JsonObject): void {
    const token = params.progressToken as RequestId;
    if (typeof params.progress !== "number") return;
    this.#pending.get(token)?.progress({
      progress: params.progress,
      ...(typeof params.total === "number" ? { total: params.total } : {}),
      ...(typeof params.message === "string" ? { message: params.message } : {}),
    });
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
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const pending of [...this.#pending.values()]) pending.fail(reason);
    for (const controller of this.#incoming.values()) controller.abort(reason);
    this.#incoming.clear();
    this.#writer.releaseLock();
    this.#transportClosed = this.#transport.close();
    try {
      this.#options.onClose?.(reason);
    } catch {
      // the session is closing anyway
    }
  }
}

function toWire(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof McpError) {
    return error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data };
  }
  return {
    code: ErrorCode.InternalError,
    message: error instanceof Error ? error.message : String(error),
  };
}
