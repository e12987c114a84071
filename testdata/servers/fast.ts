// A minimal fake MCP server tuned for throughput, so a benchmark measures the client rather
// than the server. Usage: deno run --allow-all testdata/servers/fast.ts
//
// Self-contained on purpose (no _wire.ts): it splits lines on raw bytes, handles each message
// synchronously, and answers everything produced by one stdin chunk with a single write.

const SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const NEWLINE = 0x0a;

interface Message {
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
}

const TOOLS = JSON.stringify([{
  name: "echo",
  description: "Echoes the text back.",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
}]);

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The reply line for one message, or "" for notifications and client responses. */
function answer(line: Uint8Array): string {
  let message: Message;
  try {
    message = JSON.parse(decoder.decode(line));
  } catch {
    return `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n`;
  }
  const { id, method, params } = message;
  if (id === undefined || id === null || method === undefined) return "";
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},`;
  switch (method) {
    case "tools/call": {
      const args = (params?.arguments ?? {}) as Record<string, unknown>;
      const text = JSON.stringify(String(args.text ?? ""));
      return `${head}"result":{"content":[{"type":"text","text":${text}}]}}\n`;
    }
    case "ping":
      return `${head}"result":{}}\n`;
    case "tools/list":
      return `${head}"result":{"tools":${TOOLS}}}\n`;
    case "initialize": {
      const requested = params?.protocolVersion;
      const version = typeof requested === "string" && SUPPORTED_VERSIONS.includes(requested)
        ? requested
        : SUPPORTED_VERSIONS[0];
      const result = {
        protocolVersion: version,
        capabilities: { tools: {} },
        serverInfo: { name: "fast", version: "1.0.0" },
      };
      return `${head}"result":${JSON.stringify(result)}}\n`;
    }
    default: {
      const error = { code: -32601, message: `Method not found: ${method}` };
      return `${head}"error":${JSON.stringify(error)}}\n`;
    }
  }
}

/** Deno.stdout.write may write fewer bytes than asked on a full pipe. */
async function writeAll(bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await Deno.stdout.write(bytes.subarray(offset));
}

let rest: Uint8Array = new Uint8Array(0);
for await (const chunk of Deno.stdin.readable) {
  // Only copy when a line straddles two chunks; the common case scans the chunk in place.
  let buffer = chunk;
  if (rest.length > 0) {
    buffer = new Uint8Array(rest.length + chunk.length);
    buffer.set(rest);
    buffer.set(chunk, rest.length);
  }
  let out = "";
  let start = 0;
  for (let end = buffer.indexOf(NEWLINE); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
    if (end > start) out += answer(buffer.subarray(start, end));
    start = end + 1;
  }
  rest = buffer.slice(start);
  // Awaiting before the next read keeps replies ordered and applies backpressure.
  if (out !== "") await writeAll(encoder.encode(out));
}
Deno.exit(0);
