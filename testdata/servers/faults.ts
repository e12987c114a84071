// A fake MCP server that commits one protocol fault in its answer to tools/list, so that tests
// can see each fault reported (and a pending request failed at once where the fault names it).
// Usage: deno run --allow-all testdata/servers/faults.ts <fault> [--modern]
//   faults: error-without-code, jsonrpc-1.0, result-not-object (the answer is malformed: the
//   request must fail at once); null-id-error, unknown-id, duplicate, garbage (the answer is
//   fine, but something else arrives with it); garbage-then-silence (a line that is not JSON,
//   then no answer to anything, not even the handshake).
//   --modern: speak the 2026-07-28 era (server/discover, stateless requests) instead of the
//   initialize handshake, so that the faults are seen to reach the same session code.

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
  "garbage-then-silence",
];
const [fault = "", era] = Deno.args;
if (!FAULTS.includes(fault) || (era !== undefined && era !== "--modern")) {
  log(`Unknown fault "${Deno.args.join(" ")}": expected one of ${FAULTS.join(", ")} [--modern]`);
  Deno.exit(2);
}
const modern = era === "--modern";
const SERVER_INFO = { name: "fake-faults", version: "1.0.0" };
/** A modern result says it is complete and names its server in _meta. */
const finished = (result: Params): Params =>
  modern
    ? {
      resultType: "complete",
      ...result,
      _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
    }
    : result;

if (fault === "garbage-then-silence") {
  await writeLine("Server starting... (this is not JSON)");
  for await (const _ of Deno.stdin.readable) {
    // read and never answer
  }
  Deno.exit(0);
}

const TOOLS = finished({ tools: [{ name: "echo", inputSchema: { type: "object" } }] });
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
    case "duplicate": {
      // Both copies in one write, so that no later answer (to the client's next request) can
      // come between them.
      const answer = JSON.stringify({ jsonrpc: "2.0", id, result: TOOLS });
      return await writeLine(`${answer}\n${answer}`);
    }
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
          serverInfo: SERVER_INFO,
        };
      case "server/discover":
        if (!modern) throw new RpcError(-32601, `Method not found: ${method}`);
        return finished({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} } });
      case "ping":
        return finished({});
      case "tools/list":
        await listTools(id);
        return NO_RESPONSE;
      default:
        throw new RpcError(-32601, `Method not found: ${method}`);
    }
  },
});
await exit(0);
