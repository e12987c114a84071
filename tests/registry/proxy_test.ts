import assert from "node:assert/strict";
import { Client, HttpTransport, McpError, MemoryTransport } from "../../mod.ts";
import { type ServerConfig, ServerManager, ToolRegistry } from "../../src/manager/mod.ts";
import { createProxyServer, serveHttp } from "../../src/server/mod.ts";
import { fakeServer, rejectsWith } from "../_helpers.ts";

function fake(name: string, extra: Partial<ServerConfig> = {}): ServerConfig {
  const { command, args } = fakeServer(name);
  return { command, args: [...args!], ...extra } as ServerConfig;
}

function textOf(result: { content: unknown }): string {
  return ((result.content as { text: string }[])[0]!).text;
}

Deno.test("createProxyServer(registry) serves local tools beside the manager's, following changes", async () => {
  await using manager = new ServerManager({ healthIntervalMs: 0 });
  await manager.setServers({ ann: fake("annotated.ts", { deny: ["delete_*"] }) });
  using registry = new ToolRegistry({ manager, resourceTools: true });
  registry.register({
    name: "now",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
    handler: () => "12:00",
  });
  using proxy = createProxyServer(registry);
  const transport = MemoryTransport.serving((serverEnd) => proxy.server.serve(serverEnd));
  const client = await Client.connect(transport, { protocol: "legacy" });
  try {
    const tools = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), [
      "ListMcpResources",
      "ReadMcpResource",
      "now",
      "mcp__ann__lookup",
      "mcp__ann__plain",
      "mcp__ann__grow",
    ]);
    assert.deepEqual(tools[3]!.annotations, {
      title: "Look up",
      readOnlyHint: true,
      openWorldHint: false,
    });
    assert.equal(textOf(await client.callTool("now", {})), "12:00");
    assert.match(textOf(await client.callTool("mcp__ann__lookup", { key: "k" })), /^lookup k #/);
    const read = await client.callTool("ReadMcpResource", {
      server: "ann",
      uri: "notes://annotated/first",
    });
    assert.equal(textOf(read), "The first note.");
    assert.equal((await client.listResources()).length, 2);
    const denied = await rejectsWith(client.callTool("mcp__ann__delete_item", {}), McpError);
    assert.equal(denied.code, -32602);

    const changed = new Promise<void>((resolve) => client.on("toolsListChanged", resolve));
    registry.register({ name: "later", inputSchema: { type: "object" }, handler: () => "" });
    await changed;
    const names = (await client.listTools({ bypassCache: true })).map((tool) => tool.name);
    assert.ok(names.includes("later"));
  } finally {
    await client.close();
  }
});

Deno.test("a program serves its own tools over HTTP from a registry without a manager", async () => {
  using registry = new ToolRegistry();
  registry.register({
    name: "double",
    inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    handler: ({ n }) => String(Number(n) * 2),
  });
  using proxy = createProxyServer(registry, { serverInfo: { name: "doubler", version: "1.0.0" } });
  await using http = serveHttp(proxy.server, { port: 0 });
  await using client = await Client.connect(new HttpTransport({ url: http.url }));
  assert.equal(client.serverInfo.name, "doubler");
  assert.deepEqual(Object.keys(client.serverCapabilities).sort(), ["logging", "tools"]);
  assert.equal(textOf(await client.callTool("double", { n: 21 })), "42");
  const invalid = await client.callTool("double", {});
  assert.equal(invalid.isError, true);
  assert.match(textOf(invalid), /must have required property 'n'/);
});
