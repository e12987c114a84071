// `tools/call` end to end: learning the tool schemas first when validation or tasks need them,
// task augmentation (2025-11-25) and waiting for a task of either era, then checking the result.

import type { Diagnostic } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { RequestOptions } from "../session.ts";
import type { CallToolResult, TaskInfo } from "../types.ts";
import { callToolResult } from "./_results.ts";
import { taskOf, type TaskOps, waitForTask } from "./_tasks.ts";
import type { ToolSchemas } from "./_tools.ts";
import type { CallToolOptions } from "./types.ts";
import { SchemaValidator } from "../schema.ts";

/** What a tool call needs of the client. */
export interface CallContext extends TaskOps {
  tools: ToolSchemas;
  validateArguments: boolean;
  validateOutput: boolean;
  hasCapability(path: string): boolean;
  listTools(options: RequestOptions): Promise<unknown>;
  diagnose(diagnostic: Diagnostic): void;
}

/** Calls a tool, validating its arguments and structured output as the client is configured. */
export function invokeTool(
  context: CallContext,
  name: string,
  args: Record<string, unknown>,
  options: CallToolOptions,
): Promise<CallToolResult> {
  // The rest of the options pass on as they are: the requests below ignore `task` and
  // `onTaskStatus`, and a copy without them per call showed in profiles of concurrent calls.
  const { task } = options;
  const learn = needsListing(context, task);
  if (
    task !== undefined || context.validateArguments || (learn && needsToolsFirst(context, task)) ||
    augments(context, name, task)
  ) {
    return invokeWithChecks(context, name, args, options);
  }
  // The common call: nothing to check or decide before it is sent, so it goes out now, chained
  // rather than in an async function (whose extra turns a fresh connection's burst of thousands
  // of calls measured: 5% against the session's own request()).
  let learning: Promise<void> | undefined;
  if (learn) {
    // Only the output check needs the schemas: the listing and the call go out together.
    learning = learnTools(context, options);
    if (options.signal !== undefined) learning.catch(() => {}); // awaited after the answer
  }
  return context.request("tools/call", { name, arguments: args }, options).then((result) => {
    const created = taskOf(result);
    if (created) return finishTask(context, name, created, options, learning);
    const callResult = callToolResult(result);
    return learning
      ? learning.then(() => checkOutput(context, name, callResult))
      : checkOutput(context, name, callResult);
  });
}

/** A call that must know or check something first: its arguments, its tool, or a task. */
async function invokeWithChecks(
  context: CallContext,
  name: string,
  args: Record<string, unknown>,
  options: CallToolOptions,
): Promise<CallToolResult> {
  const { tools } = context;
  const { task } = options;
  let learning: Promise<void> | undefined;
  if (needsListing(context, task)) {
    learning = learnTools(context, options);
    if (needsToolsFirst(context, task)) {
      await learning;
      learning = undefined;
    } else if (options.signal !== undefined) {
      learning.catch(() => {}); // awaited after the answer; not unhandled if the call fails
    }
  }
  if (context.validateArguments) {
    if (tools.needsEngine(name, "inputSchema")) await SchemaValidator.ready();
    tools.validateArguments(name, args);
  }
  const params: JsonObject = { name, arguments: args };
  if (augments(context, name, task)) {
    const ttl = typeof task === "object" ? task.ttlMs : undefined;
    params.task = ttl === undefined ? {} : { ttl };
  }
  const result = await context.request("tools/call", params, options);
  const created = taskOf(result);
  if (created) return await finishTask(context, name, created, options, learning);
  const callResult = callToolResult(result);
  if (learning) await learning;
  return await checkOutput(context, name, callResult);
}

/**
 * Whether the call goes out as a task (2025-11-25 task augmentation): the tool requires it or
 * the caller asks for one, and the server takes task-augmented calls.
 */
function augments(context: CallContext, name: string, task: CallToolOptions["task"]): boolean {
  if (context.era !== "legacy") return false;
  const execution = context.tools.get(name)?.execution as { taskSupport?: string } | undefined;
  // The capability walk last: it splits a path, and almost no call asks for a task.
  return (execution?.taskSupport === "required" || (task !== undefined && task !== false)) &&
    context.hasCapability("tasks.requests.tools.call");
}

/** Waits for a task the server answered with, then checks what it returned like any result. */
async function finishTask(
  context: CallContext,
  name: string,
  created: TaskInfo,
  options: CallToolOptions,
  learning: Promise<void> | undefined,
): Promise<CallToolResult> {
  const { onTaskStatus } = options;
  const callResult = callToolResult(
    await waitForTask(context, created, { ...options, onTaskStatus }),
  );
  if (learning) await learning;
  return await checkOutput(context, name, callResult);
}

/** The result, once its structured content is checked (when the client checks output). */
function checkOutput(
  context: CallContext,
  name: string,
  callResult: CallToolResult,
): CallToolResult | Promise<CallToolResult> {
  if (!context.validateOutput) return callResult;
  const { tools } = context;
  if (tools.needsEngine(name, "outputSchema")) {
    return SchemaValidator.ready().then(() => {
      tools.validateOutput(name, callResult);
      return callResult;
    });
  }
  tools.validateOutput(name, callResult);
  return callResult;
}

/** Whether the call needs the tool list (to check something, or for tasks) and it is not known. */
function needsListing(context: CallContext, task: CallToolOptions["task"]): boolean {
  return (context.validateOutput || context.validateArguments || task !== undefined) &&
    !context.tools.known;
}

/**
 * Whether the tool list must be known before the call is sent: to check the arguments, to know
 * whether a task is wanted (2025-11-25 task augmentation), and in the modern era, where a tool's
 * `x-mcp-header` parameters become headers of its call.
 */
function needsToolsFirst(context: CallContext, task: CallToolOptions["task"]): boolean {
  return context.validateArguments || task !== undefined || context.era !== "legacy" ||
    context.hasCapability("tasks.requests.tools.call");
}

/**
 * Lists tools once so that their schemas are known. Calls under the same limits share one listing
 * (3 000 concurrent first calls sent 3 000 tools/list); a call with a signal lists on its own, so
 * that another's abort is not its. Only a call's own abort rejects: a failed listing only skips
 * validation.
 */
function learnTools(context: CallContext, options: RequestOptions): Promise<void> {
  if (options.signal !== undefined) return listForSchemas(context, options);
  const { timeoutMs, maxTotalTimeoutMs, meta } = options;
  const key = timeoutMs === undefined && maxTotalTimeoutMs === undefined && meta === undefined
    ? ""
    : JSON.stringify([timeoutMs, maxTotalTimeoutMs, meta]);
  return context.tools.listOnce(key, () => listForSchemas(context, options));
}

async function listForSchemas(context: CallContext, options: RequestOptions): Promise<void> {
  if (!context.hasCapability("tools")) return;
  try {
    // Same limits as the call itself: a server that never answers tools/list must not hold
    // the call for the default timeout. Its progress is the call's, not the listing's.
    const { timeoutMs, maxTotalTimeoutMs, signal, meta } = options;
    await context.listTools({ timeoutMs, maxTotalTimeoutMs, signal, meta });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    context.tools.giveUp();
    context.diagnose({
      kind: "unexpected-message",
      message: `Could not list tools to validate results: ${(error as Error).message}`,
    });
  }
}
