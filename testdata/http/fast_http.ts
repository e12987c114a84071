// A minimal, fast Streamable HTTP MCP server for the benchmark, in its own process so that it
// does not share an event loop with the clients. Stateless and dual-era: it answers initialize
// and server/discover alike. FAST_HTTP_MODE=sse answers with SSE streams instead of JSON.
// Prints its port on stdout once listening. Raw JSON-RPC: it shares no code with the client.

const sse = Deno.env.get("FAST_HTTP_MODE") === "sse";
const TOOL = {
  name: "echo",
  description: "Echoes the text back.",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};
const INFO = { name: "fast-http", version: "1.0.0" };

function answer(message: { id?: unknown; method?: string; params?: Record<string, unknown> }) {
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

Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(port),
}, async (req) => {
  if (req.method !== "POST") {
    await req.body?.cancel();
    return new Response(null, { status: 405 });
  }
  const message = await req.json();
  if (message.id === undefined) return new Response(null, { status: 202 });
  const body = JSON.stringify(answer(message));
  return sse
    ? new Response(`event: message\ndata: ${body}\n\n`, {
      headers: { "content-type": "text/event-stream" },
    })
    : new Response(body, { headers: { "content-type": "application/json" } });
});
