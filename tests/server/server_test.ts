import assert from "node:assert/strict";
import {
  Client,
  ConnectionClosedError,
  McpError,
  MemoryTransport,
  StreamableHttpTransport,
} from "../../mod.ts";
import { McpServer, serveHttp } from "../../src/server/mod.ts";
import { rejectsWith } from "../_helpers.ts";

function hello(): McpServer {
  return new McpServer({
    serverInfo: { name: "hello", version: "1.0.0" },
    capabilities: {},
    handlers: {},
  });
}

Deno.test("McpServer.closeAll() ends serve() and closes its transport: the client learns at once", async () => {
  const server = hello();
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const served = server.serve(serverEnd);
  const client = await Client.connect(clientEnd);
  const closed = Promise.withResolvers<Error>();
  client.on("close", closed.resolve);
  await client.ping();

  server.closeAll();
  await served;
  assert.ok((await closed.promise) instanceof ConnectionClosedError);
  await rejectsWith(client.ping(), ConnectionClosedError);
  assert.equal(server.connectionCount, 0);
  await client.close();
});

Deno.test("McpServer.serve() still ends when the client hangs up, with the server's other connections open", async () => {
  const server = hello();
  const other = server.open();
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const served = server.serve(serverEnd);
  const client = await Client.connect(clientEnd);
  await client.close();
  await served;
  assert.equal(server.connectionCount, 1);
  other.close();
  assert.equal(server.connectionCount, 0);
});

/** A server whose tool `wait` answers only when its request is aborted (then with an error). */
function waiting(started: () => void): McpServer {
  return new McpServer({
    serverInfo: { name: "waiting", version: "1.0.0" },
    capabilities: { tools: {} },
    handlers: {
      "tools/list": () => ({ tools: [{ name: "wait", inputSchema: { type: "object" } }] }),
      "tools/call": (_params, context) =>
        new Promise((_resolve, reject) => {
          started();
          context.signal.addEventListener("abort", () => reject(context.signal.reason));
        }),
    },
  });
}

for (const protocol of ["legacy", "modern"] as const) {
  for (const openServerStream of [false, true]) {
    const how = `${protocol}${openServerStream ? ", with a GET stream" : ""}`;
    Deno.test(`McpServer.closeAll() over HTTP (${how}): a call in flight fails at once, the next starts afresh`, async () => {
      const started = Promise.withResolvers<void>();
      const server = waiting(started.resolve);
      await using http = serveHttp(server, { port: 0 });
      const transport = new StreamableHttpTransport({ url: http.url, openServerStream });
      await using client = await Client.connect(transport, { protocol });
      const before = transport.sessionId;
      const call = client.callTool("wait", {}, { timeoutMs: 60_000 });
      await started.promise;

      server.closeAll();
      const error = await rejectsWith(call, McpError);
      assert.match(error.message, /closed/);
      // A legacy session dropped by the server is gone: the client's next request gets 404 and
      // a new session, transparently. A modern client has no session to lose.
      await client.ping({ timeoutMs: 60_000 });
      if (protocol === "legacy") assert.notEqual(transport.sessionId, before);
    });
  }
}

Deno.test("McpServer.closeAll() over HTTP answers a JSON (not SSE) request in flight with an error", async () => {
  const started = Promise.withResolvers<void>();
  const server = waiting(started.resolve);
  await using http = serveHttp(server, { port: 0 });
  const post = (body: object, session?: string) =>
    fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", ...body }),
    });
  const init = await post({
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    },
  });
  const session = init.headers.get("mcp-session-id")!;
  await init.body?.cancel();
  const pending = post({ id: 2, method: "tools/call", params: { name: "wait" } }, session);
  await started.promise;

  server.closeAll();
  const answer = await (await pending).json();
  assert.equal(answer.id, 2);
  assert.match(answer.error.message, /closed this connection before answering/);
  const gone = await post({ id: 3, method: "ping" }, session);
  assert.equal(gone.status, 404);
  await gone.body?.cancel();
});
