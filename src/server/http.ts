/**
 * The server side of Streamable HTTP on `Deno.serve`: each POST carries one message and, for a
 * request, is answered with JSON or, when the client accepts it, an SSE stream carrying the
 * request's progress and logs before its response. Legacy-era clients get a session
 * (`Mcp-Session-Id`) and may open a GET stream for list changes; modern-era requests are
 * stateless.
 *
 * @module
 */

import { refuse } from "./guard.ts";
import type { McpServer } from "./server.ts";
import { Endpoint } from "./_endpoint.ts";

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
  token?: string | undefined;
  /** `Host` values accepted (default: loopback names when bound to loopback, else any). */
  allowedHosts?: string[] | undefined;
  /** `Origin` values accepted from browsers (default: loopback origins only). */
  allowedOrigins?: string[] | undefined;
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
 * @example Printing the endpoint of a server on a free port
 * ```ts
 * import { McpServer, serveHttp } from "@mcp-inspect/client/server";
 *
 * const server = new McpServer({
 *   serverInfo: { name: "hello", version: "1.0.0" },
 *   capabilities: {},
 *   handlers: {},
 * });
 * await using http = serveHttp(server, { port: 0 });
 * console.log(`MCP endpoint: ${http.url}`); // MCP endpoint: http://127.0.0.1:PORT/mcp
 * ```
 */
export interface HttpServerHandle extends AsyncDisposable {
  /** The endpoint URL, with the port actually bound. */
  readonly url: URL;
  /** Closes open streams and sessions and stops listening. */
  close(): Promise<void>;
}

/**
 * Serves an {@link McpServer} over Streamable HTTP. It binds to 127.0.0.1 unless told
 * otherwise, refuses `Host` and `Origin` headers that point elsewhere (DNS rebinding), and can
 * require a bearer token.
 *
 * @example Serving a server on a free local port, and connecting to it
 * ```ts
 * import { Client, StreamableHttpTransport } from "@mcp-inspect/client";
 * import { McpServer, serveHttp } from "@mcp-inspect/client/server";
 *
 * const hi = { name: "hi", inputSchema: { type: "object" } };
 * const server = new McpServer({
 *   serverInfo: { name: "hello", version: "1.0.0" },
 *   capabilities: { tools: {} },
 *   handlers: { "tools/list": () => ({ tools: [hi] }) },
 * });
 * await using http = serveHttp(server, { port: 0 });
 * console.log(http.url.href); // http://127.0.0.1:PORT/mcp
 * await using client = await Client.connect(new StreamableHttpTransport({ url: http.url }));
 * console.log((await client.listTools()).map((t) => t.name)); // ["hi"]
 * ```
 */
export function serveHttp(server: McpServer, options: ServeHttpOptions = {}): HttpServerHandle {
  const hostname = options.hostname ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const endpoint = new Endpoint(server, {
    maxBody: options.maxBodyBytes ?? 4 * 1024 * 1024,
    maxSessions: options.maxSessions ?? 100,
  });
  const guard = {
    hostname,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    token: options.token,
  };
  const http = Deno.serve({ hostname, port: options.port ?? 0, onListen: () => {} }, (request) => {
    // The guard reads Host before anything parses the URL built from it: a malformed Host is
    // a 400, never an exception.
    const refused = refuse(request, guard);
    if (refused) return refused;
    if (new URL(request.url).pathname !== path) return new Response("Not found\n", { status: 404 });
    return endpoint.handle(request);
  });
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  const url = new URL(`http://${shown}:${http.addr.port}${path}`);
  options.onListen?.(url);
  let closing: Promise<void> | undefined;
  const handle: HttpServerHandle = {
    url,
    close(): Promise<void> {
      closing ??= (async () => {
        endpoint.close();
        await http.shutdown();
      })();
      return closing;
    },
    [Symbol.asyncDispose]: () => handle.close(),
  };
  return handle;
}
