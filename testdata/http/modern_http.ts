// A fake Streamable HTTP server of revision 2026-07-28, as a Deno.serve handler. It records the
// headers of every request, rejects a wrong header with 400 HeaderMismatch, and breaks the first
// response stream of the tool "flaky" so the client must re-issue the request.
// Raw JSON-RPC: it shares no code with the client.

type Json = Record<string, unknown>;

export interface ModernHttpFake {
  handler: (req: Request) => Promise<Response>;
  /** Headers of each POST, by JSON-RPC method. */
  seen: { method: string; id: unknown; headers: Headers }[];
}

const TOOLS = [
  {
    name: "lookup",
    inputSchema: {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        limit: { type: "integer", "x-mcp-header": "Limit" },
        query: { type: "string" },
      },
    },
  },
  { name: "flaky", inputSchema: { type: "object" } },
  {
    name: "bad_number",
    inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } },
  },
  {
    name: "bad_nested",
    inputSchema: {
      type: "object",
      properties: { a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } },
    },
  },
];

export function modernHttpFake(options: { supported?: string[] } = {}): ModernHttpFake {
  const supported = options.supported ?? ["2026-07-28"];
  const seen: ModernHttpFake["seen"] = [];
  let flakyCalls = 0;
  const json = (body: Json, status = 200) => Response.json(body, { status });
  const result = (id: unknown, value: Json) =>
    json({ jsonrpc: "2.0", id, result: { resultType: "complete", ...value } });

  const handler = async (req: Request): Promise<Response> => {
    if (req.method !== "POST") {
      await req.body?.cancel();
      return new Response(null, { status: 405 });
    }
    const message = await req.json() as Json;
    const params = (message.params ?? {}) as Json;
    const version = ((params._meta ?? {}) as Json)["io.modelcontextprotocol/protocolVersion"];
    seen.push({ method: String(message.method), id: message.id, headers: req.headers });
    if (message.id === undefined) return new Response(null, { status: 202 });
    if (typeof version !== "string" || !supported.includes(version)) {
      return json({
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: -32022,
          message: "Unsupported protocol version",
          data: { supported, requested: version },
        },
      }, 400);
    }
    if (req.headers.get("mcp-method") !== message.method) {
      return json({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32020, message: "Mcp-Method does not match" },
      }, 400);
    }
    switch (message.method) {
      case "server/discover":
        return result(message.id, {
          supportedVersions: supported,
          capabilities: { tools: {} },
          _meta: {
            "io.modelcontextprotocol/serverInfo": { name: "modern-http", version: "1.0.0" },
          },
        });
      case "tools/list":
        return result(message.id, { tools: TOOLS, ttlMs: 0, cacheScope: "private" });
      case "tools/call": {
        if (params.name === "flaky" && ++flakyCalls === 1) {
          // An SSE stream that ends before its response: the request is lost.
          return new Response("event: message\ndata: \n\n", {
            headers: { "content-type": "text/event-stream" },
          });
        }
        const args = (params.arguments ?? {}) as Json;
        return result(message.id, {
          content: [{ type: "text", text: `${params.name} ${JSON.stringify(args)}` }],
        });
      }
      default:
        return json({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32601, message: "Method not found" },
        });
    }
  };
  return { handler, seen };
}
