// The proxy passes on what goes beyond calls: the servers' sampling and elicitation requests
// (to the client whose call caused them, in both eras), resource subscriptions and completions.

import assert from "node:assert/strict";
import { type ClientOptions, MemoryTransport, StreamableHttpTransport } from "../../mod.ts";
import { type ServerConfig, ServerManager } from "../../src/manager/mod.ts";
import { createProxyServer, serveHttp, ServerRequestRelay } from "../../src/server/mod.ts";
import { connectChecked, fakeServer, fakeTime } from "../_helpers.ts";

function fake(name: string): ServerConfig {
  const { command, args } = fakeServer(name);
  return { command, args: [...args!] } as ServerConfig;
}

function textOf(result: { content: unknown }): string {
  return ((result.content as { text: string }[])[0]!).text;
}

/** A relaying manager over the legacy-era fake and the modern-era fake. */
async function backend(): Promise<ServerManager> {
  const relay = new ServerRequestRelay();
  const manager = new ServerManager({ healthIntervalMs: 0, serverRequests: relay });
  await manager.setServers({ rich: fake("everything.ts"), modern: fake("modern.ts") });
  RELAYS.set(manager, relay);
  return manager;
}
const RELAYS = new WeakMap<ServerManager, ServerRequestRelay>();

async function viaProxy(manager: ServerManager, options: ClientOptions) {
  const proxy = createProxyServer(manager, { relay: RELAYS.get(manager)! });
  const transport = MemoryTransport.serving((serverEnd) => proxy.server.serve(serverEnd));
  const checked = await connectChecked(transport, options);
  return {
    client: checked.client,
    async [Symbol.asyncDispose]() {
      // Fails on a message invalid against the schema; returns once the proxy stopped serving.
      await checked[Symbol.asyncDispose]();
      proxy.close();
    },
  };
}

const ANSWERING: ClientOptions = {
  onSampling: (request) =>
    Promise.resolve({
      role: "assistant",
      content: { type: "text", text: `sampled: ${JSON.stringify(request.messages[0]?.content)}` },
      model: "test-model",
    }),
  onElicitation: (request) =>
    Promise.resolve({ action: "accept", content: { name: `Grace (${request.message})` } }),
};

for (const protocol of ["legacy", "modern"] as const) {
  Deno.test(`sampling and elicitation of the servers reach the calling client (${protocol} era)`, async () => {
    await using manager = await backend();
    await using proxy = await viaProxy(manager, { ...ANSWERING, protocol });
    const client = proxy.client;

    const sampled = await client.callTool("mcp__rich__sample", { prompt: "a haiku" });
    assert.equal(sampled.isError, undefined, textOf(sampled));
    assert.match(textOf(sampled), /sampled: .*a haiku.*test-model/);

    const elicited = await client.callTool("mcp__rich__elicit");
    assert.match(textOf(elicited), /"action":"accept".*Grace \(Who are you\?\)/);

    // A modern server asks in rounds of its own: two questions, one after the other.
    const asked = await client.callTool("mcp__modern__ask");
    assert.equal(textOf(asked), "hello Grace (Who are you?)");
    const multi = await client.callTool("mcp__modern__multi");
    assert.match(textOf(multi), /^Grace \(Name\?\): sampled: .*Poem for Grace/);
  });

  Deno.test(`a client that cannot answer gets the server's refusal, not a hang (${protocol} era)`, async () => {
    await using manager = await backend();
    await using proxy = await viaProxy(manager, { protocol });
    const result = await proxy.client.callTool("mcp__rich__sample", { prompt: "x" });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /No client of the proxy that can answer sampling\/createMessage/);
  });

  Deno.test(`resource subscriptions and completions go through the proxy (${protocol} era)`, async () => {
    await using manager = await backend();
    await using proxy = await viaProxy(manager, { protocol });
    const client = proxy.client;
    assert.equal(client.serverCapabilities.resources?.subscribe, true);

    const updates: string[] = [];
    client.on("resourceUpdated", ({ uri }) => updates.push(uri));
    await client.subscribeResource("fake://docs/readme");
    const signalled = await client.callTool("mcp__rich__update_resource", {
      uri: "fake://docs/readme",
    });
    assert.equal(textOf(signalled), "updated", "the proxy subscribed at the server");
    for (let i = 0; i < 100 && updates.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.deepEqual(updates, ["fake://docs/readme"]);

    await client.unsubscribeResource("fake://docs/readme");
    // The proxy's last subscriber left: the server is unsubscribed too.
    let answer = "";
    for (let i = 0; i < 100 && answer !== "not subscribed"; i++) {
      answer = textOf(
        await client.callTool("mcp__rich__update_resource", { uri: "fake://docs/readme" }),
      );
    }
    assert.equal(answer, "not subscribed");

    const prompt = await client.complete(
      { type: "ref/prompt", name: "mcp__rich__greet" },
      { name: "style", value: "f" },
    );
    assert.deepEqual(prompt.completion.values, ["formal", "friendly", "funny"]);
    const template = await client.complete(
      { type: "ref/resource", uri: "fake://notes/{id}" },
      { name: "id", value: "4" },
    );
    assert.deepEqual(template.completion.values, ["42"]);
  });
}

Deno.test("over HTTP, a modern client answers elicitation rounds of a proxied server", async () => {
  await using manager = await backend();
  using proxy = createProxyServer(manager, { relay: RELAYS.get(manager)! });
  await using http = serveHttp(proxy.server, { port: 0 });
  for (const protocol of ["modern", "legacy"] as const) {
    await using checked = await connectChecked(
      new StreamableHttpTransport({ url: http.url }),
      { ...ANSWERING, protocol },
    );
    const elicited = await checked.client.callTool("mcp__rich__elicit");
    assert.match(textOf(elicited), /Grace/, protocol);
  }
});

Deno.test("a modern round the client never comes back to is dropped after the call timeout", async () => {
  await using manager = await backend();
  using proxy = createProxyServer(manager, { relay: RELAYS.get(manager)!, callTimeoutMs: 200 });
  using clock = fakeTime();
  const clientEnd = MemoryTransport.serving((serverEnd) => proxy.server.serve(serverEnd));
  // A raw modern client: it reads the input_required answer and walks away.
  await clientEnd.start();
  const writer = clientEnd.writable.getWriter();
  const reader = clientEnd.readable.getReader();
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
  };
  await writer.write({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "mcp__rich__elicit", arguments: {}, _meta: meta },
  });
  const { value } = await reader.read();
  const result = (value as { result: Record<string, unknown> }).result;
  assert.equal(result.resultType, "input_required");
  const state = result.requestState as string;
  await clock.tickAsync(200);
  await writer.write({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: {
      name: "mcp__rich__elicit",
      arguments: {},
      requestState: state,
      inputResponses: {},
      _meta: meta,
    },
  });
  const late = (await reader.read()).value as { error?: { message: string } };
  assert.match(late.error?.message ?? "", /Unknown or expired requestState/);
  reader.releaseLock();
  writer.releaseLock();
  await clientEnd.close();
});
