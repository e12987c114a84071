import assert from "node:assert/strict";
import {
  Client as SdkClient,
  StreamableHTTPClientTransport as SdkHttpTransport,
} from "@modelcontextprotocol/client";
import {
  CancelledError,
  Client,
  type ClientOptions,
  HttpTransport,
  McpError,
  MemoryTransport,
  type Progress,
} from "../../mod.ts";
import { type ServerConfig, ServerManager } from "../../src/manager/mod.ts";
import { createProxyServer, serveHttp } from "../../src/server/mod.ts";
import { fakeServer, rejectsWith } from "../_helpers.ts";

function fake(name: string, extra: Partial<ServerConfig> = {}): ServerConfig {
  const { command, args } = fakeServer(name);
  return { command, args: [...args!], ...extra } as ServerConfig;
}

function textOf(result: { content: unknown }): string {
  return ((result.content as { text: string }[])[0]!).text;
}

/** A manager over two fakes, one with a deny list; stderr lines are collected per server. */
async function backend(): Promise<{ manager: ServerManager; stderr: string[] }> {
  const stderr: string[] = [];
  const manager = new ServerManager({
    healthIntervalMs: 0,
    stderr: (server, line) => stderr.push(`${server}: ${line}`),
  });
  await manager.setServers({
    rich: fake("everything.ts", { deny: ["fail", "elicit*"] }),
    fast: fake("fast.ts"),
  });
  return { manager, stderr };
}

/** Our client connected to the proxy in-process, in the era `protocol` picks. */
async function viaMemory(
  manager: ServerManager,
  options: ClientOptions,
): Promise<{ client: Client; [Symbol.asyncDispose](): Promise<void> }> {
  const proxy = createProxyServer(manager);
  const transport = MemoryTransport.serving((serverEnd) => proxy.server.serve(serverEnd));
  const client = await Client.connect(transport, options);
  return {
    client,
    async [Symbol.asyncDispose]() {
      await client.close(); // returns once the proxy has stopped serving
      proxy.close();
    },
  };
}

/** The status of a POST sent over a raw socket, where the Host header can be anything. */
async function rawStatus(url: URL, host: string, authorization: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  try {
    const head = [
      `POST ${url.pathname} HTTP/1.1`,
      `Host: ${host}`,
      `Authorization: ${authorization}`,
      "Content-Type: application/json",
      "Accept: application/json",
      "Mcp-Session-Id: none",
      `Content-Length: ${body.length}`,
      "Connection: close",
    ];
    await conn.write(new TextEncoder().encode(`${head.join("\r\n")}\r\n\r\n${body}`));
    const buffer = new Uint8Array(64);
    const read = await conn.read(buffer);
    const line = new TextDecoder().decode(buffer.subarray(0, read ?? 0));
    return Number(line.split(" ")[1]);
  } finally {
    conn.close();
  }
}

for (const protocol of ["legacy", "modern"] as const) {
  Deno.test(`the proxy serves every server's tools under qualified names (${protocol} era)`, async () => {
    const { manager } = await backend();
    await using _manager = manager;
    await using connection = await viaMemory(manager, { protocol });
    const { client } = connection;
    assert.equal(client.era, protocol);
    assert.equal(client.serverInfo.name, "mcp-inspect-proxy");
    const names = (await client.listTools()).map((tool) => tool.name);
    assert.ok(names.includes("mcp__rich__echo") && names.includes("mcp__fast__echo"));
    assert.ok(!names.includes("mcp__rich__fail"), "denied tools are not listed");
    assert.equal(textOf(await client.callTool("mcp__fast__echo", { text: "hi" })), "hi");
    const sum = await client.callTool("mcp__rich__add", { a: 1, b: 2 });
    assert.deepEqual(sum.structuredContent, { sum: 3 });

    const denied = await rejectsWith(client.callTool("mcp__rich__fail"), McpError);
    assert.equal(denied.code, -32602);
    assert.match(denied.message, /refused: it matches the deny list \("fail"\)/);
    const unknown = await rejectsWith(client.callTool("mcp__nobody__x"), McpError);
    assert.match(unknown.message, /Unknown tool "mcp__nobody__x"/);

    const resources = await client.listResources();
    assert.ok(resources.some((r) => r.uri === "fake://docs/readme"));
    const read = await client.readResource("fake://docs/readme", { bypassCache: true });
    assert.ok(read.contents.length > 0);
    const prompts = (await client.listPrompts()).map((p) => p.name);
    assert.ok(prompts.includes("mcp__rich__greet"));
    const prompt = await client.getPrompt("mcp__rich__greet", { name: "Ada" });
    assert.ok(prompt.messages.length > 0);
  });

  Deno.test(`the proxy forwards progress, cancellation and list changes (${protocol} era)`, async () => {
    const { manager, stderr } = await backend();
    await using _manager = manager;
    await using connection = await viaMemory(manager, { protocol });
    const { client } = connection;

    const progress: Progress[] = [];
    const slow = await client.callTool("mcp__rich__slow", { steps: 3, delayMs: 10 }, {
      onProgress: (p) => progress.push(p),
    });
    assert.equal(textOf(slow), "done after 3 steps");
    assert.deepEqual(progress.map((p) => p.progress), [1, 2, 3]);
    assert.equal(progress[0]!.message, "step 1");

    const controller = new AbortController();
    const hanging = client.callTool("mcp__rich__hang", {}, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort("enough");
    await rejectsWith(hanging, CancelledError);
    for (let i = 0; i < 50 && !stderr.some((l) => l.startsWith("rich: cancelled")); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(stderr.some((l) => l.startsWith("rich: cancelled")), "the server saw the cancel");

    const changed = new Promise<void>((resolve) => client.on("toolsListChanged", resolve));
    await client.callTool("mcp__rich__notify_changes");
    await changed;
  });
}

Deno.test("the proxy forwards a server's log messages to legacy clients", async () => {
  const { manager } = await backend();
  await using _manager = manager;
  await using connection = await viaMemory(manager, { protocol: "legacy" });
  const logged = new Promise<unknown>((resolve) => connection.client.on("log", resolve));
  await connection.client.callTool("mcp__rich__log", { level: "warning", data: "careful" });
  assert.deepEqual(await logged, { level: "warning", logger: "rich/fake", data: "careful" });
});

Deno.test("the proxy over HTTP serves this client and the official SDK client", async () => {
  const { manager } = await backend();
  await using _manager = manager;
  using proxy = createProxyServer(manager);
  await using http = serveHttp(proxy.server, { port: 0 });
  assert.equal(http.url.hostname, "127.0.0.1");

  for (const protocol of ["legacy", "auto"] as const) {
    await using client = await Client.connect(new HttpTransport({ url: http.url }), { protocol });
    const names = (await client.listTools()).map((tool) => tool.name);
    assert.ok(names.includes("mcp__fast__echo"));
    const progress: number[] = [];
    const slow = await client.callTool("mcp__rich__slow", { steps: 2, delayMs: 5 }, {
      onProgress: (p) => progress.push(p.progress),
    });
    assert.equal(textOf(slow), "done after 2 steps");
    assert.deepEqual(progress, [1, 2]);
    assert.equal(textOf(await client.callTool("mcp__fast__echo", { text: protocol })), protocol);
  }

  const sdk = new SdkClient({ name: "sdk-test", version: "1.0.0" });
  await sdk.connect(new SdkHttpTransport(http.url));
  try {
    const { tools } = await sdk.listTools();
    assert.ok(tools.some((tool) => tool.name === "mcp__rich__echo"));
    const result = await sdk.callTool({ name: "mcp__rich__echo", arguments: { text: "sdk" } });
    assert.equal(textOf(result), "sdk");
  } finally {
    await sdk.close();
  }
});

Deno.test("the HTTP proxy refuses foreign Host and Origin headers and checks its token", async () => {
  const { manager } = await backend();
  await using _manager = manager;
  using proxy = createProxyServer(manager);
  await using http = serveHttp(proxy.server, { port: 0, token: "s3cret" });
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    },
  });
  const post = async (headers: Record<string, string>) => {
    const response = await fetch(http.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body,
    });
    await response.body?.cancel();
    return response.status;
  };
  const auth = { authorization: "Bearer s3cret" };
  assert.equal(await post({}), 401);
  assert.equal(await post({ authorization: "Bearer wrong" }), 401);
  assert.equal(await post({ ...auth, origin: "https://evil.example" }), 403);
  assert.equal(await rawStatus(http.url, "evil.example", auth.authorization), 403);
  // A loopback Host passes the guard and reaches the endpoint (which knows no session "none").
  assert.equal(await rawStatus(http.url, `localhost:${http.url.port}`, auth.authorization), 404);
  assert.equal(await post({ ...auth, origin: `http://localhost:${http.url.port}` }), 200);

  await using client = await Client.connect(
    new HttpTransport({ url: http.url, headers: auth }),
    { protocol: "legacy" },
  );
  assert.ok((await client.listTools()).length > 0);
});
