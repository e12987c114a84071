// The answers of the benchmarks' fast MCP server (fast_http.ts), for any transport that hands it
// a JSON-RPC message: stateless and dual-era, initialize and server/discover answered alike, one
// tool, "echo". Raw JSON-RPC: it shares no code with the client.

const TOOL = {
  name: "echo",
  description: "Echoes the text back.",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};
const INFO = { name: "fast-http", version: "1.0.0" };

/** The answer to `message`: a result, or "method not found". */
export function answer(
  message: { id?: unknown; method?: string; params?: Record<string, unknown> },
) {
  const modern = (message.params?._meta as Record<string, unknown> | undefined)?.[
    "io.modelcontextprotocol/protocolVersion"
  ] !== undefined;
  const done = (result: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id: message.id,
    result: modern ? { resultType: "complete", ...result } : result,
  });
  switch (message.method) {
    case "initialize":
      return done({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: INFO });
    case "server/discover":
      return done({
        supportedVersions: ["2026-07-28", "2025-11-25"],
        capabilities: { tools: {} },
        _meta: { "io.modelcontextprotocol/serverInfo": INFO },
      });
    case "tools/list":
      return done(modern ? { tools: [TOOL], ttlMs: 0, cacheScope: "private" } : { tools: [TOOL] });
    case "tools/call": {
      const args = (message.params?.arguments ?? {}) as { text?: string };
      return done({ content: [{ type: "text", text: args.text ?? "" }] });
    }
    case "ping":
      return done({});
    default:
      return {
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32601, message: "Method not found" },
      };
  }
}
