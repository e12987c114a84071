// Checking the shape of results before they are typed: a malformed answer becomes a
// ProtocolError naming the method and field, instead of a crash somewhere in the caller's code.

import { ProtocolError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  ReadResourceResult,
} from "../types.ts";

/** A `tools/call` result; a missing `content` becomes an empty one. */
export function callToolResult(result: JsonObject): CallToolResult {
  if (result.content !== undefined && !Array.isArray(result.content)) {
    throw new ProtocolError(`Invalid tools/call result: "content" must be an array`);
  }
  // A copy only to fill in what is missing: the message itself may be kept by a wire log.
  return (result.content === undefined ? { ...result, content: [] } : result) as CallToolResult;
}

/** A `resources/read` result. */
export function readResourceResult(result: JsonObject): ReadResourceResult {
  if (!Array.isArray(result.contents)) {
    throw new ProtocolError(`Invalid resources/read result: "contents" must be an array`);
  }
  return result as ReadResourceResult;
}

/** A `prompts/get` result. */
export function getPromptResult(result: JsonObject): GetPromptResult {
  if (!Array.isArray(result.messages)) {
    throw new ProtocolError(`Invalid prompts/get result: "messages" must be an array`);
  }
  return result as GetPromptResult;
}

/** A `completion/complete` result. */
export function completeResult(result: JsonObject): CompleteResult {
  const completion = result.completion as { values?: unknown } | undefined;
  if (!completion || !Array.isArray(completion.values)) {
    throw new ProtocolError(
      `Invalid completion/complete result: "completion.values" must be an array`,
    );
  }
  return result as CompleteResult;
}
