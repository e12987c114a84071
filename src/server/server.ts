/**
 * A small MCP server: raw JSON-RPC over this project's {@link Transport}, speaking both eras
 * (the `initialize` handshake, and `server/discover` with per-request `_meta`). It answers the
 * lifecycle itself and hands every other method to your handlers. Serve it over stdio with
 * {@link StdioServerTransport}, over Streamable HTTP with {@link serveHttp}, or in-process with
 * {@link MemoryTransport}.
 *
 * @module
 */

import type { JsonObject, JsonRpcMessage } from "../jsonrpc.ts";
import type { Progress } from "../session.ts";
import type { Transport } from "../transport/transport.ts";
import type { Implementation, LoggingLevel, ServerCapabilities } from "../types.ts";
import { ServerConnection } from "./_connection.ts";
import { SubscriptionCounter, type SubscriptionHooks } from "./_subscriptions.ts";

export type { SubscriptionHooks } from "./_subscriptions.ts";

/**
 * What a request handler knows about its request, and how it talks back while it runs.
 *
 * @example Reporting progress from a handler
 * ```ts
 * import type { ServerRequestHandler } from "@mcp-inspect/client/server";
 * const handler: ServerRequestHandler = (_params, context) => {
 *   context.progress({ progress: 1, total: 1 });
 *   return { content: [] };
 * };
 * ```
 */
export interface ServerRequestContext {
  /** Aborted when the client cancels the request or goes away. */
  signal: AbortSignal;
  /** The request's `_meta`. */
  meta: JsonObject;
  /** The era the request came in. */
  era: "modern" | "legacy";
  /**
   * What the client can answer: its `initialize` capabilities (legacy era), or those in the
   * request's `_meta` (modern era).
   */
  clientCapabilities: JsonObject;
  /**
   * Sends the client a request of the server's own (`sampling/createMessage`,
   * `elicitation/create`, `roots/list`) on this request's channel and resolves with its answer;
   * rejects with {@link McpError} when the client answers with an error. Legacy era only: in the
   * modern era a handler answers with an `input_required` result instead.
   */
  request(method: string, params: JsonObject): Promise<JsonObject>;
  /** Sends progress, when the client asked for it with a progress token. */
  progress(progress: Progress): void;
  /** Sends a log message tied to this request, if the client's log level lets it through. */
  log(message: { level: LoggingLevel; logger?: string; data: unknown }): void;
}

/**
 * Answers one method. Throw {@link McpError} to answer with an error code.
 *
 * @example A handler that lists no tools
 * ```ts
 * import type { ServerRequestHandler } from "@mcp-inspect/client/server";
 * const listTools: ServerRequestHandler = () => ({ tools: [] });
 * ```
 */
export type ServerRequestHandler = (
  params: JsonObject,
  context: ServerRequestContext,
) => JsonObject | Promise<JsonObject>;

/**
 * What a server is: its identity, capabilities and method handlers.
 *
 * @example A server with an empty tool list
 * ```ts
 * import type { ServerDefinition } from "@mcp-inspect/client/server";
 * const definition: ServerDefinition = {
 *   serverInfo: { name: "hello", version: "1.0.0" },
 *   capabilities: { tools: {} },
 *   handlers: { "tools/list": () => ({ tools: [] }) },
 * };
 * ```
 */
export interface ServerDefinition {
  /** The server's name and version. */
  serverInfo: Implementation;
  /** What it advertises. */
  capabilities: ServerCapabilities;
  /** Guidance for the model. */
  instructions?: string | undefined;
  /**
   * Handlers by method. `initialize`, `server/discover`, `ping`, `logging/setLevel` and
   * `subscriptions/listen` are answered by the server itself.
   */
  handlers: Record<string, ServerRequestHandler>;
  /**
   * Resource subscriptions (advertise `resources.subscribe` with them): the server then answers
   * `resources/subscribe` and `resources/unsubscribe` (legacy era) and the `resourceSubscriptions`
   * of `subscriptions/listen` (modern era) itself, and calls these hooks when a resource gains
   * its first subscriber among all connections or loses its last. Send the updates with
   * {@link McpServer.resourceUpdated}.
   */
  subscriptions?: SubscriptionHooks | undefined;
  /**
   * Called with each error a handler throws that is not an {@link McpError}. The client then
   * gets only `-32603` and the error's class name: a stack, a local path or a backend's stderr
   * belongs in a local log (this hook), never on the wire to a remote client.
   */
  onError?: ((error: unknown, method: string) => void) | undefined;
}

/**
 * One connection of a {@link McpServer}, for transports that route messages themselves (HTTP).
 *
 * @example Routing messages through a connection of one's own
 * ```ts
 * import type { JsonRpcMessage } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const server = new FakeServer().server;
 * const written = Promise.withResolvers<JsonRpcMessage>();
 * const write = (message: JsonRpcMessage) => written.resolve(message); // to a socket, a port, ...
 * const connection = server.open({ send: (message) => write(message) });
 * const message: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "ping" };
 * connection.receive(message);
 * console.log(await written.promise); // { jsonrpc: "2.0", id: 1, result: {} }
 * connection.close();
 * ```
 */
export interface McpServerConnection {
  /** Handles one message from the client; related messages go to `channel` (default: the connection's). */
  receive(message: JsonRpcMessage, channel?: { send(message: JsonRpcMessage): void }): void;
  /** Whether requests (or listen streams) are still open. */
  readonly busy: boolean;
  /** Aborts open requests and forgets the connection. */
  close(): void;
}

/**
 * A small MCP server of both eras.
 *
 * @example Serving a tool in-process
 * ```ts
 * import { Client, MemoryTransport } from "@mcp-inspect/client";
 * import { McpServer } from "@mcp-inspect/client/server";
 * const server = new McpServer({
 *   serverInfo: { name: "hello", version: "1.0.0" },
 *   capabilities: { tools: {} },
 *   handlers: {
 *     "tools/list": () => ({ tools: [{ name: "hi", inputSchema: { type: "object" } }] }),
 *     "tools/call": () => ({ content: [{ type: "text", text: "hello" }] }),
 *   },
 * });
 * const transport = MemoryTransport.serving((serverEnd) => server.serve(serverEnd));
 * const client = await Client.connect(transport, { protocol: "legacy" });
 * console.log((await client.callTool("hi")).content);
 * await client.close(); // returns once the server has stopped serving
 * ```
 */
export class McpServer {
  readonly #definition: ServerDefinition;
  readonly #connections = new Set<ServerConnection>();
  readonly #subscriptions: SubscriptionCounter;

  /**
   * Creates the server; nothing is served until {@link serve} or {@link open}.
   *
   * @example A server that offers nothing
   * ```ts
   * import { McpServer } from "@mcp-inspect/client/server";
   * const server = new McpServer({
   *   serverInfo: { name: "empty", version: "0.0.0" },
   *   capabilities: {},
   *   handlers: {},
   * });
   * ```
   */
  constructor(definition: ServerDefinition) {
    this.#definition = definition;
    this.#subscriptions = new SubscriptionCounter(definition.subscriptions);
  }

  /**
   * How many connections are open.
   *
   * @example Counting a client in and out
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "hello", version: "1.0.0" },
   *   capabilities: {},
   *   handlers: {},
   * });
   * const client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * console.log(server.connectionCount); // 1
   * await client.close();
   * console.log(server.connectionCount); // 0
   * ```
   */
  get connectionCount(): number {
    return this.#connections.size;
  }

  /**
   * Opens a connection whose unrelated messages (list changes, logs) go to `channel`.
   * `options.onClose` runs once when the connection closes, whoever closes it (its own
   * `close()`, or {@link closeAll}): how a transport serving it learns to end.
   *
   * @example Answering a ping that came by a route of one's own
   * ```ts
   * import type { JsonRpcMessage } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "hello", version: "1.0.0" },
   *   capabilities: {},
   *   handlers: {},
   * });
   * const answered = Promise.withResolvers<JsonRpcMessage>();
   * const connection = server.open({ send: answered.resolve });
   * connection.receive({ jsonrpc: "2.0", id: 1, method: "ping" });
   * console.log(await answered.promise); // { jsonrpc: "2.0", id: 1, result: {} }
   * connection.close();
   * ```
   *
   * @example Learning that the server dropped every connection
   * ```ts
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "hello", version: "1.0.0" },
   *   capabilities: {},
   *   handlers: {},
   * });
   * server.open(undefined, { onClose: () => console.log("closed") });
   * server.closeAll(); // "closed"
   * ```
   */
  open(
    channel?: { send(message: JsonRpcMessage): void },
    options: { onClose?: () => void } = {},
  ): McpServerConnection {
    const { onClose } = options;
    const connection: ServerConnection = new ServerConnection(
      this.#definition,
      channel,
      this.#subscriptions,
      () => {
        this.#connections.delete(connection);
        onClose?.();
      },
    );
    this.#connections.add(connection);
    return connection;
  }

  /**
   * Serves one client over a transport until the client hangs up; resolves then, with the
   * transport closed.
   *
   * @example Serving one end of an in-memory pair until the client hangs up
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "hello", version: "1.0.0" },
   *   capabilities: {},
   *   handlers: {},
   * });
   * const [clientEnd, serverEnd] = MemoryTransport.pair();
   * const served = server.serve(serverEnd);
   * const client = await Client.connect(clientEnd);
   * await client.close();
   * await served; // the server end is closed too
   * ```
   */
  async serve(transport: Transport): Promise<void> {
    await transport.start();
    const writer = transport.writable.getWriter();
    const reader = transport.readable.getReader();
    // A connection closed from this side (closeAll()) ends the read below, and so closes the
    // transport: the client learns at once instead of waiting for answers that never come.
    const connection = this.open(
      { send: (message) => void writer.write(message).catch(() => {}) },
      { onClose: () => void reader.cancel().catch(() => {}) },
    );
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        connection.receive(value);
      }
    } catch {
      // the transport failed: the connection is over
    } finally {
      connection.close();
      reader.releaseLock();
      writer.releaseLock();
      await transport.close();
    }
  }

  /**
   * Tells every connected client that a list changed.
   *
   * @example Telling a client that the tools changed
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "hello", version: "1.0.0" },
   *   capabilities: { tools: { listChanged: true } },
   *   handlers: { "tools/list": () => ({ tools: [] }) },
   * });
   * const transport = MemoryTransport.serving((end) => server.serve(end));
   * await using client = await Client.connect(transport, { protocol: "legacy" });
   * const changed = new Promise((resolve) => client.on("toolsListChanged", resolve));
   * server.listChanged("tools");
   * await changed;
   * ```
   */
  listChanged(kind: "tools" | "resources" | "prompts"): void {
    for (const connection of this.#connections) connection.listChanged(kind);
  }

  /**
   * Tells every client subscribed to a resource that it changed.
   *
   * @example Telling a subscribed client that a resource changed
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "notes", version: "1.0.0" },
   *   capabilities: { resources: { subscribe: true } },
   *   handlers: {},
   *   subscriptions: { subscribe: () => {}, unsubscribe: () => {} },
   * });
   * const transport = MemoryTransport.serving((end) => server.serve(end));
   * await using client = await Client.connect(transport, { protocol: "legacy" });
   * const updated = new Promise((resolve) => client.on("resourceUpdated", resolve));
   * await client.subscribeResource("mem://today");
   * server.resourceUpdated("mem://today");
   * console.log(await updated); // { uri: "mem://today" }
   * ```
   */
  resourceUpdated(uri: string): void {
    for (const connection of this.#connections) connection.resourceUpdated(uri);
  }

  /**
   * Sends a log message that belongs to no request to every client of the legacy era that wants it
   * (by its `logging/setLevel`). The modern era (2026-07-28) has no such messages: there a log
   * travels with the request it belongs to ({@link ServerRequestContext.log}).
   *
   * @example Logging to a client that asked for `info` and above
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "hello", version: "1.0.0" },
   *   capabilities: { logging: {} },
   *   handlers: {},
   * });
   * const transport = MemoryTransport.serving((end) => server.serve(end));
   * await using client = await Client.connect(transport, { protocol: "legacy" });
   * const logged = new Promise((resolve) => client.on("log", resolve));
   * await client.setLoggingLevel("info");
   * server.log({ level: "info", data: "cache warmed" });
   * console.log(await logged); // { level: "info", data: "cache warmed" }
   * ```
   */
  log(message: { level: LoggingLevel; logger?: string; data: unknown }): void {
    for (const connection of this.#connections) connection.log(message);
  }

  /**
   * Closes every connection; those being served by {@link serve} close their transports too.
   *
   * @example Dropping every connection at once
   * ```ts
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "hello", version: "1.0.0" },
   *   capabilities: {},
   *   handlers: {},
   * });
   * server.open();
   * server.open();
   * server.closeAll();
   * console.log(server.connectionCount); // 0
   * ```
   */
  closeAll(): void {
    for (const connection of [...this.#connections]) connection.close();
  }
}
