// Our requests to the peer that await an answer: responses and progress matched to them by id,
// and their deadlines, kept by one timer for all of them, due at the earliest deadline.

import { type Diagnostic, mcpErrorFrom } from "./errors.ts";
import type { JsonObject, JsonRpcResponse, RequestId } from "./jsonrpc.ts";
import type { PendingRequest } from "./_pending.ts";

/** How many answered ids are remembered to recognise a second answer. */
const ANSWERED_KEPT = 1024;

/** A session's requests awaiting an answer, by id. */
export class Outgoing {
  readonly #pending = new Map<RequestId, PendingRequest>();
  /**
   * Recently answered ids and their methods, to tell a second answer from a stray one: a ring of
   * the last {@link ANSWERED_KEPT}, searched only for an answer that no request awaits. (A map
   * trimmed of its oldest entry cost ~0.5 µs per answer.)
   */
  readonly #answeredIds: (RequestId | undefined)[] = new Array(ANSWERED_KEPT);
  readonly #answeredMethods: (string | undefined)[] = new Array(ANSWERED_KEPT);
  #answeredCount = 0;
  readonly #diagnose: (diagnostic: Diagnostic) => void;
  /** One timer for every pending request, due at the earliest deadline. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  /** `diagnose` hears of responses that no request awaits. */
  constructor(diagnose: (diagnostic: Diagnostic) => void) {
    this.#diagnose = diagnose;
  }

  /** How many requests await an answer. */
  get size(): number {
    return this.#pending.size;
  }

  /** The request awaiting an answer under `id`, if any. */
  get(id: RequestId): PendingRequest | undefined {
    return this.#pending.get(id);
  }

  /** Starts waiting for the answer to a request, and for its deadline. */
  add(pending: PendingRequest): void {
    this.#pending.set(pending.id, pending);
    this.#arm(pending.deadline);
  }

  /** Forgets a request that has settled. */
  delete(id: RequestId): void {
    this.#pending.delete(id);
  }

  /** Settles the request a response answers; a response that none awaits is reported. */
  answer(response: JsonRpcResponse): void {
    const id = response.id;
    const pending = id === undefined || id === null ? undefined : this.#pending.get(id);
    if (!pending) {
      this.#diagnose(this.#unmatched(response));
      return;
    }
    const slot = this.#answeredCount++ % ANSWERED_KEPT;
    this.#answeredIds[slot] = pending.id;
    this.#answeredMethods[slot] = pending.method;
    if ("error" in response) {
      const { code, message, data } = response.error;
      pending.fail(mcpErrorFrom(code, message, data));
    } else {
      pending.succeed(response.result);
    }
  }

  /** What a response that no request awaits tells about the server. */
  #unmatched(response: JsonRpcResponse): Diagnostic {
    const id = response.id;
    const data = JSON.stringify(response).slice(0, 200);
    if (id === undefined || id === null) {
      // JSON-RPC: an error the server could not tie to a request (it could not read one of ours).
      const error = "error" in response ? response.error : undefined;
      return {
        kind: "unattributed-error",
        message: `The server reported an error tied to no request${
          error ? ` (${error.code}: ${error.message})` : ""
        }: it could not read something we sent`,
        data,
      };
    }
    const slot = this.#answeredIds.lastIndexOf(id);
    const method = slot === -1 ? undefined : this.#answeredMethods[slot];
    if (method !== undefined) {
      return {
        kind: "duplicate-response",
        message: `The server answered request ${JSON.stringify(id)} (${method}) a second time`,
        data,
      };
    }
    return {
      kind: "unknown-response",
      message: `The server answered request id ${
        JSON.stringify(id)
      }, which was never sent or was given up on`,
      data,
    };
  }

  /** Hands the params of `notifications/progress` to the request its token names. */
  progress(params: JsonObject): void {
    const token = params.progressToken as RequestId;
    if (typeof params.progress !== "number") return;
    this.#pending.get(token)?.progress({
      progress: params.progress,
      ...(typeof params.total === "number" ? { total: params.total } : {}),
      ...(typeof params.message === "string" ? { message: params.message } : {}),
    });
  }

  /** Drops the timer and fails every request with the reason the session ended. */
  failAll(reason: Error): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const pending of [...this.#pending.values()]) pending.fail(reason);
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
}
