// Running a local tool the way a remote call runs: arguments checked against the input schema
// first, the same timeouts (idle, optionally reset by progress, and a total that progress never
// extends), cancellation through a signal, progress to `onProgress`, and the output checked
// against the output schema. Timeouts and cancellation reject at once, as for a server, and
// abort the handler's signal so that it can stop.

import { CancelledError, McpError, TimeoutError, ValidationError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { SchemaValidator } from "../schema.ts";
import {
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type Progress,
} from "../session.ts";
import type { CallToolResult } from "../types.ts";
import type { LocalTool, RegistryCallOptions } from "./types.ts";

const METHOD = "tools/call";

/** Checks arguments against the tool's input schema. @throws {ValidationError} */
export function checkArguments(
  tool: LocalTool,
  args: Record<string, unknown>,
  validator: SchemaValidator,
): void {
  const issues = validator.compile(tool.inputSchema)(args);
  if (issues.length > 0) {
    throw new ValidationError(`Invalid arguments for tool "${tool.name}"`, issues);
  }
}

function checkOutput(tool: LocalTool, result: CallToolResult, validator: SchemaValidator): void {
  if (!tool.outputSchema || result.isError) return;
  if (result.structuredContent === undefined) {
    throw new ValidationError(
      `Tool "${tool.name}" declares an output schema but returned no structuredContent`,
      [],
    );
  }
  const issues = validator.compile(tool.outputSchema)(result.structuredContent);
  if (issues.length > 0) {
    throw new ValidationError(
      `Structured content of tool "${tool.name}" does not match its output schema`,
      issues,
    );
  }
}

function normalize(value: CallToolResult | string): CallToolResult {
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (typeof value !== "object" || value === null || !Array.isArray(value.content)) {
    throw new TypeError("a local tool must return a string or a result with a content array");
  }
  return value;
}

/** A thrown error becomes a tool execution error the model can read, as servers do. */
function asResult(error: unknown): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Runs a local tool; see the file comment. */
export async function runLocal(
  tool: LocalTool,
  args: Record<string, unknown>,
  options: RegistryCallOptions,
  validator: SchemaValidator,
): Promise<CallToolResult> {
  checkArguments(tool, args, validator);
  const { signal } = options;
  if (signal?.aborted) throw new CancelledError(METHOD, signal.reason);
  const idleMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const totalMs = options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS;
  const controller = new AbortController();
  const outcome = Promise.withResolvers<CallToolResult>();
  let settled = false;
  const fail = (error: Error) => {
    if (settled) return;
    settled = true;
    controller.abort(error);
    outcome.reject(error);
  };
  let idle = setTimeout(() => fail(new TimeoutError(METHOD, idleMs)), idleMs);
  const total = setTimeout(() => fail(new TimeoutError(METHOD, totalMs, "total")), totalMs);
  const onAbort = () => fail(new CancelledError(METHOD, signal?.reason));
  signal?.addEventListener("abort", onAbort, { once: true });
  const progress = (update: Progress) => {
    if (settled) return;
    if (options.resetTimeoutOnProgress) {
      clearTimeout(idle);
      idle = setTimeout(() => fail(new TimeoutError(METHOD, idleMs)), idleMs);
    }
    options.onProgress?.(update);
  };
  const meta: JsonObject = options.meta ?? {};
  Promise.resolve()
    .then(() => tool.handler(args, { signal: controller.signal, meta, progress }))
    .then(normalize)
    .catch((error) => {
      if (error instanceof McpError) throw error;
      return asResult(error);
    })
    .then((result) => {
      checkOutput(tool, result, validator);
      settled = true;
      outcome.resolve(result);
    })
    .catch((error) => {
      if (settled) return;
      settled = true;
      outcome.reject(error);
    });
  try {
    return await outcome.promise;
  } finally {
    clearTimeout(idle);
    clearTimeout(total);
    signal?.removeEventListener("abort", onAbort);
  }
}
