// A fake MCP server that commits one protocol fault in its answer to tools/list, so that tests
// can see each fault reported (and a pending request failed at once where the fault names it).
// Usage: deno run --allow-all testdata/servers/faults.ts <fault>
//   faults: error-without-code, jsonrpc-1.0, result-not-object (the answer is malformed: the
//   request must fail at once); null-id-error, unknown-id, duplicate, garbage (the answer is
//   fine, but something else arrives with it).

import {
  exit,
  log,
  negotiate,
  NO_RESPONSE,
  type Params,
  RpcError,
  serve,
  writeLine,
} from "./_wire.ts";

const FAULTS = [
  "error-without-code",
  "jsonrpc-1.0",
  "result-not-object",
  "null-id-error",
  "unknown-id",
  "duplicate",
  "garbage",
];
const fault = Deno.args[0] ?? "";
if (!FAULTS.includes(fault)) {
  log(`Unknown fault "${fault}": expected one of ${FAULTS.join(", ")}`);
  Deno.exit(2);
}

const TOOLS = { tools: [{ name: "echo", inputSchema: { type: "object" } }] };
const line = (message: Params) => writeLine(JSON.stringify(message));
const good = (id: unknown) => line({ jsonrpc: "2.0", id, result: TOOLS });

async function listTools(id: unknown): Promise<void> {
  switch (fault) {
    case "error-without-code":
      return await line({ jsonrpc: "2.0", id, error: { message: "no code here" } });
    case "jsonrpc-1.0":
      return await line({ jsonrpc: "1.0", id, result: TOOLS });
    case "result-not-object":
      return await line({ jsonrpc: "2.0", id, result: 5 });
    case "null-id-error":
      await line({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      return await good(id);
    case "unknown-id":
      await line({ jsonrpc: "2.0", id: 9999, result: TOOLS });
      return await good(id);
    case "duplicate":
      await good(id);
      return await good(id);
    case "garbage":
      await writeLine("Server starting... (this is not JSON)");
      return await good(id);
  }
}

await serve({
  onRequest: async ({ id, method, params }) => {
    switch (method) {
      case "initialize":
        return {
          protocolVersion: negotiate(params?.protocolVersion),
          capabilities: { tools: {} },
          serverInfo: { name: "fake-faults", version: "1.0.0" },
        };
      case "ping":
        return {};
      case "tools/list":
        await listTools(id);
        return NO_RESPONSE;
      default:
        throw new RpcError(-32601, `Method not found: ${method}`);
    }
  },
});
await exit(0);
