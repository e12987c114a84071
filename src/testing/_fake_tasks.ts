// The tasks of a FakeServer (revision 2025-11-25): a task-augmented tools/call of a tool that
// supports tasks starts one, run in the background; tasks/get, tasks/result, tasks/list and
// tasks/cancel act on the tasks started so far.

import { McpError } from "../mcp_error.ts";
import { ErrorCode, type JsonObject } from "../jsonrpc.ts";

/** `_meta` key tying a result to the task it came from. */
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** How often a client should poll: short, since a fake's tasks run in tests. */
const POLL_INTERVAL_MS = 10;

interface Entry {
  /** The task as tasks/get shows it; updated in place as it runs. */
  task: JsonObject;
  /** Settles when the task does: its result, or the error it failed or was cancelled with. */
  result: Promise<JsonObject>;
  abort: AbortController;
}

/** What tasks/result answers for a cancelled task, whatever its work still does. */
function cancelledError(task: JsonObject): McpError {
  return new McpError(ErrorCode.InvalidParams, `Task ${task.taskId} was cancelled`);
}

/** Whether a task is over: it can be neither cancelled nor change again. */
function terminal(task: JsonObject): boolean {
  return task.status === "completed" || task.status === "failed" || task.status === "cancelled";
}

/** The tasks of one fake server. */
export class FakeTasks {
  readonly #entries = new Map<string, Entry>();

  /**
   * Starts a task for a task-augmented call (its `task` may name a `ttl`): `run` does the work,
   * with a signal that tasks/cancel aborts. Returns the `{ task }` that answers the call.
   */
  start(request: JsonObject, run: (signal: AbortSignal) => Promise<JsonObject>): JsonObject {
    const now = new Date().toISOString();
    const ttl = (request.task as JsonObject | undefined)?.ttl;
    const task: JsonObject = {
      taskId: `task-${this.#entries.size + 1}`,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttl: typeof ttl === "number" ? ttl : 60_000,
      pollInterval: POLL_INTERVAL_MS,
    };
    const abort = new AbortController();
    const cancelled = new Promise<never>((_resolve, reject) =>
      abort.signal.addEventListener("abort", () => reject(cancelledError(task)), { once: true })
    );
    const settle = (status: string, fields: JsonObject = {}) => {
      if (terminal(task)) return;
      Object.assign(task, { status, lastUpdatedAt: new Date().toISOString() }, fields);
    };
    const work = Promise.resolve().then(() => run(abort.signal)).then(
      (value) => {
        settle("completed");
        return value;
      },
      (error) => {
        const failure = error instanceof McpError
          ? error
          : new McpError(ErrorCode.InternalError, (error as Error)?.message ?? String(error));
        const wire: JsonObject = { code: failure.code, message: failure.message };
        if (failure.data !== undefined) wire.data = failure.data as JsonObject;
        settle("failed", { statusMessage: failure.message, error: wire });
        throw failure;
      },
    );
    // Cancelled, the task is over at once, however long its work takes to stop.
    const result = Promise.race([work, cancelled]);
    result.catch(() => {}); // read by tasks/result, if ever asked
    this.#entries.set(String(task.taskId), { task, result, abort });
    return { task: { ...task } };
  }

  /** The handlers of tasks/get, tasks/result, tasks/list and tasks/cancel. */
  handlers(): Record<string, (params: JsonObject) => Promise<JsonObject>> {
    return {
      "tasks/get": (params) => Promise.resolve({ ...this.#entry(params).task }),
      // Blocks until the task is over, then answers as the call itself would have.
      "tasks/result": async (params) => {
        const { task, result } = this.#entry(params);
        const value = await result;
        const meta = {
          ...(value._meta as JsonObject | undefined),
          [RELATED_TASK]: { taskId: task.taskId },
        };
        return { ...value, _meta: meta };
      },
      "tasks/list": () =>
        Promise.resolve({ tasks: [...this.#entries.values()].map(({ task }) => ({ ...task })) }),
      "tasks/cancel": (params) => {
        const entry = this.#entry(params);
        if (terminal(entry.task)) {
          throw new McpError(
            ErrorCode.InvalidParams,
            `Task ${entry.task.taskId} is ${entry.task.status}: it cannot be cancelled`,
          );
        }
        Object.assign(entry.task, {
          status: "cancelled",
          statusMessage: "Cancelled by the client",
          lastUpdatedAt: new Date().toISOString(),
        });
        entry.abort.abort(new Error("the task was cancelled"));
        return Promise.resolve({ ...entry.task });
      },
    };
  }

  #entry(params: JsonObject): Entry {
    const entry = this.#entries.get(String(params.taskId));
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown task: ${params.taskId}`);
    return entry;
  }
}
