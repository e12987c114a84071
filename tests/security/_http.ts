// Raw HTTP/1.1 over a socket, where Host, Origin and the body can be anything a hostile client
// sends (fetch would normalise or refuse them).

import { McpServer, serveHttp, type ServeHttpOptions } from "../../src/server/mod.ts";

/** A tiny MCP server over HTTP with one tool, for guard tests. */
export function tinyHttpServer(options: ServeHttpOptions = {}) {
  const server = new McpServer({
    serverInfo: { name: "tiny", version: "1.0.0" },
    capabilities: { tools: {} },
    handlers: { "tools/list": () => ({ tools: [] }) },
  });
  return serveHttp(server, { port: 0, ...options });
}

/** The head of a raw request's answer: status and body text (read to the end). */
export async function rawRequest(
  url: URL,
  headers: Record<string, string>,
  body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }),
  method = "POST",
): Promise<{ status: number; text: string }> {
  const conn = await Deno.connect({
    hostname: url.hostname.replace(/^\[|\]$/g, ""),
    port: Number(url.port),
  });
  try {
    const head = [
      `${method} ${url.pathname} HTTP/1.1`,
      ...Object.entries({
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Content-Length": String(new TextEncoder().encode(body).length),
        Connection: "close",
        ...headers,
      }).map(([name, value]) => `${name}: ${value}`),
    ];
    await conn.write(new TextEncoder().encode(`${head.join("\r\n")}\r\n\r\n${body}`));
    const text = await new Response(conn.readable).text();
    return { status: Number(text.split(" ")[1]), text };
  } catch (error) {
    try {
      conn.close();
    } catch {
      // closed by the readable already
    }
    throw error;
  }
}
