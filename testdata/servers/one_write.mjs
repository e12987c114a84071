// The fast fixture's answers, served the way real servers are: a Node.js process that parses each
// line as it arrives and answers it with its own process.stdout.write, as the official SDK's
// stdio server transport does. Beside testdata/servers/fast.ts (one write per stdin chunk), it
// shows what a client gets when answers arrive one by one. Usage: node testdata/servers/one_write.mjs

import { createInterface } from "node:readline";

const SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const TOOLS = [{
  name: "echo",
  description: "Echoes the text back.",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
}];

function result(method, params) {
  switch (method) {
    case "tools/call":
      return { content: [{ type: "text", text: String(params?.arguments?.text ?? "") }] };
    case "ping":
      return {};
    case "tools/list":
      return { tools: TOOLS };
    case "initialize": {
      const requested = params?.protocolVersion;
      return {
        protocolVersion: SUPPORTED_VERSIONS.includes(requested) ? requested : SUPPORTED_VERSIONS[0],
        capabilities: { tools: {} },
        serverInfo: { name: "one-write", version: "1.0.0" },
      };
    }
    default:
      return undefined;
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    const error = { code: -32700, message: "Parse error" };
    process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: null, error })}\n`);
    return;
  }
  const { id, method, params } = message;
  if (id === undefined || id === null || method === undefined) return;
  const answer = result(method, params);
  const reply = answer === undefined
    ? { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } }
    : { jsonrpc: "2.0", id, result: answer };
  process.stdout.write(`${JSON.stringify(reply)}\n`);
});
lines.on("close", () => process.exit(0));
