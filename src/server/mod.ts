/**
 * The server side: a small MCP server of both eras ({@link McpServer}) over stdio or Streamable
 * HTTP ({@link serveHttp}, loopback-only with Host and Origin checks and a token), and the proxy
 * that serves every server of a manager as one ({@link createProxyServer}).
 *
 * @example Serving one tool on stdio
 * ```ts ignore
 * import { McpServer, StdioServerTransport } from "@mcp-inspect/client/server";
 *
 * const server = new McpServer({
 *   serverInfo: { name: "hello", version: "1.0.0" },
 *   capabilities: { tools: {} },
 *   handlers: {
 *     "tools/list": () => ({ tools: [{ name: "hi", inputSchema: { type: "object" } }] }),
 *     "tools/call": () => ({ content: [{ type: "text", text: "hello" }] }),
 *   },
 * });
 * await server.serve(new StdioServerTransport());
 * ```
 *
 * @module
 */

export { type SubscriptionHooks } from "./_subscriptions.ts";
export { type HttpServerHandle, serveHttp, type ServeHttpOptions } from "./http.ts";
export { createProxyServer, type ProxyOptions, type ProxyServer } from "./proxy.ts";
export { ServerRequestRelay } from "./relay.ts";
export {
  McpServer,
  type McpServerConnection,
  type ServerDefinition,
  type ServerRequestContext,
  type ServerRequestHandler,
} from "./server.ts";
export { StdioServerTransport, type StdioServerTransportOptions } from "./stdio.ts";
