/**
 * The server side of Streamable HTTP on `Deno.serve`: each POST carries one message and, for a
 * request, is answered with JSON or, when the client accepts it, an SSE stream carrying the
 * request's progress and logs before its response. Legacy-era clients get a session
 * (`Mcp-Session-Id`) and may open a GET stream for list changes; modern-era requests are
 * stateless.
 *
 * @module
 */

import {
  ErrorCode,
  isRequest as isRequestMessage,
  type JsonRpcMessage,
  type RequestId,
  toMessage,
} from "../jsonrpc.ts";
import { refuse } from "./guard.ts";
import { readLimited } from "../http_util.ts";
import type { McpServer, McpServerConnection } from "./server.ts";
import { META } from "../protocol.ts";

/**
 * Options of {@link serveHttp}.
 *
 * @example Listening on a fixed port with a token
 * ```ts
 * import type { ServeHttpOptions } from "@mcp-inspect/client/server";
 * const options: ServeHttpOptions = { port: 3000, token: Deno.env.get("PROXY_TOKEN") ?? "dev" };
 * ```
 */
export interface ServeHttpOptions {
  /** The address to bind (default `127.0.0.1`: only this machine can connect). */
  hostname?: string;
  /** The port (default 0: any free port; see {@link HttpServerHandle.url}). */
  port?: number;
  /** The endpoint path (default `/mcp`). */
  path?: string;
  /** Require `Authorization: Bearer <token>`. */
  token?: string;
  /** `Host` values accepted (default: loopback names when bound to loopback, else any). */
  allowedHosts?: string[];
  /** `Origin` values accepted from browsers (default: loopback origins only). */
  allowedOrigins?: string[];
  /** The largest request body, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /**
   * The most legacy-era sessions kept at once (default 100). When a new one would pass it, the
   * session idle the longest (no request in flight, no GET stream) is ended; when none is idle,
   * the new `initialize` gets 503.
   */
  maxSessions?: number;
  /** Called once listening. */
  onListen?: (url: URL) => void;
}

/**
 * A running HTTP server.
 *
 * @example
 * ```ts ignore
 * await using http = serveHttp(server, { port: 0 });
 * console.log(`MCP endpoint: ${http.url}`);
 * ```
 */
export interface HttpServerHandle extends AsyncDisposable {
  /** The endpoint URL, with the port actually bound. */
  readonly url: URL;
  /** Closes open streams and sessions and stops listening. */
  close(): Promise<void>;
}

interface Session {
  connection: McpServerConnection;
  stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** Requests of this session whose answer has not gone out yet. */
  inFlight: number;
}

const encoder = new TextEncoder();
const META_VERSION = META.protocolVersion;

function sse(message: JsonRpcMessage): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

function rpcError(status: number, code: number, message: string, id: RequestId | null = null) {
  return Response.json({ jsonrpc: "2.0", id, error: { code, message } }, { status });
}

function tooLarge(maxBody: number): Response {
  return rpcError(413, ErrorCode.InvalidRequest, `Request body too large (limit ${maxBody} bytes)`);
}

/** Why a body was not read to its end. */
class BodyTooLarge extends Error {}

/**
 * The body as text, or `undefined` as soon as more than `maxBody` bytes have arrived: a chunked
 * body declares no length, so the bytes are counted as they stream in and the rest is never read.
 */
async function readBody(request: Request, maxBody: number): Promise<string | undefined> {
  try {
    return await readLimited(request.body, maxBody, () => new BodyTooLarge());
  } catch (error) {
    if (error instanceof BodyTooLarge) return undefined;
    throw error;
  }
}

/**
 * Serves an {@link McpServer} over Streamable HTTP. It binds to 127.0.0.1 unless told
 * otherwise, refuses `Host` and `Origin` headers that point elsewhere (DNS rebinding), and can
 * require a bearer token.
 *
 * @example Serving a server on a free local port
 * ```ts ignore
 * import { McpServer, serveHttp } from "@mcp-inspect/client/server";
 * await using http = serveHttp(new McpServer(definition), { port: 0 });
 * console.log(http.url.href); // http://127.0.0.1:PORT/mcp
 * ```
 */
export function serveHttp(server: McpServer, options: ServeHttpOptions = {}): HttpServerHandle {
  const hostname = options.hostname ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 100;
  // In order of last use: a session is moved to the end each time a message names it.
  const sessions = new Map<string, Session>();
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  let port = 0;
  const guard = {
    hostname,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    token: options.token,
  };

  /** An SSE response; `onCancel` runs when the client goes away. */
  function stream(
    headers: HeadersInit,
    setup: (controller: ReadableStreamDefaultController<Uint8Array>) => void,
    onCancel: () => void,
  ): Response {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
        streams.add(c);
        setup(c);
      },
      cancel: () => {
        streams.delete(controller);
        onCancel();
      },
    });
    return new Response(body, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers },
    });
  }

  function end(controller: ReadableStreamDefaultController<Uint8Array>): void {
    streams.delete(controller);
    try {
      controller.close();
    } catch {
      // already closed or cancelled
    }
  }

  async function post(request: Request): Promise<Response> {
    const length = Number(request.headers.get("content-length") ?? 0);
    if (length > maxBody) return tooLarge(maxBody);
    const text = await readBody(request, maxBody);
    if (text === undefined) return tooLarge(maxBody);
    let message: JsonRpcMessage;
    try {
      const value = JSON.parse(text);
      if (Array.isArray(value)) {
        return rpcError(400, ErrorCode.InvalidRequest, "Batches are not supported");
      }
      message = toMessage(value);
    } catch (error) {
      const code = error instanceof SyntaxError ? ErrorCode.ParseError : ErrorCode.InvalidRequest;
      return rpcError(400, code, (error as Error).message);
    }
    const isRequest = isRequestMessage(message);
    const sessionId = request.headers.get("mcp-session-id");
    const headers: Record<string, string> = {};
    let connection: McpServerConnection;
    let ephemeral = false;
    let owner: Session | undefined;
    if (isRequestMessage(message) && message.method === "initialize") {
      if (sessions.size >= maxSessions && !evictIdleSession()) {
        return Response.json(
          {
            jsonrpc: "2.0",
            id: message.id,
            error: { code: ErrorCode.InternalError, message: "Too many sessions; try again later" },
          },
          { status: 503, headers: { "retry-after": "5" } },
        );
      }
      const id = crypto.randomUUID();
      const session: Session = {
        connection: server.open({
          send: (out) => session.stream?.enqueue(sse(out)),
        }),
        stream: undefined,
        inFlight: 0,
      };
      sessions.set(id, session);
      headers["mcp-session-id"] = id;
      connection = session.connection;
      owner = session;
    } else if (sessionId !== null) {
      const session = sessions.get(sessionId);
      if (!session) return rpcError(404, ErrorCode.InvalidRequest, "Session not found");
      sessions.delete(sessionId);
      sessions.set(sessionId, session); // now the most recently used
      connection = session.connection;
      owner = session;
    } else if (
      "method" in message &&
      (message.method === "server/discover" || typeof message.params?._meta === "object" &&
          typeof (message.params._meta as Record<string, unknown>)[META_VERSION] === "string")
    ) {
      // Modern era: stateless, so every request gets a connection of its own.
      connection = server.open();
      ephemeral = true;
    } else {
      return rpcError(400, ErrorCode.InvalidRequest, "Missing Mcp-Session-Id header");
    }
    if (!isRequest) {
      connection.receive(message);
      if (ephemeral) connection.close();
      return new Response(null, { status: 202, headers });
    }
    const id = (message as { id: RequestId }).id;
    const isAnswer = (out: JsonRpcMessage) => !("method" in out) && out.id === id;
    if (owner) owner.inFlight++;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      if (owner) owner.inFlight--;
      if (ephemeral) connection.close();
    };
    if ((request.headers.get("accept") ?? "").includes("text/event-stream")) {
      return stream(headers, (controller) => {
        connection.receive(message, {
          send: (out) => {
            try {
              controller.enqueue(sse(out));
            } catch {
              return; // the client went away
            }
            if (isAnswer(out)) {
              end(controller);
              finish();
            }
          },
        });
      }, () => {
        connection.receive({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: id, reason: "the HTTP client disconnected" },
        });
        finish();
      });
    }
    // A JSON answer has no way to notice a client that went away before it: clients that want
    // cancellation on disconnect accept SSE (every MCP client does).
    const { promise, resolve } = Promise.withResolvers<JsonRpcMessage>();
    connection.receive(message, { send: (out) => isAnswer(out) && resolve(out) });
    const answer = await promise;
    finish();
    return Response.json(answer, { headers });
  }

  /** Ends the session idle the longest; `false` when every session is busy. */
  function evictIdleSession(): boolean {
    for (const [id, session] of sessions) {
      if (session.inFlight > 0 || session.stream) continue;
      sessions.delete(id);
      session.connection.close();
      return true;
    }
    return false;
  }

  function get(request: Request): Response {
    const session = sessions.get(request.headers.get("mcp-session-id") ?? "");
    if (!session) {
      return new Response("A GET stream needs a session (legacy era)\n", {
        status: 405,
        headers: { allow: "POST, DELETE" },
      });
    }
    if (session.stream) return new Response("A GET stream is already open\n", { status: 409 });
    return stream({}, (controller) => void (session.stream = controller), () => {
      session.stream = undefined;
    });
  }

  function remove(request: Request): Response {
    const id = request.headers.get("mcp-session-id") ?? "";
    const session = sessions.get(id);
    if (!session) return new Response(null, { status: 404 });
    sessions.delete(id);
    session.connection.close();
    if (session.stream) end(session.stream);
    return new Response(null, { status: 204 });
  }

  const http = Deno.serve({
    hostname,
    port: options.port ?? 0,
    onListen: () => {},
  }, async (request) => {
    // The guard reads Host before anything parses the URL built from it: a malformed Host is
    // a 400, never an exception.
    const refused = refuse(request, guard);
    if (refused) return refused;
    if (new URL(request.url).pathname !== path) return new Response("Not found\n", { status: 404 });
    switch (request.method) {
      case "POST":
        return await post(request);
      case "GET":
        return get(request);
      case "DELETE":
        return remove(request);
      default:
        return new Response(null, { status: 405, headers: { allow: "GET, POST, DELETE" } });
    }
  });
  port = http.addr.port;
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  const url = new URL(`http://${shown}:${port}${path}`);
  options.onListen?.(url);
  let closing: Promise<void> | undefined;
  const handle: HttpServerHandle = {
    url,
    close(): Promise<void> {
      closing ??= (async () => {
        for (const session of sessions.values()) session.connection.close();
        sessions.clear();
        for (const controller of [...streams]) end(controller);
        await http.shutdown();
      })();
      return closing;
    },
    [Symbol.asyncDispose]: () => handle.close(),
  };
  return handle;
}
