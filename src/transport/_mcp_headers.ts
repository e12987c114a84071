// The request headers of Streamable HTTP in revision 2026-07-28: Mcp-Method and Mcp-Name for
// every request, and Mcp-Param-{Name} mirrored from tool arguments whose schema carries
// `x-mcp-header` (spec: basic/transports/streamable-http, "Custom Headers from Tool Parameters").

import type { JsonObject, JsonRpcMessage } from "../jsonrpc.ts";

const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SAFE_VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;
const SENTINEL = /^=\?base64\?.*\?=$/;
const NAMED_METHODS: Record<string, "name" | "uri"> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};
/** Schema keywords whose subschemas are not statically reachable through `properties`. */
const NESTED_KEYWORDS = [
  "items",
  "prefixItems",
  "additionalProperties",
  "patternProperties",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions",
  "dependentSchemas",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
];

/** A parameter mirrored into a header: where its value is, and the header's name part. */
export interface HeaderParam {
  path: string[];
  name: string;
}

/**
 * Encodes a header value: as is when it is plain visible ASCII, else (or when it looks like the
 * sentinel itself) as `=?base64?…?=` of its UTF-8 bytes.
 */
export function encodeHeaderValue(value: string): string {
  if (SAFE_VALUE.test(value) && !SENTINEL.test(value)) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** Sets Mcp-Method and, where the method names something, Mcp-Name (lowercased names). */
export function setStandardHeaders(message: JsonRpcMessage, headers: Record<string, string>): void {
  if (!("method" in message)) return;
  headers["mcp-method"] = message.method;
  const field = NAMED_METHODS[message.method];
  const value = field ? message.params?.[field] : undefined;
  if (typeof value === "string") headers["mcp-name"] = encodeHeaderValue(value);
}

/**
 * The `x-mcp-header` parameters of a tool's input schema, or the reason the tool must be
 * rejected (spec: a tool with an invalid annotation is excluded from tools/list).
 */
export function headerParams(inputSchema: unknown): HeaderParam[] | string {
  const found: HeaderParam[] = [];
  const seen = new Set<string>();
  const problem = walk(inputSchema, [], true, found);
  if (problem) return problem;
  for (const param of found) {
    const key = param.name.toLowerCase();
    if (seen.has(key)) return `x-mcp-header "${param.name}" is used twice (case-insensitively)`;
    seen.add(key);
  }
  return found;
}

function walk(
  schema: unknown,
  path: string[],
  reachable: boolean,
  found: HeaderParam[],
): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const node = schema as JsonObject;
  if ("x-mcp-header" in node) {
    const name = node["x-mcp-header"];
    const where = path.length > 0 ? `property "${path.join(".")}"` : "the schema root";
    if (!reachable || path.length === 0) {
      return `x-mcp-header on ${where} is not reachable through properties alone`;
    }
    if (typeof name !== "string" || name === "") return `x-mcp-header on ${where} is empty`;
    if (!TCHAR.test(name)) return `x-mcp-header "${name}" on ${where} is not a valid header name`;
    if (!["string", "integer", "boolean"].includes(node.type as string)) {
      return `x-mcp-header "${name}" on ${where} needs type string, integer or boolean`;
    }
    found.push({ path, name });
  }
  if (typeof node.$ref === "string" && "x-mcp-header" in node) {
    return `x-mcp-header next to $ref on property "${path.join(".")}"`;
  }
  const properties = node.properties;
  if (typeof properties === "object" && properties !== null) {
    for (const [key, child] of Object.entries(properties)) {
      const problem = walk(child, [...path, key], reachable, found);
      if (problem) return problem;
    }
  }
  for (const keyword of NESTED_KEYWORDS) {
    const value = node[keyword];
    const children = Array.isArray(value)
      ? value
      : keyword === "$defs" || keyword === "definitions" || keyword === "patternProperties" ||
          keyword === "dependentSchemas"
      ? Object.values((value ?? {}) as JsonObject)
      : [value];
    for (const child of children) {
      const problem = walk(child, path, false, found);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** The Mcp-Param-* headers of a tools/call, from the arguments at each parameter's path. */
export function paramHeaders(params: readonly HeaderParam[], args: unknown): [string, string][] {
  const headers: [string, string][] = [];
  for (const param of params) {
    let value: unknown = args;
    for (const key of param.path) {
      value = typeof value === "object" && value !== null ? (value as JsonObject)[key] : undefined;
    }
    if (value === undefined || value === null) continue; // spec: omit the header
    const text = typeof value === "boolean"
      ? String(value)
      : typeof value === "number"
      ? (Number.isSafeInteger(value) ? String(value) : undefined)
      : typeof value === "string"
      ? value
      : undefined;
    if (text !== undefined) headers.push([`mcp-param-${param.name}`, encodeHeaderValue(text)]);
  }
  return headers;
}
