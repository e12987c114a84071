// What a remote client of the HTTP proxy learns when a backend fails: an error code and a short
// message. The backend's stderr, local paths and stack traces stay in the proxy's own log.

import assert from "node:assert/strict";
import { Client, HttpTransport, McpError, MemoryTransport } from "../../mod.ts";
import { type ServerConfig, ServerManager } from "../../src/manager/mod.ts";
import { createProxyServer, McpServer, serveHttp } from "../../src/server/mod.ts";
import { fakeServer } from "../_helpers.ts";

function misbehaving(mode: string): ServerConfig {
  const { command, args } = fakeServer("misbehaving.ts", [mode]);
  return { command, args: [...args!] } as ServerConfig;
}

Deno.test("a backend that crashes mid-call gives the remote client a code, not its stderr", async () => {
  await using manager = new ServerManager({ healthIntervalMs: 0 });
  await manager.setServers({ broken: misbehaving("crash") });
  const logged: string[] = [];
  using proxy = createProxyServer(manager, {
    onError: (error, method) => logged.push(`${method}: ${(error as Error).message}`),
  });
  await using http = serveHttp(proxy.server, { port: 0, token: "t0ken-for-tests" });
  await using client = await Client.connect(
    new HttpTransport({ url: http.url, headers: { authorization: "Bearer t0ken-for-tests" } }),
    { protocol: "legacy" },
  );
  const error = await client.callTool("mcp__broken__echo", { text: "x" }).then(
    () => assert.fail("the call should fail"),
    (error) => error,
  );
  assert.ok(error instanceof McpError, String(error));
  assert.equal(error.code, -32603);
  const wire = JSON.stringify({ message: error.message, data: error.data });
  assert.doesNotMatch(wire, /fatal: line/, "the backend's stderr stays local");
  assert.doesNotMatch(wire, /testdata|\/work\/|misbehaving/, "no local path reaches the client");
  assert.doesNotMatch(wire, /\n\s+at /, "no stack trace");
  assert.ok(logged.some((line) => /fatal: line 3/.test(line)), logged.join("\n"));

  // Afterwards the server is unavailable: the client learns its state, not its last error.
  const again = await client.callTool("mcp__broken__echo", { text: "x" }).then(
    () => assert.fail("the call should fail"),
    (error) => error,
  );
  assert.ok(again instanceof McpError);
  assert.doesNotMatch(JSON.stringify({ m: again.message, d: again.data }), /fatal: line/);
});

Deno.test("a handler's own exception reaches the client as -32603 and its class name only", async () => {
  const seen: unknown[] = [];
  const server = new McpServer({
    serverInfo: { name: "t", version: "1" },
    capabilities: { tools: {} },
    handlers: {
      "tools/list": () => ({ tools: [{ name: "boom", inputSchema: { type: "object" } }] }),
      "tools/call": () => {
        throw new TypeError("cannot read /home/alice/.secrets/key.pem");
      },
    },
    onError: (error) => seen.push(error),
  });
  const transport = MemoryTransport.serving((serverEnd) => server.serve(serverEnd));
  const client = await Client.connect(transport, { protocol: "legacy" });
  try {
    const error = await client.callTool("boom").then(() => assert.fail("should fail"), (e) => e);
    assert.ok(error instanceof McpError);
    assert.equal(error.code, -32603);
    assert.equal(error.message, "Internal error (TypeError)");
    assert.equal(seen.length, 1);
    assert.match((seen[0] as Error).message, /key\.pem/);
  } finally {
    await client.close();
  }
});
