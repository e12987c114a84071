/**
 * JSON-RPC 2.0 message types, the error codes MCP uses, and the classification of raw values
 * into messages.
 *
 * @module
 */

import { ProtocolError } from "./errors.ts";

/**
 * A JSON-RPC request id. `1` and `"1"` are different ids.
 *
 * @example A number and a string that are not the same id
 * ```ts
 * import type { RequestId } from "@mcp-inspect/client";
 * const ids: RequestId[] = [1, "1"];
 * console.log(ids[0] === ids[1]); // false
 * ```
 */
export type RequestId = string | number;

/**
 * A JSON object, as carried in `params` and `result`.
 *
 * @example The parameters of a tools/call request
 * ```ts
 * import type { JsonObject } from "@mcp-inspect/client";
 * const params: JsonObject = { name: "add", arguments: { a: 1, b: 2 } };
 * ```
 */
export type JsonObject = Record<string, unknown>;

/**
 * A request: a message that expects a response with the same id.
 *
 * @example A tools/call request
 * ```ts
 * import type { JsonRpcRequest } from "@mcp-inspect/client";
 * const request: JsonRpcRequest = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } };
 * ```
 */
export interface JsonRpcRequest {
  /** Always `"2.0"`. */
  jsonrpc: "2.0";
  /** The id the response will carry. */
  id: RequestId;
  /** The method to invoke. */
  method: string;
  /** The method's parameters. */
  params?: JsonObject;
}

/**
 * A notification: a message that expects no response.
 *
 * @example The notification sent after the handshake
 * ```ts
 * import type { JsonRpcNotification } from "@mcp-inspect/client";
 * const note: JsonRpcNotification = { jsonrpc: "2.0", method: "notifications/initialized" };
 * ```
 */
export interface JsonRpcNotification {
  /** Always `"2.0"`. */
  jsonrpc: "2.0";
  /** The notification's method. */
  method: string;
  /** The notification's parameters. */
  params?: JsonObject;
}

/**
 * A successful response.
 *
 * @example An empty result, as `ping` returns
 * ```ts
 * import type { JsonRpcResultResponse } from "@mcp-inspect/client";
 * const response: JsonRpcResultResponse = { jsonrpc: "2.0", id: 1, result: {} };
 * ```
 */
export interface JsonRpcResultResponse {
  /** Always `"2.0"`. */
  jsonrpc: "2.0";
  /** The id of the request this answers. */
  id: RequestId;
  /** The result. */
  result: JsonObject;
}

/**
 * The `error` member of an error response.
 *
 * @example Method not found
 * ```ts
 * import { ErrorCode, type JsonRpcErrorObject } from "@mcp-inspect/client";
 * const error: JsonRpcErrorObject = { code: ErrorCode.MethodNotFound, message: "Method not found" };
 * ```
 */
export interface JsonRpcErrorObject {
  /** A JSON-RPC or MCP error code. */
  code: number;
  /** A short description. */
  message: string;
  /** Extra information defined by the sender. */
  data?: unknown;
}

/**
 * An error response. The id is absent or `null` when the request could not be read.
 *
 * @example A parse error
 * ```ts
 * import type { JsonRpcErrorResponse } from "@mcp-inspect/client";
 * const response: JsonRpcErrorResponse = {
 *   jsonrpc: "2.0",
 *   id: null,
 *   error: { code: -32700, message: "Parse error" },
 * };
 * ```
 */
export interface JsonRpcErrorResponse {
  /** Always `"2.0"`. */
  jsonrpc: "2.0";
  /** The id of the request this answers, if it could be read. */
  id?: RequestId | null;
  /** What went wrong. */
  error: JsonRpcErrorObject;
}

/**
 * A response: a result or an error.
 *
 * @example Telling the two apart
 * ```ts
 * import type { JsonRpcResponse } from "@mcp-inspect/client";
 * const response: JsonRpcResponse = { jsonrpc: "2.0", id: 1, result: {} };
 * console.log("error" in response ? "failed" : "ok");
 * ```
 */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

/**
 * Any JSON-RPC message a transport carries.
 *
 * @example Sending a message through a transport's writable side
 * ```ts
 * import { type JsonRpcMessage, MemoryTransport } from "@mcp-inspect/client";
 * const [transport, other] = MemoryTransport.pair();
 * const message: JsonRpcMessage = { jsonrpc: "2.0", method: "notifications/initialized" };
 * const writer = transport.writable.getWriter();
 * await writer.write(message);
 * writer.releaseLock();
 * await Promise.all([transport.close(), other.close()]);
 * ```
 */
export type JsonRpcMessage =
  | JsonRpcRequest
  | JsonRpcNotification
  | JsonRpcResultResponse
  | JsonRpcErrorResponse;

/**
 * Error codes of JSON-RPC 2.0 and MCP.
 *
 * @example Checking the code of a server error
 * ```ts
 * import { ErrorCode, McpError } from "@mcp-inspect/client";
 * const error: unknown = new McpError(-32601, "Method not found: tools/list");
 * if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) console.log("unsupported");
 * ```
 */
export const ErrorCode: {
  readonly ParseError: -32700;
  readonly InvalidRequest: -32600;
  readonly MethodNotFound: -32601;
  readonly InvalidParams: -32602;
  readonly InternalError: -32603;
  readonly ResourceNotFound: -32002;
  readonly HeaderMismatch: -32020;
  readonly MissingRequiredClientCapability: -32021;
  readonly UnsupportedProtocolVersion: -32022;
  readonly UrlElicitationRequired: -32042;
} = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  UrlElicitationRequired: -32042,
};

/**
 * Tells whether a message is a request.
 *
 * @example A request has a method and an id
 * ```ts
 * import { isRequest } from "@mcp-inspect/client";
 * console.log(isRequest({ jsonrpc: "2.0", id: 1, method: "ping" })); // true
 * ```
 */
export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message;
}

/**
 * Tells whether a message is a notification.
 *
 * @example A notification has a method and no id
 * ```ts
 * import { isNotification } from "@mcp-inspect/client";
 * console.log(isNotification({ jsonrpc: "2.0", method: "notifications/initialized" })); // true
 * ```
 */
export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message);
}

/**
 * Tells whether a message is a response (a result or an error).
 *
 * @example A response has no method
 * ```ts
 * import { isResponse } from "@mcp-inspect/client";
 * console.log(isResponse({ jsonrpc: "2.0", id: 1, result: {} })); // true
 * ```
 */
export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !("method" in message);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/**
 * The request id a parsed JSON value names, valid or not as a message: what a malformed answer
 * to a request still tells about which request it meant.
 *
 * @example The id of an answer that is not valid JSON-RPC
 * ```ts
 * import { messageId } from "@mcp-inspect/client";
 * console.log(messageId({ jsonrpc: "1.0", id: 3, result: 5 })); // 3
 * ```
 */
export function messageId(value: unknown): RequestId | undefined {
  return isObject(value) && isId(value.id) ? value.id : undefined;
}

/**
 * Checks that a parsed JSON value is a JSON-RPC 2.0 message and returns it typed.
 *
 * @throws {ProtocolError} naming what is wrong with the value.
 * @example Classifying a line read from a server
 * ```ts
 * import { toMessage } from "@mcp-inspect/client";
 * const message = toMessage(JSON.parse('{"jsonrpc":"2.0","id":7,"result":{}}'));
 * console.log(message);
 * ```
 */
export function toMessage(value: unknown): JsonRpcMessage {
  if (!isObject(value)) {
    throw new ProtocolError(
      `Invalid JSON-RPC message: expected an object, got ${
        Array.isArray(value) ? "an array" : typeof value
      }`,
    );
  }
  if (value.jsonrpc !== "2.0") {
    throw new ProtocolError('Invalid JSON-RPC message: "jsonrpc" must be "2.0"');
  }
  if ("params" in value && value.params !== undefined && !isObject(value.params)) {
    throw new ProtocolError('Invalid JSON-RPC message: "params" must be an object');
  }
  if (typeof value.method === "string") {
    if ("id" in value && !isId(value.id)) {
      throw new ProtocolError('Invalid JSON-RPC request: "id" must be a string or a number');
    }
    return value as unknown as JsonRpcMessage;
  }
  if ("method" in value) {
    throw new ProtocolError('Invalid JSON-RPC message: "method" must be a string');
  }
  if ("result" in value) {
    if (!isId(value.id)) {
      throw new ProtocolError('Invalid JSON-RPC response: "id" must be a string or a number');
    }
    if (!isObject(value.result)) {
      throw new ProtocolError('Invalid JSON-RPC response: "result" must be an object');
    }
    return value as unknown as JsonRpcResultResponse;
  }
  if ("error" in value) {
    const error = value.error;
    if (!isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
      throw new ProtocolError(
        'Invalid JSON-RPC error response: "error" needs a numeric "code" and a string "message"',
      );
    }
    if (value.id !== undefined && value.id !== null && !isId(value.id)) {
      throw new ProtocolError('Invalid JSON-RPC error response: "id" must be a string or a number');
    }
    return value as unknown as JsonRpcErrorResponse;
  }
  throw new ProtocolError(
    'Invalid JSON-RPC message: it has neither "method", "result" nor "error"',
  );
}
