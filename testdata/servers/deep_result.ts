// A fake MCP server whose one tool, `deep`, answers with structured content nested 200 000 levels
// deep: a hostile server, to show that the CLI prints what it got instead of overflowing its stack.
// Usage: deno run --allow-all testdata/servers/deep_result.ts

import { exit, negotiate, type Params, RpcError, serve } from "./_wire.ts";

const DEPTH = 200_000;

await serve({
  onRequest: ({ method, params }) => {
    switch (method) {
      case "initialize":
        return Promise.resolve({
          protocolVersion: negotiate((params as Params | undefined)?.protocolVersion),
          capabilities: { tools: {} },
          serverInfo: { name: "fake-deep-result", version: "1.0.0" },
        });
      case "tools/list":
        return Promise.resolve({
          tools: [{ name: "deep", inputSchema: { type: "object", properties: {} } }],
        });
      case "tools/call":
        return Promise.resolve({
          content: [{ type: "text", text: "deep" }],
          structuredContent: { deep: JSON.parse(`${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`) },
        });
      default:
        throw new RpcError(-32601, `Method not found: ${method}`);
    }
  },
});
await exit(0);
