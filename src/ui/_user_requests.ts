// The requests of servers that wait for the user (sampling, elicitation, roots): each is shown on
// the page until the user answers it, the server cancels it, or its server goes away.

import { McpError } from "../../mod.ts";
import { HubError } from "./_hub_error.ts";

/** A request of a server that waits for the user: sampling, elicitation or roots. */
export interface PendingRequest {
  id: string;
  server: string;
  kind: "sampling" | "elicitation" | "roots";
  params: unknown;
}

/** What the page is told: a request to show, or one to take down. */
export type UserRequestEvent =
  | { type: "request"; request: PendingRequest }
  | { type: "request-done"; id: string };

/** The requests still waiting for an answer, across every server of the page. */
export class UserRequests {
  readonly #pending = new Map<string, {
    request: PendingRequest;
    resolve: (value: unknown) => void;
    reject: (error: Error) => void;
  }>();
  /**
   * How to remove the abort listener of each request asked with a signal, called however the
   * request ends: a signal may outlive the request (a caller's for a whole session), and each
   * listener left on it would keep a request's params alive and pile up with the next ones.
   */
  readonly #unlisten = new Map<string, () => void>();
  readonly #emit: (event: UserRequestEvent) => void;
  #next = 0;

  constructor(emit: (event: UserRequestEvent) => void) {
    this.#emit = emit;
  }

  /** The requests still waiting, oldest first. */
  list(): PendingRequest[] {
    return [...this.#pending.values()].map((entry) => entry.request);
  }

  /** Shows a request to the user; resolves with the answer, or rejects when it is refused. */
  ask(
    server: string,
    kind: PendingRequest["kind"],
    params: unknown,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const id = `r${++this.#next}`;
    const request: PendingRequest = { id, server, kind, params };
    return new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, { request, resolve, reject });
      this.#emit({ type: "request", request });
      if (!signal) return;
      const onAbort = () => {
        if (!this.#take(id)) return;
        this.#emit({ type: "request-done", id });
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#unlisten.set(id, () => signal.removeEventListener("abort", onAbort));
    });
  }

  /** Takes a request out of the waiting ones, with its abort listener; undefined if gone. */
  #take(
    id: string,
  ): { resolve: (value: unknown) => void; reject: (error: Error) => void } | undefined {
    const entry = this.#pending.get(id);
    if (!entry) return undefined;
    this.#pending.delete(id);
    this.#unlisten.get(id)?.();
    this.#unlisten.delete(id);
    return entry;
  }

  /** Answers a pending request: a result, or a refusal with an error. */
  answer(id: string, answer: { result: unknown } | { error: string }): void {
    const entry = this.#take(id);
    if (!entry) throw new HubError(`No pending request "${id}" (answered, or cancelled)`, 404);
    this.#emit({ type: "request-done", id });
    if ("result" in answer) entry.resolve(answer.result);
    else entry.reject(new McpError(-1, answer.error));
  }

  /** Refuses every request of a server that disconnected. */
  drop(server: string): void {
    for (const [id, entry] of [...this.#pending]) {
      if (entry.request.server !== server) continue;
      this.#take(id);
      this.#emit({ type: "request-done", id });
      entry.reject(new Error(`Server "${server}" disconnected`));
    }
  }
}
