// The peer's side of a session: its requests, each answered by the handler of its method unless
// the peer cancels it first, and its notifications, handed to the listeners of their method.
// A handler that throws answers with an error; a listener that throws is reported and skipped.

import { CancelledError, type Diagnostic, McpError } from "./errors.ts";
import {
  ErrorCode,
  type JsonObject,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from "./jsonrpc.ts";
import type { RequestHandler } from "./session.ts";

/** What the peer's side needs of its session. */
export interface IncomingHooks {
  /** Sends an answer; the session drops it once closed. */
  respond(response: JsonRpcResponse): void;
  /** Reports a non-fatal oddity. */
  diagnose(diagnostic: Diagnostic): void;
}

/** A session's handlers and listeners, and the peer's requests being handled. */
export class Incoming {
  readonly #hooks: IncomingHooks;
  readonly #handlers = new Map<string, RequestHandler>();
  readonly #listeners = new Map<string, Set<(params: JsonObject) => void>>();
  readonly #inFlight = new Map<RequestId, AbortController>();

  /** Answers `ping` and follows `notifications/cancelled` from the start. */
  constructor(hooks: IncomingHooks) {
    this.#hooks = hooks;
    this.#handlers.set("ping", () => ({}));
    this.#listeners.set("notifications/cancelled", new Set([(p) => this.#onCancelled(p)]));
  }

  /** Installs the handler for incoming requests of one method, replacing any other. */
  setHandler(method: string, handler: RequestHandler): void {
    this.#handlers.set(method, handler);
  }

  /** Adds a listener for incoming notifications of one method; returns a function removing it. */
  listen(method: string, listener: (params: JsonObject) => void): () => void {
    let set = this.#listeners.get(method);
    if (!set) this.#listeners.set(method, set = new Set());
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Answers a request of the peer with the handler of its method, or MethodNotFound. */
  handle(request: JsonRpcRequest): void {
    const handler = this.#handlers.get(request.method);
    if (!handler) {
      this.#hooks.respond({
        jsonrpc: "2.0",
        id: request.id,
        error: { code: ErrorCode.MethodNotFound, message: `Method not found: ${request.method}` },
      });
      return;
    }
    const controller = new AbortController();
    this.#inFlight.set(request.id, controller);
    const context = { id: request.id, method: request.method, signal: controller.signal };
    Promise.resolve()
      .then(() => handler(request.params ?? {}, context))
      .then(
        (result): JsonRpcResponse => ({ jsonrpc: "2.0", id: request.id, result }),
        (error): JsonRpcResponse => ({ jsonrpc: "2.0", id: request.id, error: toWire(error) }),
      )
      .then((response) => {
        this.#inFlight.delete(request.id);
        // A cancelled request gets no answer (spec: basic/utilities/cancellation).
        if (!controller.signal.aborted) this.#hooks.respond(response);
      });
  }

  /** Hands a notification of the peer to the listeners of its method. */
  deliver(method: string, params: JsonObject): void {
    const listeners = this.#listeners.get(method);
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener(params);
      } catch (error) {
        this.#hooks.diagnose({
          kind: "notification-handler-failed",
          message: `A listener for ${method} threw: ${(error as Error)?.message ?? error}`,
        });
      }
    }
  }

  /** Aborts every request being handled, with the reason the session ended. */
  abortAll(reason: Error): void {
    for (const controller of this.#inFlight.values()) controller.abort(reason);
    this.#inFlight.clear();
  }

  #onCancelled(params: JsonObject): void {
    const id = params.requestId as RequestId;
    this.#inFlight.get(id)?.abort(
      new CancelledError(String(id), typeof params.reason === "string" ? params.reason : undefined),
    );
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
