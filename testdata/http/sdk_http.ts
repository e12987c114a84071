// A test server built with the official SDK v2 (`@modelcontextprotocol/server` 2.4.0), served over
// Streamable HTTP on Deno.serve through its web-standard handler. `legacy: "stateless"` makes it
// dual-era; `legacy: "reject"` makes it modern-only.

import {
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  McpServer,
} from "@modelcontextprotocol/server";

type Json = Record<string, unknown>;

function server(): McpServer {
  const mcp = new McpServer({ name: "sdk-server", version: "2.4.0" });
  mcp.registerTool("echo", {
    description: "Echoes the text back.",
    inputSchema: fromJsonSchema<{ text: string }>({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    }),
  }, ({ text }) => ({ content: [{ type: "text", text }] }));
  mcp.registerTool("add", {
    description: "Adds two numbers.",
    inputSchema: fromJsonSchema<{ a: number; b: number }>({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    }),
    outputSchema: fromJsonSchema<{ sum: number }>({
      type: "object",
      properties: { sum: { type: "number" } },
      required: ["sum"],
    }),
  }, ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
    structuredContent: { sum: a + b },
  }));
  // The SDK's typings pin the callback to its own shapes; this fixture only needs the runtime.
  // deno-lint-ignore no-explicit-any
  const confirm: any = (_args: unknown, ctx: { mcpReq?: { inputResponses?: Json } }) => {
    const answer = ctx?.mcpReq?.inputResponses?.ok as { content?: Json } | undefined;
    if (!answer) {
      return inputRequired({
        inputRequests: {
          ok: inputRequired.elicit({
            message: "Proceed?",
            requestedSchema: fromJsonSchema({
              type: "object",
              properties: { sure: { type: "boolean", default: true } },
            }),
          }),
        },
      });
    }
    return { content: [{ type: "text", text: `confirmed: ${JSON.stringify(answer.content)}` }] };
  };
  mcp.registerTool("confirm", {
    description: "Asks for confirmation through an input request (multi round-trip).",
    inputSchema: fromJsonSchema({ type: "object", properties: {} }),
  }, confirm);
  return mcp;
}

/** Serves the SDK server on a random loopback port. */
export function serveSdk(legacy: "stateless" | "reject") {
  const handler = createMcpHandler(() => server(), { legacy });
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => handler.fetch(req),
  );
  return {
    url: `http://127.0.0.1:${http.addr.port}/mcp`,
    async [Symbol.asyncDispose]() {
      await handler.close();
      await http.shutdown();
    },
  };
}
