// The Streamable HTTP endpoint behind `serveHttp`: one method per HTTP verb, the legacy sessions
// (capped, the idle one used longest ago evicted first) and the open SSE streams.

import {
  ErrorCode,
  isRequest as isRequestMessage,
  type JsonRpcMessage,
  type RequestId,
  toMessage,
} from "../jsonrpc.ts";
import { readLimited } from "../http_util.ts";
import { META } from "../protocol.ts";
import type { McpServer, McpServerConnection } from "./server.ts";

interface Session {
  connection: McpServerConnection;
  stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** Requests of this session whose answer has not gone out yet. */
  inFlight: number;
  /** How each of those requests ends if the connection closes first. */
  abandons: Set<() => void>;
}

const encoder = new TextEncoder();
const META_VERSION = META.protocolVersion;

function sse(message: JsonRpcMessage): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

/**
 * The answer to a request whose connection closed before its handler answered (closeAll(), a
 * session ended or evicted): the HTTP request ends with it instead of waiting forever.
 */
function closedAnswer(id: RequestId): JsonRpcMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: ErrorCode.InternalError,
      message: "The server closed this connection before answering",
    },
  };
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

/** Limits of an {@link Endpoint}. */
export interface EndpointLimits {
  /** The largest request body, in bytes. */
  maxBody: number;
  /** The most legacy sessions kept at once. */
  maxSessions: number;
}

/** Answers the requests of one MCP endpoint path for `server`. */
export class Endpoint {
  readonly #server: McpServer;
  readonly #maxBody: number;
  readonly #maxSessions: number;
  // In order of last use: a session is moved to the end each time a message names it.
  readonly #sessions = new Map<string, Session>();
  readonly #streams = new Set<ReadableStreamDefaultController<Uint8Array>>();

  constructor(server: McpServer, limits: EndpointLimits) {
    this.#server = server;
    this.#maxBody = limits.maxBody;
    this.#maxSessions = limits.maxSessions;
  }

  /** Dispatches by HTTP verb. */
  async handle(request: Request): Promise<Response> {
    switch (request.method) {
      case "POST":
        return await this.post(request);
      case "GET":
        return this.get(request);
      case "DELETE":
        return this.delete(request);
      default:
        return new Response(null, { status: 405, headers: { allow: "GET, POST, DELETE" } });
    }
  }

  /** One message from the client: a request, a notification or an answer. */
  async post(request: Request): Promise<Response> {
    const length = Number(request.headers.get("content-length") ?? 0);
    if (length > this.#maxBody) return tooLarge(this.#maxBody);
    const text = await readBody(request, this.#maxBody);
    if (text === undefined) return tooLarge(this.#maxBody);
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
    /** Ends the request if its connection closes before the answer: set below. */
    let abandon = (): void => {};
    const abandonThis = () => abandon();
    let owner: Session | undefined;
    if (isRequestMessage(message) && message.method === "initialize") {
      if (this.#sessions.size >= this.#maxSessions && !this.#evictIdleSession()) {
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
        connection: this.#server.open({
          send: (out) => session.stream?.enqueue(sse(out)),
        }, { onClose: () => this.#closed(id, session) }),
        stream: undefined,
        inFlight: 0,
        abandons: new Set(),
      };
      this.#sessions.set(id, session);
      headers["mcp-session-id"] = id;
      connection = session.connection;
      owner = session;
    } else if (sessionId !== null) {
      const session = this.#sessions.get(sessionId);
      if (!session) return rpcError(404, ErrorCode.InvalidRequest, "Session not found");
      this.#sessions.delete(sessionId);
      this.#sessions.set(sessionId, session); // now the most recently used
      connection = session.connection;
      owner = session;
    } else if (
      "method" in message &&
      (message.method === "server/discover" || typeof message.params?._meta === "object" &&
          typeof (message.params._meta as Record<string, unknown>)[META_VERSION] === "string")
    ) {
      // Modern era: stateless, so every request gets a connection of its own.
      connection = this.#server.open(undefined, { onClose: abandonThis });
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
    if (owner) {
      owner.inFlight++;
      owner.abandons.add(abandonThis);
    }
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      if (owner) {
        owner.inFlight--;
        owner.abandons.delete(abandonThis);
      }
      if (ephemeral) connection.close();
    };
    if ((request.headers.get("accept") ?? "").includes("text/event-stream")) {
      return this.#stream(headers, (controller) => {
        abandon = () => {
          if (finished) return;
          try {
            controller.enqueue(sse(closedAnswer(id)));
          } catch {
            // the client went away
          }
          this.#end(controller);
          finish();
        };
        connection.receive(message, {
          send: (out) => {
            try {
              controller.enqueue(sse(out));
            } catch {
              return; // the client went away
            }
            if (isAnswer(out)) {
              this.#end(controller);
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
    abandon = () => resolve(closedAnswer(id));
    connection.receive(message, { send: (out) => isAnswer(out) && resolve(out) });
    const answer = await promise;
    finish();
    return Response.json(answer, { headers });
  }

  /** The GET stream of a legacy session: what the server sends on its own. */
  get(request: Request): Response {
    const session = this.#sessions.get(request.headers.get("mcp-session-id") ?? "");
    if (!session) {
      return new Response("A GET stream needs a session (legacy era)\n", {
        status: 405,
        headers: { allow: "POST, DELETE" },
      });
    }
    if (session.stream) return new Response("A GET stream is already open\n", { status: 409 });
    return this.#stream({}, (controller) => void (session.stream = controller), () => {
      session.stream = undefined;
    });
  }

  /** DELETE: the client ends its session. */
  delete(request: Request): Response {
    const id = request.headers.get("mcp-session-id") ?? "";
    const session = this.#sessions.get(id);
    if (!session) return new Response(null, { status: 404 });
    session.connection.close(); // see #closed()
    return new Response(null, { status: 204 });
  }

  /** Ends every session and stream. */
  close(): void {
    for (const session of [...this.#sessions.values()]) session.connection.close();
    for (const controller of [...this.#streams]) this.#end(controller);
  }

  /**
   * A session's connection closed, whoever closed it (DELETE, eviction, close(), or the server's
   * closeAll()): the session is gone, so its id now gets 404 and a client starts a new one; its
   * GET stream ends; each of its requests still waiting gets an error answer.
   */
  #closed(id: string, session: Session): void {
    if (this.#sessions.get(id) === session) this.#sessions.delete(id);
    if (session.stream) this.#end(session.stream);
    for (const abandon of [...session.abandons]) abandon();
  }

  /** Ends the session idle the longest; `false` when every session is busy. */
  #evictIdleSession(): boolean {
    for (const session of this.#sessions.values()) {
      if (session.inFlight > 0 || session.stream) continue;
      session.connection.close(); // see #closed()
      return true;
    }
    return false;
  }

  /** An SSE response; `onCancel` runs when the client goes away. */
  #stream(
    headers: HeadersInit,
    setup: (controller: ReadableStreamDefaultController<Uint8Array>) => void,
    onCancel: () => void,
  ): Response {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
        this.#streams.add(c);
        setup(c);
      },
      cancel: () => {
        this.#streams.delete(controller);
        onCancel();
      },
    });
    return new Response(body, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers },
    });
  }

  #end(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.#streams.delete(controller);
    try {
      controller.close();
    } catch {
      // already closed or cancelled
    }
  }
}
