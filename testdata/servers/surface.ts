// A fake MCP server in three versions of its surface, for snapshot and diff tests.
// Usage: deno run --allow-all testdata/servers/surface.ts [1|2|3]
//   2 makes one change of every kind (breaking and compatible); 3 only compatible ones.

import { exit, negotiate, type Params, RpcError, serve } from "./_wire.ts";

const version = Number(Deno.args[0] ?? "1");

function tools(): Params[] {
  const search: Params = {
    name: "search",
    description: "Searches the index.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string" },
        limit: { type: ["integer", "string"] },
        order: { type: "string", enum: ["asc", "desc", "relevance"] },
      },
      required: ["query"],
    },
  };
  const list: Params[] = [search, {
    name: "stats",
    description: "Index statistics.",
    inputSchema: { type: "object", properties: {} },
    outputSchema: {
      type: "object",
      properties: { documents: { type: "integer" } },
      required: ["documents"],
    },
  }];
  if (version === 1) return [...list, { name: "purge", inputSchema: { type: "object" } }];
  const props = (search.inputSchema as { properties: Params }).properties;
  if (version === 2) {
    props.limit = { type: "integer" }; // narrowed type
    props.order = { type: "string", enum: ["asc", "desc"] }; // narrowed enum
    props.index = { type: "string" }; // new required property
    (search.inputSchema as Params).required = ["query", "index"];
  }
  props.highlight = { type: "boolean" }; // new optional property
  search.description = "Searches the whole index."; // changed description
  const reindex = { name: "reindex", inputSchema: { type: "object" } }; // added
  const purge = { name: "purge", inputSchema: { type: "object" } };
  return version === 2 ? [...list, reindex] : [...list, purge, reindex]; // 2 removes purge
}

const prompts = () => [{
  name: "summarize",
  arguments: [
    { name: "topic", required: true },
    ...(version === 2 ? [{ name: "style", required: true }] : []),
  ],
}];

const resources = () =>
  version === 2
    ? [{ uri: "index://stats", name: "stats" }]
    : [{ uri: "index://stats", name: "stats" }, { uri: "index://log", name: "log" }];

await serve({
  onRequest: ({ method, params }) => {
    switch (method) {
      case "initialize":
        return Promise.resolve({
          protocolVersion: negotiate(params?.protocolVersion),
          capabilities: { tools: {}, resources: {}, prompts: {} },
          serverInfo: { name: "fake-surface", version: `${version}.0.0` },
        });
      case "ping":
        return Promise.resolve({});
      case "tools/list":
        return Promise.resolve({ tools: tools() });
      case "prompts/list":
        return Promise.resolve({ prompts: prompts() });
      case "resources/list":
        return Promise.resolve({ resources: resources() });
      case "resources/templates/list":
        return Promise.resolve({ resourceTemplates: [] });
      default:
        throw new RpcError(-32601, `Method not found: ${method}`);
    }
  },
});
await exit(0);
