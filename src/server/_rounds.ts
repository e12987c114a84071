// Multi round-trip requests on the server side (modern era, spec basic/patterns/mrtr): a call
// whose work needs the client's input answers `input_required` with the questions and a
// `requestState`; the client's retry carries the answers and the state, and the same work goes
// on. The work outlives each round, so it is kept here by state, with an expiry for clients that
// never come back.

import { McpError } from "../errors.ts";
import { ErrorCode, type JsonObject } from "../jsonrpc.ts";
import type { Progress } from "../session.ts";
import type { ServerRequestContext } from "./server.ts";

/** What the work sees: its signal, a way to ask the client, and progress for the current round. */
export interface RoundHandle {
  signal: AbortSignal;
  ask(method: string, params: JsonObject, signal: AbortSignal): Promise<JsonObject>;
  progress(progress: Progress): void;
}

interface Question {
  method: string;
  params: JsonObject;
  sent: boolean;
  answer: PromiseWithResolvers<JsonObject>;
}

type Outcome = { result: JsonObject } | { error: unknown };

class PendingWork {
  readonly state = crypto.randomUUID();
  readonly controller = new AbortController();
  readonly questions = new Map<string, Question>();
  context: ServerRequestContext;
  outcome: Outcome | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  #asked = 0;
  #wake: (() => void) | undefined;

  constructor(context: ServerRequestContext) {
    this.context = context;
  }

  readonly handle: RoundHandle = {
    signal: this.controller.signal,
    ask: (method, params, signal) => {
      signal.throwIfAborted();
      const question: Question = { method, params, sent: false, answer: Promise.withResolvers() };
      const key = `input-${++this.#asked}`;
      this.questions.set(key, question);
      signal.addEventListener("abort", () => {
        this.questions.delete(key);
        question.answer.reject(signal.reason);
      }, { once: true });
      this.#wake?.();
      return question.answer.promise;
    },
    progress: (progress) => this.context.progress(progress),
  };

  finish(outcome: Outcome): void {
    this.outcome = outcome;
    this.#wake?.();
  }

  /** Waits until the work is done or has questions not sent yet. */
  async next(): Promise<void> {
    while (!this.outcome && ![...this.questions.values()].some((q) => !q.sent)) {
      await new Promise<void>((resolve) => this.#wake = resolve);
    }
    this.#wake = undefined;
  }

  /** The client's answers to the questions sent; an unanswered one fails. */
  answer(responses: JsonObject): void {
    for (const [key, question] of this.questions) {
      if (!question.sent) continue;
      this.questions.delete(key);
      if (Object.hasOwn(responses, key)) {
        question.answer.resolve(responses[key] as JsonObject);
      } else {
        question.answer.reject(
          new McpError(ErrorCode.InvalidParams, `The client did not answer ${question.method}`),
        );
      }
    }
  }

  abort(reason: unknown): void {
    clearTimeout(this.timer);
    this.controller.abort(reason);
    for (const question of this.questions.values()) question.answer.reject(reason);
    this.questions.clear();
  }
}

/** Work in progress across rounds, by `requestState`. */
export class InputRounds {
  readonly #pending = new Map<string, PendingWork>();
  readonly #expiryMs: number;

  constructor(expiryMs: number) {
    this.#expiryMs = expiryMs;
  }

  /**
   * Answers one round of a request: starts `work` on the first, feeds the client's answers to
   * it on a retry, and returns its result or the next `input_required`.
   */
  async round(
    params: JsonObject,
    context: ServerRequestContext,
    work: (handle: RoundHandle) => Promise<JsonObject>,
  ): Promise<JsonObject> {
    let pending: PendingWork;
    if (typeof params.requestState === "string") {
      const found = this.#pending.get(params.requestState);
      if (!found) {
        throw new McpError(ErrorCode.InvalidParams, "Unknown or expired requestState");
      }
      pending = found;
      clearTimeout(pending.timer);
      pending.context = context;
      pending.answer((params.inputResponses ?? {}) as JsonObject);
    } else {
      pending = new PendingWork(context);
      this.#pending.set(pending.state, pending);
      work(pending.handle).then(
        (result) => pending.finish({ result }),
        (error) => pending.finish({ error }),
      );
    }
    const onAbort = () => this.#drop(pending, context.signal.reason);
    context.signal.addEventListener("abort", onAbort, { once: true });
    try {
      await pending.next();
    } finally {
      context.signal.removeEventListener("abort", onAbort);
    }
    context.signal.throwIfAborted();
    const outcome = pending.outcome;
    if (outcome) {
      this.#pending.delete(pending.state);
      if ("error" in outcome) throw outcome.error;
      return outcome.result;
    }
    const inputRequests: JsonObject = {};
    for (const [key, question] of pending.questions) {
      if (question.sent) continue;
      question.sent = true;
      inputRequests[key] = { method: question.method, params: question.params };
    }
    pending.timer = setTimeout(
      () => this.#drop(pending, new Error("The client never answered the input it was asked for")),
      this.#expiryMs,
    );
    return { resultType: "input_required", inputRequests, requestState: pending.state };
  }

  #drop(pending: PendingWork, reason: unknown): void {
    this.#pending.delete(pending.state);
    pending.abort(reason);
  }

  /** Ends every piece of work waiting for a client. */
  close(): void {
    for (const pending of [...this.#pending.values()]) {
      this.#drop(pending, new Error("The server closed"));
    }
  }
}
