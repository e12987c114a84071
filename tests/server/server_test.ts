import assert from "node:assert/strict";
import { Client, ConnectionClosedError, MemoryTransport } from "../../mod.ts";
import { McpServer } from "../../src/server/mod.ts";
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
