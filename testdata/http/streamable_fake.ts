// A fake Streamable HTTP MCP server of revision 2025-11-25, as a handler factory for Deno.serve.
// It is strict where the spec says MUST (Accept, Mcp-Session-Id, MCP-Protocol-Version) and, on
// request, misbehaves the way real deployments do: sessions that expire, canned error statuses,
// streams cut mid-event, bodies too big. Raw JSON-RPC: it shares no code with the client.

type Json = Record<string, unknown>;

/** One HTTP request as the fake received it. */
export interface SeenRequest {
  method: string;
  path: string;
  /** The JSON-RPC method; "response" for the client's answers; undefined for GET and DELETE. */
  rpc: string | undefined;
  id: unknown;
  session: string | null;
  protocol: string | null;
  lastEventId: string | null;
}

/** A canned HTTP answer, given instead of the normal one. */
export interface Canned {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** How the fake behaves. */
export interface StreamableFakeOptions {
  /** Requests are answered with one JSON body (default) or an SSE stream. */
  answer?: "json" | "sse";
  /** Mint an Mcp-Session-Id at initialize (default true); false makes the server stateless. */
  sessions?: boolean;
  /** The n-th session id (default: a counter and a random UUID). */
  sessionId?: (n: number) => string;
  /**
   * GET: 405, an SSE stream held open ("open", the default with sessions), or one that closes
   * after each message it delivers ("polling", as spec servers may do to avoid long connections).
   */
  getStream?: "405" | "open" | "polling";
  /** The status answering DELETE (default 200; 405 keeps the session). */
  deleteStatus?: number;
  /**
   * After `skip` of them (default 0), the next `times` requests of `method` (or "GET") end their
   * session and get 404.
   */
  expire?: { method: string; times: number; skip?: number };
  /** Answers by JSON-RPC method (or "GET"), one per request, in order, before anything else. */
  canned?: Record<string, Canned[]>;
  /** The `retry:` (ms) of priming events (default 10). */
  retryMs?: number;
  /** Receives every request. */
  log?: SeenRequest[];
}

const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"];
const INFO = { name: "streamable-fake", version: "1.0.0" };
const TOOLS = [
  { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  { name: "chatty", description: "Progress, a log, roots/list and sampling, then the answer." },
  { name: "cut", description: "A response stream that breaks; args.how says how." },
  { name: "announce", description: "Sends tools/list_changed and a ping on the GET stream." },
  { name: "big", inputSchema: { type: "object", properties: { size: { type: "number" } } } },
].map((tool) => ({ inputSchema: { type: "object" }, ...tool }));

const encoder = new TextEncoder();
const SSE = { "content-type": "text/event-stream", "cache-control": "no-cache" };

function rpcError(id: unknown, code: number, message: string, status = 200): Response {
  return Response.json({ jsonrpc: "2.0", id: id ?? null, error: { code, message } }, { status });
}

/** A Streamable HTTP MCP server; serve it with `Deno.serve({ port: 0 }, handler)`. */
export function streamableFake(
  options: StreamableFakeOptions = {},
): (req: Request) => Promise<Response> {
  const sessions = options.sessions ?? true;
  const getMode = options.getStream ?? (sessions ? "open" : "405");
  const retryMs = options.retryMs ?? 10;
  const canned = new Map(Object.entries(options.canned ?? {}).map(([k, v]) => [k, [...v]]));
  const live = new Set<string>();
  let minted = 0;
  let expired = 0;
  let skipped = 0;
  /** Whether this request is one that ends its session. */
  const expires = (method: string | undefined): boolean => {
    if (!options.expire || options.expire.method !== method) return false;
    if (skipped < (options.expire.skip ?? 0)) {
      skipped++;
      return false;
    }
    if (expired >= options.expire.times) return false;
    expired++;
    return true;
  };
  let eventNo = 0;
  let serverRequestNo = 0;
  /** Every SSE event sent, by stream, so a stream can be resumed after any of them. */
  const stored: { id: string; stream: string; chunk: string }[] = [];
  /** Server-to-client requests awaiting the client's POSTed answer. */
  const awaiting = new Map<unknown, (answer: Json) => void>();
  /** The GET stream of each session, and what waits for one to open. */
  const standalone = new Map<string, ReadableStreamDefaultController<Uint8Array>>();
  const queued = new Map<string, Json[]>();

  const event = (stream: string, message?: Json, retry?: number): string => {
    const id = `e${++eventNo}`;
    const chunk = `id: ${id}\n${retry !== undefined ? `retry: ${retry}\n` : ""}${
      message ? `event: message\ndata: ${JSON.stringify(message)}` : "data: "
    }\n\n`;
    stored.push({ id, stream, chunk });
    return chunk;
  };

  /** An SSE response fed by `produce`; closing when it returns, quietly if the client left. */
  const sse = (produce: (send: (chunk: string) => void) => Promise<void>, headers = {}) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (chunk: string) => controller.enqueue(encoder.encode(chunk));
        produce(send).then(() => controller.close()).catch(() => {});
      },
    });
    return new Response(body, { headers: { ...SSE, ...headers } });
  };

  const push = (session: string, message: Json) => {
    const controller = standalone.get(session);
    if (!controller) return void queued.set(session, [...(queued.get(session) ?? []), message]);
    controller.enqueue(encoder.encode(event(`get:${session}`, message)));
    if (getMode === "polling") {
      standalone.delete(session);
      controller.close();
    }
  };

  const endSession = (session: string) => {
    live.delete(session);
    const controller = standalone.get(session);
    standalone.delete(session);
    try {
      controller?.close();
    } catch {
      // already cancelled by the client
    }
  };

  /** Sends a request to the client on a stream and waits for the answer it POSTs. */
  const ask = (send: (chunk: string) => void, stream: string, method: string, params: Json) => {
    const id = `srv-${++serverRequestNo}`;
    const answered = new Promise<Json>((resolve) => awaiting.set(id, resolve));
    send(event(stream, { jsonrpc: "2.0", id, method, params }));
    return answered;
  };

  const tool = (
    message: Json,
    session: string,
    respond: (result: Json) => Response,
  ): Response => {
    const params = (message.params ?? {}) as Json;
    const args = (params.arguments ?? {}) as Json;
    const text = (value: string) => ({ content: [{ type: "text", text: value }] });
    const done = (result: Json) => ({ jsonrpc: "2.0", id: message.id, result });
    const token = ((params._meta ?? {}) as Json).progressToken;
    const stream = `post:${String(message.id)}:${++eventNo}`;
    switch (params.name) {
      case "echo":
        return respond(text(String(args.text ?? "")));
      case "big":
        return respond(text("x".repeat(Number(args.size ?? 0))));
      case "announce":
        push(session, { jsonrpc: "2.0", method: "notifications/tools/list_changed" });
        push(session, { jsonrpc: "2.0", id: `srv-${++serverRequestNo}`, method: "ping" });
        return respond(text("announced"));
      case "chatty":
        return sse(async (send) => {
          const progress = (n: number) =>
            token !== undefined && send(event(stream, {
              jsonrpc: "2.0",
              method: "notifications/progress",
              params: { progressToken: token, progress: n, total: 2 },
            }));
          send(event(stream, undefined, retryMs));
          progress(1);
          send(event(stream, {
            jsonrpc: "2.0",
            method: "notifications/message",
            params: { level: "info", logger: "fake", data: "working" },
          }));
          const roots = await ask(send, stream, "roots/list", {});
          progress(2);
          const sampled = await ask(send, stream, "sampling/createMessage", {
            messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
            maxTokens: 5,
          });
          const uris = ((roots.result as Json)?.roots as Json[] ?? []).map((r) => r.uri);
          const reply = ((sampled.result as Json)?.content as Json)?.text;
          send(event(stream, done(text(`roots ${uris.join(" ")}; sampled ${reply}`))));
        });
      case "cut": {
        // The whole stream is stored; only part of it is sent. GET with Last-Event-ID replays.
        const how = String(args.how ?? "mid-event");
        const ids = how !== "no-ids";
        const priming = ids ? event(stream, undefined, retryMs) : "data: \n\n";
        const note = {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token ?? 0, progress: 1 },
        };
        const step = ids ? event(stream, note) : `data: ${JSON.stringify(note)}\n\n`;
        const answer = ids
          ? event(stream, done(text(`resumed after ${how}`)))
          : `data: ${JSON.stringify(done(text("never")))}\n\n`;
        return sse(async (send) => {
          send(priming);
          if (token !== undefined) send(step);
          if (how !== "before-response") send(answer.slice(0, answer.length / 2));
          await Promise.resolve();
        });
      }
      default:
        return rpcError(message.id, -32602, `Unknown tool ${String(params.name)}`);
    }
  };

  const answer = (message: Json, session: string): Response => {
    const headers: Record<string, string> = {};
    const respond = (result: Json) => {
      const body = { jsonrpc: "2.0", id: message.id, result };
      if (options.answer !== "sse") return Response.json(body, { headers });
      const stream = `post:${String(message.id)}:${++eventNo}`;
      return sse((send) => {
        send(event(stream, undefined, retryMs));
        send(event(stream, body));
        return Promise.resolve();
      }, headers);
    };
    const params = (message.params ?? {}) as Json;
    switch (message.method) {
      case "initialize": {
        if (sessions) {
          const id = options.sessionId?.(++minted) ?? `session-${++minted}-${crypto.randomUUID()}`;
          live.add(id);
          headers["mcp-session-id"] = id;
        }
        const asked = String(params.protocolVersion);
        return respond({
          protocolVersion: VERSIONS.includes(asked) ? asked : VERSIONS[0],
          capabilities: { tools: { listChanged: true }, logging: {} },
          serverInfo: INFO,
        });
      }
      case "ping":
      case "logging/setLevel":
        return respond({});
      case "tools/list":
        return respond({ tools: TOOLS });
      case "tools/call":
        return tool(message, session, respond);
      default:
        return rpcError(message.id, -32601, `Method not found: ${String(message.method)}`);
    }
  };

  /** The session of a request, or the error status that refuses it. */
  const checkSession = (req: Request): string | Response => {
    const protocol = req.headers.get("mcp-protocol-version");
    if (!protocol || !VERSIONS.includes(protocol)) {
      return rpcError(null, -32000, `Bad MCP-Protocol-Version: ${protocol}`, 400);
    }
    if (!sessions) return "";
    const session = req.headers.get("mcp-session-id");
    if (session === null) return rpcError(null, -32000, "Bad Request: no session id", 400);
    if (!live.has(session)) return rpcError(null, -32001, "Session not found", 404);
    return session;
  };

  const cannedAnswer = (key: string): Response | undefined => {
    const next = canned.get(key)?.shift();
    if (!next) return undefined;
    return new Response(next.body ?? null, { status: next.status, headers: next.headers ?? {} });
  };

  const get = (req: Request): Response => {
    if (!(req.headers.get("accept") ?? "").includes("text/event-stream")) {
      return new Response("Not Acceptable", { status: 406 });
    }
    const early = cannedAnswer("GET");
    if (early) return early;
    if (getMode === "405") return new Response(null, { status: 405 });
    const session = checkSession(req);
    if (session instanceof Response) return session;
    if (expires("GET")) {
      endSession(session);
      return rpcError(null, -32001, "Session not found", 404);
    }
    const lastEventId = req.headers.get("last-event-id");
    const from = lastEventId === null ? -1 : stored.findIndex((e) => e.id === lastEventId);
    const stream = from >= 0 ? stored[from]!.stream : `get:${session}`;
    const foreign = stream.startsWith("get:") && stream !== `get:${session}`;
    if (lastEventId !== null && (from < 0 || foreign)) {
      return rpcError(null, -32000, "Unknown Last-Event-ID", 400);
    }
    if (stream.startsWith("post:")) {
      // Resuming a response stream: replay what followed the last event the client saw.
      const rest = stored.slice(from + 1).filter((e) => e.stream === stream);
      return new Response(rest.map((e) => e.chunk).join(""), { headers: SSE });
    }
    if (standalone.has(session)) return new Response("Conflict", { status: 409 });
    let mine: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        mine = controller;
        standalone.set(session, controller);
        controller.enqueue(encoder.encode(event(stream, undefined, retryMs)));
        const waiting = queued.get(session) ?? [];
        queued.delete(session);
        for (const message of waiting) push(session, message);
      },
      cancel() {
        if (standalone.get(session) === mine) standalone.delete(session);
      },
    });
    return new Response(body, { headers: SSE });
  };

  return async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const seen: SeenRequest = {
      method: req.method,
      path: url.pathname,
      rpc: undefined,
      id: undefined,
      session: req.headers.get("mcp-session-id"),
      protocol: req.headers.get("mcp-protocol-version"),
      lastEventId: req.headers.get("last-event-id"),
    };
    options.log?.push(seen);
    if (req.method === "GET") return get(req);
    if (req.method === "DELETE") {
      const session = checkSession(req);
      if (session instanceof Response) return session;
      const status = options.deleteStatus ?? 200;
      if (status < 300 && sessions) endSession(session);
      return new Response(null, { status });
    }
    if (req.method !== "POST") {
      await req.body?.cancel();
      return new Response(null, { status: 405 });
    }
    const accept = req.headers.get("accept") ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      await req.body?.cancel();
      return new Response("Not Acceptable", { status: 406 });
    }
    if (!(req.headers.get("content-type") ?? "").includes("application/json")) {
      await req.body?.cancel();
      return new Response("Unsupported Media Type", { status: 415 });
    }
    let message: Json;
    try {
      message = await req.json();
    } catch {
      return rpcError(null, -32700, "Parse error", 400);
    }
    seen.rpc = typeof message.method === "string" ? message.method : "response";
    seen.id = message.id;
    const early = cannedAnswer(seen.rpc);
    if (early) return early;
    if (message.method === "initialize") return answer(message, "");
    const session = checkSession(req);
    if (session instanceof Response) return session;
    if (expires(seen.rpc)) {
      endSession(session);
      return rpcError(null, -32001, "Session not found", 404);
    }
    if (typeof message.method !== "string") {
      awaiting.get(message.id)?.(message);
      awaiting.delete(message.id);
      return new Response(null, { status: 202 });
    }
    if (message.id === undefined) return new Response(null, { status: 202 });
    return answer(message, session);
  };
}
