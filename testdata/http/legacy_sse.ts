// A fake MCP server speaking only the HTTP+SSE transport of 2024-11-05, as a Deno.serve handler.
// GET /sse opens the stream and announces the POST endpoint; answers arrive on the stream; any
// other POST is 405, as an old server would answer a Streamable HTTP client.
// Raw JSON-RPC: it shares no code with the client.

export interface LegacyOptions {
  /** Announce this endpoint instead of /messages (e.g. one on another origin). */
  endpoint?: string;
  /** Never announce an endpoint. */
  silent?: boolean;
  /** Close the SSE stream when a tools/call for this tool arrives. */
  closeOnTool?: string;
  /** Awaited before each tools/call POST is handled and accepted: lets a test hold POSTs. */
  beforeCall?: (name: string) => Promise<void>;
}

type Json = Record<string, unknown>;

export function legacySseHandler(options: LegacyOptions = {}): (req: Request) => Promise<Response> {
  const streams = new Map<string, ReadableStreamDefaultController<Uint8Array>>();
  const encoder = new TextEncoder();
  let next = 0;

  const push = (session: string, message: Json) => {
    streams.get(session)?.enqueue(
      encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`),
    );
  };

  const answer = (session: string, message: Json) => {
    const { id, method } = message as { id?: unknown; method: string };
    if (id === undefined) return;
    const params = (message.params ?? {}) as Json;
    let result: Json | undefined;
    if (method === "initialize") {
      result = {
        protocolVersion: "2024-11-05",
        capabilities: { tools: {} },
        serverInfo: { name: "legacy-sse", version: "0.1.0" },
      };
    } else if (method === "ping") {
      result = {};
    } else if (method === "tools/list") {
      result = {
        tools: [{
          name: "echo",
          description: "Echoes the text back.",
          inputSchema: {
            type: "object",
            properties: { text: { type: "string" } },
            required: ["text"],
          },
        }],
      };
    } else if (method === "tools/call") {
      const name = params.name as string;
      if (name === options.closeOnTool) {
        const stream = streams.get(session);
        streams.delete(session);
        stream?.close();
        return;
      }
      const args = (params.arguments ?? {}) as Json;
      result = { content: [{ type: "text", text: String(args.text ?? "") }] };
    }
    push(
      session,
      result === undefined
        ? { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } }
        : { jsonrpc: "2.0", id, result },
    );
  };

  return async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET" && url.pathname === "/sse") {
      const session = String(++next);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          streams.set(session, controller);
          if (!options.silent) {
            const endpoint = options.endpoint ?? `/messages?sessionId=${session}`;
            controller.enqueue(encoder.encode(`event: endpoint\ndata: ${endpoint}\n\n`));
          }
        },
        cancel() {
          streams.delete(session);
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    if (req.method === "POST" && url.pathname === "/messages") {
      const session = url.searchParams.get("sessionId") ?? "";
      if (!streams.has(session)) return new Response("Unknown session", { status: 404 });
      const message = await req.json();
      if (message.method === "tools/call" && options.beforeCall) {
        await options.beforeCall(String(message.params?.name));
      }
      answer(session, message);
      return new Response("Accepted", { status: 202 });
    }
    await req.body?.cancel();
    return new Response("Method Not Allowed", { status: 405 });
  };
}
