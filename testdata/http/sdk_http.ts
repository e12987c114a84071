// The server of testdata/servers/sdk_modern.ts (official SDK v2, `@modelcontextprotocol/server`
// 2.4.0) served over Streamable HTTP on Deno.serve through the SDK's web-standard handler,
// `createMcpHandler`. `legacy: "reject"` makes it modern-only; `legacy: "stateless"` makes it
// dual-era, answering each 2025-era request with a fresh instance and no session.

import { createMcpHandler, type McpHttpHandler } from "@modelcontextprotocol/server";
import { sdkServer } from "../servers/sdk_modern.ts";

/** A running SDK server; disposing it stops the handler and the listener. */
export interface SdkHttpServer extends AsyncDisposable {
  /** The MCP endpoint. */
  url: string;
  /** The SDK's handler, to publish change events to `subscriptions/listen` streams. */
  handler: McpHttpHandler;
}

/** Serves the SDK server on a free loopback port. */
export function serveSdk(legacy: "stateless" | "reject"): SdkHttpServer {
  const handler = createMcpHandler(sdkServer, { legacy });
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => handler.fetch(req),
  );
  return {
    url: `http://127.0.0.1:${http.addr.port}/mcp`,
    handler,
    async [Symbol.asyncDispose]() {
      // The handler first: it ends open subscriptions/listen streams, which would otherwise keep
      // shutdown() waiting for their responses to finish.
      await handler.close();
      await http.shutdown();
    },
  };
}
