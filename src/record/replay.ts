/**
 * A recording served back as an MCP server: each request gets the recorded answer of the request
 * with the same method and canonical params (in recorded order when there were several), followed
 * by the notifications recorded with it. A request the recording never saw gets an error at once
 * that names the nearest recorded request.
 *
 * @module
 */

import canonicalize from "canonicalize";
import { distance } from "fastest-levenshtein";
import {
  ErrorCode,
  isRequest,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
} from "../jsonrpc.ts";
import { MemoryTransport } from "../transport/memory.ts";
import { refuse } from "../server/guard.ts";
import type { Transport } from "../transport/transport.ts";
import type { Recording } from "./record.ts";

/** Methods answered whatever their params: they carry the client's identity, not a question. */
const IDENTITY_METHODS = new Set(["initialize", "server/discover", "ping"]);

/** The params that identify a request: `_meta` (tokens, trace ids, client info) left out. */
function paramsKey(method: string, params: unknown): string {
  if (IDENTITY_METHODS.has(method)) return "";
  if (typeof params !== "object" || params === null) return "{}";
  const { _meta: _, ...rest } = params as Record<string, unknown>;
  return canonicalize(rest) ?? "{}";
}

interface Exchange {
  /** Notifications that came while the request was in flight (progress, logs). */
  before: JsonRpcMessage[];
  /** The recorded answer (result or error). */
  answer: JsonRpcMessage;
  /** Notifications that came after the answer, before the next request. */
  after: JsonRpcMessage[];
}

function isNotification(m: JsonRpcMessage): boolean {
  return "method" in m && !("id" in m && m.id !== undefined);
}

/**
 * Answers requests from a recording. Stateless apart from the position of each repeated request.
 *
 * @example Answering one request
 * ```ts
 * import { parseRecording, ReplayServer } from "@mcp-inspect/client/testing";
 * const text = `
 * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}
 * {"t":0.5,"dir":"send","msg":{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}}
 * {"t":1.5,"dir":"recv","msg":{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}}`;
 * const replay = new ReplayServer(parseRecording(text));
 * const messages = replay.answer({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
 * console.log(messages); // [{ jsonrpc: "2.0", id: 1, result: { tools: [] } }]
 * ```
 */
export class ReplayServer {
  /** method → canonical params → exchanges in recorded order */
  readonly #exchanges = new Map<string, Map<string, Exchange[]>>();
  readonly #served = new Map<Exchange[], number>();

  /**
   * Indexes a recording's exchanges.
   *
   * @example A replay of a recording file
   * ```ts
   * import { parseRecording, ReplayServer } from "@mcp-inspect/client/testing";
   * const replay = new ReplayServer(parseRecording(`
   * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}
   * {"t":0.4,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}
   * {"t":0.9,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{}}}`));
   * console.log(replay.answer({ jsonrpc: "2.0", id: 2, method: "ping" }));
   * // [{ jsonrpc: "2.0", id: 2, result: {} }]
   * ```
   */
  constructor(recording: Recording) {
    const open = new Map<RequestId, { method: string; key: string; before: JsonRpcMessage[] }>();
    let last: Exchange | undefined;
    for (const { dir, msg } of recording.messages) {
      if (dir === "send") {
        if (isRequest(msg)) {
          open.set(msg.id, {
            method: msg.method,
            key: paramsKey(msg.method, msg.params),
            before: [],
          });
          last = undefined;
        }
        continue;
      }
      if (isNotification(msg)) {
        const inFlight = [...open.values()].at(-1);
        if (inFlight) inFlight.before.push(msg);
        else last?.after.push(msg);
        continue;
      }
      const id = (msg as { id?: RequestId }).id;
      const request = id === undefined ? undefined : open.get(id);
      if (!request || "method" in msg) continue; // a server request to the client: not replayed
      open.delete(id!);
      const exchange: Exchange = { before: request.before, answer: msg, after: [] };
      const byKey = this.#exchanges.get(request.method) ?? new Map<string, Exchange[]>();
      this.#exchanges.set(request.method, byKey);
      const list = byKey.get(request.key) ?? [];
      byKey.set(request.key, list);
      list.push(exchange);
      last = exchange;
    }
  }

  /**
   * The messages to send for one incoming message: for a request, its recorded notifications and
   * answer (under the request's id); for anything else, nothing.
   *
   * @example Answering a message as the recording did, notifications included
   * ```ts
   * import { parseRecording, ReplayServer } from "@mcp-inspect/client/testing";
   * const replay = new ReplayServer(parseRecording(`
   * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}
   * {"t":1,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}}
   * {"t":2,"dir":"recv","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}}
   * {"t":3,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}`));
   * const message = { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "slow" } } as const;
   * for (const out of replay.answer(message)) console.log(out); // a transport would write it
   * // { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }
   * // { jsonrpc: "2.0", id: 9, result: { content: [] } }
   * ```
   */
  answer(message: JsonRpcMessage): JsonRpcMessage[] {
    if (!isRequest(message)) return [];
    const key = paramsKey(message.method, message.params);
    const list = this.#exchanges.get(message.method)?.get(key);
    if (!list || list.length === 0) return [this.#miss(message, key)];
    // Repeats are served in recorded order; past the last, the last one again.
    const index = this.#served.get(list) ?? 0;
    this.#served.set(list, index + 1);
    const exchange = list[Math.min(index, list.length - 1)]!;
    return [
      ...exchange.before,
      { ...exchange.answer, id: message.id } as JsonRpcMessage,
      ...exchange.after,
    ];
  }

  #miss(message: JsonRpcRequest, key: string): JsonRpcMessage {
    const recorded = this.#exchanges.get(message.method);
    let text: string;
    if (!recorded) {
      const methods = [...this.#exchanges.keys()].join(", ") || "none";
      text = `No ${message.method} request in the recording (recorded: ${methods})`;
    } else {
      const nearest = [...recorded.keys()].sort((a, b) => distance(a, key) - distance(b, key))[0];
      text =
        `No recorded answer for ${message.method} with these params; the nearest recorded: ${nearest}`;
    }
    const code = recorded ? ErrorCode.InvalidParams : ErrorCode.MethodNotFound;
    return { jsonrpc: "2.0", id: message.id, error: { code, message: text } } as JsonRpcMessage;
  }
}

/**
 * Serves a recording over a server-side transport (such as `StdioServerTransport`) until it ends.
 *
 * @example Replaying a recording on stdio
 * ```ts ignore
 * const recording = parseRecording(await Deno.readTextFile("session.jsonl"));
 * await serveReplay(recording, new StdioServerTransport());
 * ```
 */
export async function serveReplay(recording: Recording, transport: Transport): Promise<void> {
  const replay = new ReplayServer(recording);
  await transport.start();
  const writer = transport.writable.getWriter();
  const reader = transport.readable.getReader();
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const out of replay.answer(value)) await writer.write(out);
    }
  } catch {
    // the client went away
  } finally {
    reader.releaseLock();
    writer.releaseLock();
    await transport.close();
  }
}

/**
 * A client-side transport connected in memory to a replay of `recording`: a recorded server as a
 * fake for tests. Closing it ends the replay.
 *
 * @example A recording as a fake server in `deno test`
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { parseRecording, replayTransport } from "@mcp-inspect/client/testing";
 *
 * const recording = parseRecording(`
 * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}
 * {"t":1,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}}
 * {"t":2,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"my-server","version":"1.0.0"}}}}
 * {"t":3,"dir":"send","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}}
 * {"t":4,"dir":"recv","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}}`);
 * await using client = await Client.connect(replayTransport(recording), { protocol: "legacy" });
 * console.log((await client.listTools()).map((t) => t.name)); // ["echo"]
 * ```
 */
export function replayTransport(recording: Recording): Transport {
  return MemoryTransport.serving((server) => serveReplay(recording, server));
}

/**
 * Options of {@link serveReplayHttp}.
 *
 * @example Any free port
 * ```ts
 * import type { ReplayHttpOptions } from "@mcp-inspect/client/testing";
 * const options: ReplayHttpOptions = { port: 0 };
 * ```
 */
export interface ReplayHttpOptions {
  /** The address to bind (default `127.0.0.1`). */
  hostname?: string;
  /** The port (default 0: any free port). */
  port?: number;
  /** Require `Authorization: Bearer <token>`. */
  token?: string | undefined;
}

/**
 * Serves a recording over Streamable HTTP at `/mcp`, with the proxy's guard (loopback `Host` and
 * `Origin` only, and the token when given). A request's recorded notifications travel only when
 * the client accepts SSE; a JSON answer carries the recorded answer alone.
 *
 * @example Serving a recording over HTTP on a free port
 * ```ts
 * import { parseRecording, serveReplayHttp } from "@mcp-inspect/client/testing";
 * const recording = parseRecording(`
 * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}`);
 * await using http = serveReplayHttp(recording, { port: 0 });
 * console.log(http.url.href); // "http://127.0.0.1:<port>/mcp"
 * ```
 */
export function serveReplayHttp(
  recording: Recording,
  options: ReplayHttpOptions = {},
): { url: URL; close(): Promise<void>; [Symbol.asyncDispose](): Promise<void> } {
  const replay = new ReplayServer(recording);
  const hostname = options.hostname ?? "127.0.0.1";
  const guard = {
    hostname,
    allowedHosts: undefined,
    allowedOrigins: undefined,
    token: options.token,
  };
  const encoder = new TextEncoder();
  const server = Deno.serve(
    { hostname, port: options.port ?? 0, onListen: () => {} },
    async (request) => {
      const refused = refuse(request, guard);
      if (refused) return refused;
      if (new URL(request.url).pathname !== "/mcp") {
        return new Response("Not found\n", {
          status: 404,
        });
      }
      if (request.method === "DELETE") return new Response(null, { status: 204 });
      if (request.method !== "POST") {
        return new Response(null, { status: 405, headers: { allow: "POST, DELETE" } });
      }
      let message: JsonRpcMessage;
      try {
        message = await request.json();
      } catch (error) {
        return Response.json(
          {
            jsonrpc: "2.0",
            id: null,
            error: { code: ErrorCode.ParseError, message: String(error) },
          },
          { status: 400 },
        );
      }
      const out = replay.answer(message);
      if (out.length === 0) return new Response(null, { status: 202 });
      if ((request.headers.get("accept") ?? "").includes("text/event-stream")) {
        const body = out.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join("");
        return new Response(encoder.encode(body), {
          headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
        });
      }
      return Response.json(out.find((m) => !("method" in m)));
    },
  );
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  const url = new URL(`http://${shown}:${server.addr.port}/mcp`);
  const close = () => server.shutdown();
  return { url, close, [Symbol.asyncDispose]: close };
}
