// Tasks: the experimental tasks of 2025-11-25 and the tasks extension of 2026-07-28, behind
// callTool() (which waits) and getTask/cancelTask/listTasks/waitForTask.

import assert from "node:assert/strict";
import {
  CancelledError,
  type JsonRpcMessage,
  McpError,
  ProtocolError,
  type TaskInfo,
} from "../../mod.ts";
import { connectFake, rejectsWith } from "../_helpers.ts";

function textOf(result: { content: { text?: string }[] }): string {
  return result.content.map((c) => c.text ?? "").join("");
}

function sentParams(sent: readonly JsonRpcMessage[], method: string): Record<string, unknown>[] {
  return sent.flatMap((m) => "method" in m && m.method === method ? [m.params ?? {}] : []);
}

Deno.test("a task-augmented call (2025-11-25) waits for the task and returns its result", async () => {
  await using fx = await connectFake("everything.ts");
  const seen: TaskInfo["status"][] = [];
  const result = await fx.client.callTool("long_task", { steps: 2 }, {
    task: { ttlMs: 30_000 },
    onTaskStatus: (task) => seen.push(task.status),
  });
  assert.equal(textOf(result), "long done after 2 steps");
  assert.equal(seen[0], "working");
  assert.deepStrictEqual(sentParams(fx.transport.sent, "tools/call")[0]!.task, { ttl: 30_000 });
  assert.equal(sentParams(fx.transport.sent, "tasks/result").length, 1);
  const [task] = await fx.client.listTasks();
  assert.equal(task?.status, "completed");
  assert.equal(task?.ttlMs, 30_000);
});

Deno.test("without the task option a tool that allows tasks runs as an ordinary call", async () => {
  await using fx = await connectFake("everything.ts");
  assert.equal(
    textOf(await fx.client.callTool("long_task", { steps: 1 })),
    "long done after 1 steps",
  );
  assert.equal(sentParams(fx.transport.sent, "tasks/get").length, 0);
});

Deno.test("getTask and cancelTask work on a task started by a raw request", async () => {
  await using fx = await connectFake("everything.ts");
  const created = await fx.client.request("tools/call", {
    name: "long_task",
    arguments: { steps: 500 },
    task: {},
  });
  const taskId = (created.task as { taskId: string }).taskId;
  assert.equal((await fx.client.getTask(taskId)).status, "working");
  await fx.client.cancelTask(taskId);
  assert.equal((await fx.client.getTask(taskId)).status, "cancelled");
  await rejectsWith(fx.client.waitForTask(taskId), CancelledError);
});

Deno.test("a modern server's task is polled, its input requests answered, and its result returned", async () => {
  await using fx = await connectFake("modern.ts", [], {
    tasks: true,
    onElicitation: () => ({ action: "accept", content: { name: "Grace" } }),
  });
  const seen: TaskInfo["status"][] = [];
  const result = await fx.client.callTool("long", {}, {
    onTaskStatus: (task) => seen.push(task.status),
  });
  assert.equal(textOf(result), "done for Grace");
  assert.ok(seen.includes("input_required") && seen.at(-1) === "completed", seen.join(" "));
  const [update] = sentParams(fx.transport.sent, "tasks/update");
  assert.deepStrictEqual(update!.inputResponses, {
    who: { action: "accept", content: { name: "Grace" } },
  });
});

Deno.test("a modern client that does not accept tasks gets the result at once", async () => {
  await using fx = await connectFake("modern.ts");
  assert.equal(textOf(await fx.client.callTool("long", {})), "done at once (no tasks)");
});

Deno.test("a failed task raises the server's error, and tasks/list is refused in the modern era", async () => {
  await using fx = await connectFake("modern.ts", [], { tasks: true });
  const error = await rejectsWith(fx.client.callTool("doomed", {}), McpError);
  assert.deepStrictEqual([error.code, error.message], [-32001, "The build broke"]);
  await rejectsWith(fx.client.listTasks(), ProtocolError);
});
