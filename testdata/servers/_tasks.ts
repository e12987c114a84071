// Tasks of revision 2025-11-25 for the fake servers: created by a task-augmented tools/call, read
// with tasks/get and tasks/result, listed and cancelled.

import { type Params, RpcError } from "./_wire.ts";

interface LegacyTask {
  task: Params;
  result: Promise<Params>;
}
const legacyTasks = new Map<string, LegacyTask>();

/** Starts a task for a task-augmented tools/call (its `task` names the ttl); `run` does the work. */
export function startTask(request: Params, run: () => Params | Promise<Params>): Params {
  const now = new Date().toISOString();
  const task: Params = {
    taskId: `task-${legacyTasks.size + 1}`,
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    ttl: Number((request.task as Params | undefined)?.ttl ?? 60_000),
    pollInterval: 10,
  };
  const result = Promise.resolve(run())
    .then((value) => {
      if (task.status === "working") task.status = "completed";
      task.lastUpdatedAt = new Date().toISOString();
      return value;
    });
  legacyTasks.set(String(task.taskId), { task, result: result as Promise<Params> });
  return { task };
}

function knownTask(params: Params): LegacyTask {
  const entry = legacyTasks.get(String(params.taskId));
  if (!entry) throw new RpcError(-32602, `Unknown task: ${params.taskId}`);
  return entry;
}

/** tasks/get, tasks/result, tasks/list and tasks/cancel over the tasks started so far. */
export const TASK_METHODS = {
  "tasks/get": (params: Params): Params => ({ ...knownTask(params).task }),
  "tasks/result": async (params: Params): Promise<Params> => {
    const { task, result } = knownTask(params);
    const value = await result;
    return { ...value, _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } } };
  },
  "tasks/list": (): Params => ({ tasks: [...legacyTasks.values()].map((entry) => entry.task) }),
  "tasks/cancel": (params: Params): Params => {
    const { task } = knownTask(params);
    task.status = "cancelled";
    return { ...task };
  },
};
