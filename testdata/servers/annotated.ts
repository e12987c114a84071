// A fake MCP server whose tools carry annotations (read-only, destructive, none), for the
// registry and its result cache. Every tool result says how many calls this process has
// answered, so a test can tell whether a call reached the server. It also offers two resources
// of its own, and `grow` adds a tool and announces the changed list.
// Usage: deno run --allow-all testdata/servers/annotated.ts

import { exit, negotiate, type Params, RpcError, send, serve, text } from "./_wire.ts";

const OBJECT: Params = { type: "object", properties: { key: { type: "string" } } };

const TOOLS: Params[] = [
  {
    name: "lookup",
    description: "Reads a value; changes nothing.",
    inputSchema: OBJECT,
    annotations: { title: "Look up", readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "delete_item",
    description: "Deletes an item.",
    inputSchema: OBJECT,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  },
  { name: "plain", description: "Says nothing about itself.", inputSchema: OBJECT },
  {
    name: "grow",
    description: "Adds a tool and announces the changed list.",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: false, destructiveHint: false },
  },
];

const RESOURCES: Params[] = [
  { uri: "notes://annotated/first", name: "first", mimeType: "text/plain" },
  { uri: "notes://annotated/logo", name: "logo", mimeType: "image/png" },
];

const CONTENTS: Record<string, Params> = {
  "notes://annotated/first": { mimeType: "text/plain", text: "The first note." },
  "notes://annotated/logo": { mimeType: "image/png", blob: "iVBORw0KGgo=" },
};

let calls = 0;

function callTool(params: Params): Params {
  const name = String(params.name);
  if (!TOOLS.some((tool) => tool.name === name)) {
    throw new RpcError(-32602, `Unknown tool: ${name}`);
  }
  calls++;
  if (name === "grow") {
    TOOLS.push({ name: `extra_${calls}`, description: "Added by grow.", inputSchema: OBJECT });
    void send({ method: "notifications/tools/list_changed" });
  }
  const key = String((params.arguments as Params | undefined)?.key ?? "");
  return { ...text(`${name} ${key} #${calls}`), structuredContent: { tool: name, key, calls } };
}

function readResource(params: Params): Params {
  const uri = String(params.uri);
  const content = Object.hasOwn(CONTENTS, uri) ? CONTENTS[uri] : undefined;
  if (!content) throw new RpcError(-32002, "Resource not found", { uri });
  return { contents: [{ uri, ...content }] };
}

const METHODS: Record<string, (params: Params) => Params> = {
  "initialize": (params) => ({
    protocolVersion: negotiate(params.protocolVersion),
    capabilities: { tools: { listChanged: true }, resources: {} },
    serverInfo: { name: "fake-annotated", version: "1.0.0" },
  }),
  "ping": () => ({}),
  "tools/list": () => ({ tools: TOOLS }),
  "tools/call": callTool,
  "resources/list": () => ({ resources: RESOURCES }),
  "resources/templates/list": () => ({ resourceTemplates: [] }),
  "resources/read": readResource,
};

await serve({
  onRequest: ({ method, params }) => {
    const run = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
    if (!run) return Promise.reject(new RpcError(-32601, `Method not found: ${method}`));
    return Promise.resolve().then(() => run(params ?? {}));
  },
});
await exit(0);
