// A server built with the official SDK v2 (`@modelcontextprotocol/server` 2.4.0) that speaks only
// the modern era (2026-07-28) over stdio: `initialize` is answered with the SDK's
// unsupported-protocol-version error. Its factory, `sdkServer`, also backs sdk_dual.ts and the
// Streamable HTTP server in testdata/http/sdk_http.ts, so every transport serves the same surface.
// Usage: deno run --allow-all --config deno.json testdata/servers/sdk_modern.ts

import {
  acceptedContent,
  type CallToolResult,
  fromJsonSchema,
  inputRequired,
  type JsonSchemaType,
  type JsonSchemaValidator,
  McpServer,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

export const SDK_SERVER_INFO = { name: "sdk-server", version: "2.4.0" } as const;

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });

const SUM_SCHEMA: JsonSchemaType = {
  type: "object",
  properties: { sum: { type: "number" } },
  required: ["sum"],
};

// The SDK checks structuredContent against the outputSchema before it sends a result, so a
// well-behaved SDK server can never send a mismatch. A validator that accepts anything lets the
// "mislabeled" tool advertise one shape and send another, which is what the client must catch.
const acceptAnything = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** A fresh server instance; the SDK's serving entries call it per connection or per request. */
export function sdkServer(): McpServer {
  const mcp = new McpServer(SDK_SERVER_INFO, {
    capabilities: { logging: {} },
    instructions: "A test server built on the official SDK.",
  });

  mcp.registerTool("echo", {
    description: "Echoes the text back.",
    inputSchema: fromJsonSchema<{ text: string }>({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    }),
  }, ({ text: value }) => text(value));

  mcp.registerTool("add", {
    description: "Adds two numbers, with the sum as structured content.",
    inputSchema: fromJsonSchema<{ a: number; b: number }>({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    }),
    outputSchema: fromJsonSchema<{ sum: number }>(SUM_SCHEMA),
  }, ({ a, b }) => ({ ...text(String(a + b)), structuredContent: { sum: a + b } }));

  // Over Streamable HTTP in the modern era the SDK rejects a call whose Mcp-Param-Region and
  // Mcp-Param-Limit headers are missing or disagree with the arguments (spec:
  // basic/transports/streamable-http, "Custom Headers from Tool Parameters").
  // The SDK's JSON Schema type does not know the keyword, hence the schema is built apart.
  const lookupSchema = {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      limit: { type: "integer", "x-mcp-header": "Limit" },
      query: { type: "string" },
    },
    required: ["region", "query"],
  };
  mcp.registerTool("lookup", {
    description: "Looks something up in a region; region and limit also travel as headers.",
    inputSchema: fromJsonSchema<{ region: string; limit?: number; query: string }>(
      lookupSchema as JsonSchemaType,
    ),
  }, ({ region, limit, query }) => text(`${query} in ${region}, at most ${limit ?? "all"}`));

  mcp.registerTool("mislabeled", {
    description: "Declares a numeric sum but returns a string one.",
    inputSchema: fromJsonSchema<Record<string, never>>({ type: "object", properties: {} }),
    outputSchema: fromJsonSchema<{ sum: number }>(SUM_SCHEMA, acceptAnything),
  }, () => ({ ...text("forty-two"), structuredContent: { sum: "forty-two" } }));

  // Multi round-trip (spec: basic/patterns/mrtr): the first round returns input_required, the
  // retry carries the answer. On a legacy connection the SDK's shim turns the same return into a
  // real elicitation/create request, so the tool is written once for both eras.
  mcp.registerTool("confirm", {
    description: "Asks the user to confirm, through an elicitation input request.",
    inputSchema: fromJsonSchema<{ action: string }>({
      type: "object",
      properties: { action: { type: "string" } },
      required: ["action"],
    }),
  }, ({ action }, ctx) => {
    const answer = acceptedContent<{ sure?: boolean }>(ctx.mcpReq.inputResponses, "confirm");
    if (!answer) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: `Really ${action}?`,
            requestedSchema: {
              type: "object",
              properties: { sure: { type: "boolean", default: false } },
            },
          }),
        },
      });
    }
    return text(answer.sure ? `${action}: done` : `${action}: cancelled`);
  });

  mcp.registerTool("summarize", {
    description: "Asks the client's model for a summary, through a sampling input request.",
    inputSchema: fromJsonSchema<{ topic: string }>({
      type: "object",
      properties: { topic: { type: "string" } },
      required: ["topic"],
    }),
  }, ({ topic }, ctx) => {
    const reply = ctx.mcpReq.inputResponses?.summary as { content?: { text?: string } } | undefined;
    if (!reply) {
      return inputRequired({
        inputRequests: {
          summary: inputRequired.createMessage({
            messages: [{ role: "user", content: { type: "text", text: `Summarize ${topic}` } }],
            maxTokens: 50,
          }),
        },
      });
    }
    return text(`summary: ${reply.content?.text ?? "(none)"}`);
  });

  mcp.registerTool("count", {
    description: "Counts to n, reporting progress and logging each step.",
    inputSchema: fromJsonSchema<{ n: number }>({
      type: "object",
      properties: { n: { type: "integer", minimum: 1 } },
      required: ["n"],
    }),
  }, async ({ n }, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (let i = 1; i <= n; i++) {
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken, progress: i, total: n, message: `step ${i}` },
        });
      }
      await ctx.mcpReq.log(i === n ? "warning" : "info", `step ${i} of ${n}`, "count");
    }
    return text(`counted to ${n}`);
  });

  // Enabling a tool makes the SDK announce a changed list: straight to the client in the legacy
  // era, on the open subscriptions/listen streams in the modern one. Only a stdio connection
  // keeps one instance; over HTTP each request gets a fresh one, which forgets the change.
  const secret = mcp.registerTool("secret", {
    description: "Hidden until unlocked.",
  }, () => text("the secret"));
  secret.disable();
  mcp.registerTool("unlock", { description: "Reveals the secret tool." }, () => {
    secret.enable();
    return text("unlocked");
  });

  mcp.registerResource(
    "readme",
    "sdk://readme",
    {
      title: "Read me",
      description: "A static text resource.",
      mimeType: "text/plain",
    },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: "Hello from the SDK." }],
    }),
  );

  mcp.registerPrompt("greet", {
    description: "Greets someone by name.",
    argsSchema: fromJsonSchema<{ name: string }>({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    }),
  }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Please greet ${name}.` } }],
  }));

  return mcp;
}

if (import.meta.main) {
  serveStdio(sdkServer, { legacy: "reject" });
}
