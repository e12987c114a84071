// A fake MCP server whose one tool, `meta`, answers with the `_meta` of its own request, so tests
// can see what a client or proxy put there (trace context, progress tokens).
// Usage: deno run --allow-all testdata/servers/meta_echo.ts

import { exit, negotiate, type Params, RpcError, serve, text } from "./_wire.ts";

await serve({
  onRequest: ({ method, params }) => {
    switch (method) {
      case "initialize":
        return Promise.resolve({
          protocolVersion: negotiate(params?.protocolVersion),
          capabilities: { tools: {} },
          serverInfo: { name: "fake-meta-echo", version: "1.0.0" },
        });
      case "ping":
        return Promise.resolve({});
      case "tools/list":
        return Promise.resolve({
          tools: [{ name: "meta", inputSchema: { type: "object", properties: {} } }],
        });
      case "tools/call":
        return Promise.resolve(text(JSON.stringify((params as Params)._meta ?? {})));
      default:
        throw new RpcError(-32601, `Method not found: ${method}`);
    }
  },
});
await exit(0);
