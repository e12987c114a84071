/**
 * Re-sends a recording's requests to a live server and reports every answer that differs from
 * the recorded one, volatile fields aside: ids, `_meta`, timestamps, and the JSON pointers given.
 *
 * @module
 */

import type { Client } from "../client/client.ts";
import { McpError } from "../mcp_error.ts";
import { isRequest, type JsonObject, type JsonRpcMessage, type RequestId } from "../jsonrpc.ts";
import type { RequestOptions } from "../session.ts";
import type { Recording } from "./record.ts";

/** Requests that set a session up rather than ask the server something. */
const SETUP = new Set(["initialize", "server/discover", "ping", "logging/setLevel"]);

// ISO 8601 date-times: values that change on every run.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * One answer that differs from its recording.
 *
 * @example Printing where each answer differs
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer, parseRecording, verifyRecording } from "@mcp-inspect/client/testing";
 *
 * const recording = parseRecording(`
 * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}
 * {"t":0.5,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}}
 * {"t":1.5,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello"}]}}}`);
 * const fake = new FakeServer({ tools: [{ name: "echo", handler: (args) => String(args.text) }] });
 * await using client = await Client.connect(fake.transport(), { protocol: "legacy" });
 * const result = await verifyRecording(client, recording);
 * for (const m of result.mismatches) console.log(m.method, m.path, m.expected, m.actual);
 * // "tools/call" "/content/0/text" "hello" "hi"
 * ```
 */
export interface VerifyMismatch {
  /** The request's method. */
  method: string;
  /** Its params, as recorded (without `_meta`). */
  params: JsonObject;
  /** The JSON pointer of the first difference in the answer (`""` for the whole answer). */
  path: string;
  /** The recorded value there. */
  expected: unknown;
  /** The live value there. */
  actual: unknown;
}

/**
 * What {@link verifyRecording} found.
 *
 * @example Re-sending a recording's requests to a live server
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer, parseRecording, verifyRecording } from "@mcp-inspect/client/testing";
 *
 * const recording = parseRecording(`
 * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}
 * {"t":0.5,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}}
 * {"t":1.5,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}`);
 * const fake = new FakeServer({ tools: [] });
 * await using client = await Client.connect(fake.transport(), { protocol: "legacy" });
 * const { checked, mismatches } = await verifyRecording(client, recording);
 * console.log(checked, mismatches); // 1 []
 * ```
 */
export interface VerifyResult {
  /** How many requests were re-sent. */
  checked: number;
  /** The answers that differ. */
  mismatches: VerifyMismatch[];
}

/**
 * Options of {@link verifyRecording}.
 *
 * @example Not comparing a text that changes between runs
 * ```ts
 * import type { VerifyOptions } from "@mcp-inspect/client/testing";
 * const options: VerifyOptions = { ignore: ["/content/0/text"] };
 * ```
 */
export interface VerifyOptions extends RequestOptions {
  /** JSON pointers into answers (`/content/0/text`) whose values are not compared. */
  ignore?: readonly string[];
}

function withoutMeta(params: unknown): JsonObject {
  if (typeof params !== "object" || params === null) return {};
  const { _meta: _, ...rest } = params as JsonObject;
  return rest;
}

/** The answer with volatile values replaced, so that equal answers compare equal. */
function normalise(value: unknown, pointer: string, ignore: ReadonlySet<string>): unknown {
  if (ignore.has(pointer)) return "<ignored>";
  if (typeof value === "string" && TIMESTAMP.test(value)) return "<timestamp>";
  if (Array.isArray(value)) return value.map((v, i) => normalise(v, `${pointer}/${i}`, ignore));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (key === "_meta") continue;
    const escaped = key.replaceAll("~", "~0").replaceAll("/", "~1");
    out[key] = normalise((value as Record<string, unknown>)[key], `${pointer}/${escaped}`, ignore);
  }
  return out;
}

/** The first place two normalised values differ. */
function firstDifference(
  a: unknown,
  b: unknown,
  pointer = "",
): { path: string; expected: unknown; actual: unknown } | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  const bothObjects = typeof a === "object" && a !== null && typeof b === "object" && b !== null &&
    Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) return { path: pointer, expected: a, actual: b };
  const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
  for (const key of keys) {
    const found = firstDifference(
      (a as Record<string, unknown>)[key],
      (b as Record<string, unknown>)[key],
      `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`,
    );
    if (found) return found;
  }
  return { path: pointer, expected: a, actual: b };
}

/** The recorded requests with their recorded answers, in order. */
function exchanges(recording: Recording): { request: JsonRpcMessage; answer: JsonRpcMessage }[] {
  const open = new Map<RequestId, JsonRpcMessage>();
  const found: { request: JsonRpcMessage; answer: JsonRpcMessage }[] = [];
  for (const { dir, msg } of recording.messages) {
    if (dir === "send" && isRequest(msg)) open.set(msg.id, msg);
    else if (dir === "recv" && !("method" in msg)) {
      const id = (msg as { id?: RequestId }).id;
      const request = id === undefined ? undefined : open.get(id);
      if (!request) continue;
      open.delete(id!);
      found.push({ request, answer: msg });
    }
  }
  return found;
}

/**
 * Re-sends every recorded request (handshake and pings aside) to `client`'s server, in recorded
 * order, and compares each answer with the recorded one.
 *
 * @example Checking a server against a recording in CI
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer, parseRecording, verifyRecording } from "@mcp-inspect/client/testing";
 *
 * const recording = parseRecording(`
 * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}
 * {"t":0.5,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}}
 * {"t":1.5,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello"}]}}}`);
 * const fake = new FakeServer({ tools: [{ name: "echo", handler: (args) => String(args.text) }] });
 * await using client = await Client.connect(fake.transport(), { protocol: "legacy" });
 * const { mismatches } = await verifyRecording(client, recording, { ignore: ["/content/0/text"] });
 * if (mismatches.length > 0) Deno.exit(1); // the text differs ("hi"), but it is ignored
 * ```
 */
export async function verifyRecording(
  client: Client,
  recording: Recording,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
  const { ignore = [], ...request } = options;
  // Answers are compared wrapped as { result } or { error }; pointers are given inside them.
  const ignored = new Set(ignore.flatMap((pointer) => [`/result${pointer}`, `/error${pointer}`]));
  const mismatches: VerifyMismatch[] = [];
  let checked = 0;
  for (const { request: sent, answer } of exchanges(recording)) {
    const { method, params } = sent as { method: string; params?: JsonObject };
    if (SETUP.has(method)) continue;
    checked++;
    const args = withoutMeta(params);
    const expected = "error" in answer
      ? { error: { code: answer.error.code, message: answer.error.message } }
      : { result: (answer as { result: unknown }).result };
    let actual: unknown;
    try {
      actual = { result: await client.request(method, args, request) };
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      actual = { error: { code: error.code, message: error.message } };
    }
    const difference = firstDifference(
      normalise(expected, "", ignored),
      normalise(actual, "", ignored),
    );
    if (difference) {
      // Pointers are reported inside the result (or error), as --ignore takes them.
      const path = difference.path.replace(/^\/(result|error)/, "");
      mismatches.push({ method, params: args, ...difference, path });
    }
  }
  return { checked, mismatches };
}
