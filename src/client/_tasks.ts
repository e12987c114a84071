// Tasks, both kinds behind one shape: the experimental tasks of 2025-11-25 (request augmentation
// with `task`, then tasks/get and tasks/result) and the tasks extension of 2026-07-28
// (`resultType: "task"`, tasks/get polling, tasks/update for input).

import { CancelledError, mcpErrorFrom, ProtocolError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { RequestOptions } from "../session.ts";
import type { TaskInfo } from "../types.ts";
import type { InputRequest } from "./_modern.ts";
import { type ListContext, walkAll } from "./_pages.ts";
import type { ListOptions } from "./types.ts";

/** The extension id a modern client declares to receive tasks. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

const FINAL = new Set(["completed", "failed", "cancelled"]);
const MIN_POLL_MS = 10;
const MAX_POLL_MS = 30_000;
const DEFAULT_POLL_MS = 1_000;

/** Normalizes a task of either era; the modern one uses `ttlMs`/`pollIntervalMs`. */
export function toTaskInfo(raw: JsonObject): TaskInfo {
  if (typeof raw.taskId !== "string" || typeof raw.status !== "string") {
    throw new ProtocolError(`Invalid task: it needs a string "taskId" and "status"`);
  }
  const info: TaskInfo = { taskId: raw.taskId, status: raw.status as TaskInfo["status"], raw };
  if (typeof raw.statusMessage === "string") info.statusMessage = raw.statusMessage;
  if (typeof raw.createdAt === "string") info.createdAt = raw.createdAt;
  if (typeof raw.lastUpdatedAt === "string") info.lastUpdatedAt = raw.lastUpdatedAt;
  const ttl = raw.ttlMs ?? raw.ttl;
  if (typeof ttl === "number" || ttl === null) info.ttlMs = ttl;
  const poll = raw.pollIntervalMs ?? raw.pollInterval;
  if (typeof poll === "number") info.pollIntervalMs = poll;
  return info;
}

/** The task a result announces, if it is one: `{ task }` (legacy) or `resultType: "task"`. */
export function taskOf(result: JsonObject): TaskInfo | undefined {
  if (result.resultType === "task") return toTaskInfo(result);
  const task = result.task;
  if (typeof task === "object" && task !== null && !("content" in result)) {
    return toTaskInfo(task as JsonObject);
  }
  return undefined;
}

export interface TaskOps {
  era: "modern" | "legacy";
  request(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  /** Answers the server's input requests through the client's handlers. */
  answer(
    method: string,
    requests: Record<string, InputRequest>,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject>;
}

/** Lists the tasks of a 2025-11-25 server; the modern extension has no list. */
export async function listTasks(
  context: TaskOps & ListContext,
  options: ListOptions,
): Promise<TaskInfo[]> {
  if (context.era === "modern") {
    throw new ProtocolError("tasks/list does not exist in revision 2026-07-28 and later");
  }
  const tasks = await walkAll<JsonObject>("tasks/list", "tasks", context, options);
  return tasks.map(toTaskInfo);
}

export interface WaitOptions extends RequestOptions {
  onTaskStatus?: ((task: TaskInfo) => void) | undefined;
}

/** Polls a task until it is final and returns what the original request would have returned. */
export async function waitForTask(
  ops: TaskOps,
  first: TaskInfo,
  options: WaitOptions,
): Promise<JsonObject> {
  const { onTaskStatus, ...limits } = options;
  let task = first;
  while (true) {
    onTaskStatus?.(task);
    if (FINAL.has(task.status)) break;
    if (task.status === "input_required") {
      if (ops.era === "legacy") {
        // 2025-11-25: tasks/result blocks until the end; the server's requests arrive meanwhile
        // and the session's handlers answer them.
        return await ops.request("tasks/result", { taskId: task.taskId }, limits);
      }
      const requests = task.raw.inputRequests as Record<string, InputRequest> | undefined;
      const inputResponses = await ops.answer("tasks/get", requests ?? {}, limits.signal);
      await ops.request("tasks/update", { taskId: task.taskId, inputResponses }, limits);
    } else {
      await pause(task.pollIntervalMs, limits.signal);
    }
    task = toTaskInfo(await ops.request("tasks/get", { taskId: task.taskId }, limits));
  }
  if (task.status === "failed") {
    const error = (task.raw.error ?? {}) as { code?: number; message?: string; data?: unknown };
    throw mcpErrorFrom(
      error.code ?? -32603,
      error.message ?? `Task ${task.taskId} failed`,
      error.data,
    );
  }
  if (task.status === "cancelled") {
    throw new CancelledError(
      `task ${task.taskId}`,
      task.statusMessage ?? "cancelled by the server",
    );
  }
  if (ops.era === "legacy") {
    return await ops.request("tasks/result", { taskId: task.taskId }, limits);
  }
  const result = task.raw.result;
  if (typeof result !== "object" || result === null) {
    throw new ProtocolError(`Completed task ${task.taskId} carries no result`);
  }
  return result as JsonObject;
}

function pause(suggested: number | undefined, signal: AbortSignal | undefined): Promise<void> {
  const ms = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, suggested ?? DEFAULT_POLL_MS));
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError("tasks/get", signal.reason));
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
      resolve();
    };
    const aborted = () => {
      clearTimeout(timer);
      reject(new CancelledError("tasks/get", signal?.reason));
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
