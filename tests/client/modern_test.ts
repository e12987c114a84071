// The modern era (2026-07-28) against a raw JSON-RPC fake: negotiation, _meta, multi
// round-trip requests, caching, subscriptions/listen, and the removed methods.

import assert from "node:assert/strict";
import {
  Client,
  type JsonRpcMessage,
  McpError,
  ProtocolError,
  ResourceNotFoundError,
  StdioTransport,
} from "../../mod.ts";
import { connectFake, fakeServer, rejectsWith } from "../_helpers.ts";

function textOf(result: { content: { text?: string }[] }): string {
  return result.content.map((c) => c.text ?? "").join("");
}

const methods = (sent: readonly unknown[]) =>
  sent.flatMap((m) =>
    typeof m === "object" && m && "method" in m ? [(m as { method: string }).method] : []
  );

/** The params of every request of one method the client sent. */
function sentParams(sent: readonly JsonRpcMessage[], method: string): Record<string, unknown>[] {
  return sent.flatMap((m) => "method" in m && m.method === method ? [m.params ?? {}] : []);
}

/** Resolves on the next emission of a client event. */
function next<K extends "toolsListChanged" | "resourceUpdated" | "log">(client: Client, event: K) {
  return new Promise<unknown>((resolve) => {
    const off = client.on(event, (payload) => {
      off();
      resolve(payload);
    });
  });
}

Deno.test("auto mode lands on the modern era with server/discover and no handshake", async () => {
  await using fx = await connectFake("modern.ts");
  const { client } = fx;
  assert.equal(client.era, "modern");
  assert.equal(client.protocolVersion, "2026-07-28");
  assert.deepStrictEqual(client.serverInfo, { name: "fake-modern", version: "2.0.0" });
  assert.equal(client.instructions, "A modern fake.");
  assert.equal(textOf(await client.callTool("echo", { text: "stateless" })), "stateless");
  const sent = methods(fx.transport.sent);
  assert.equal(sent[0], "server/discover");
  assert.ok(!sent.includes("initialize") && !sent.includes("notifications/initialized"));
  const meta = sentParams(fx.transport.sent, "tools/call")[0]!._meta as Record<string, unknown>;
  assert.equal(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
  const info = meta["io.modelcontextprotocol/clientInfo"] as { name: string };
  assert.equal(info.name, "mcp-inspect");
});

Deno.test("an input_required result is answered by the handlers and retried with requestState", async () => {
  await using fx = await connectFake("modern.ts", [], {
    onElicitation: () => ({ action: "accept", content: {} }),
  });
  assert.equal(textOf(await fx.client.callTool("ask", {})), "hello Ada"); // the form's default
  const calls = sentParams(fx.transport.sent, "tools/call");
  assert.equal(calls.length, 2);
  assert.equal(calls[1]!.requestState, "ask-1");
  assert.deepStrictEqual(calls[1]!.inputResponses, {
    name: { action: "accept", content: { name: "Ada" } },
  });
});

Deno.test("multi round-trip requests go on for as many rounds as the server needs", async () => {
  await using fx = await connectFake("modern.ts", [], {
    onElicitation: () => ({ action: "accept", content: { name: "Grace" } }),
    onSampling: (request) => ({
      role: "assistant",
      content: { type: "text", text: `roses for ${JSON.stringify(request.messages[0]?.content)}` },
      model: "m",
    }),
    roots: [{ uri: "file:///work", name: "work" }],
  });
  assert.match(textOf(await fx.client.callTool("multi", {})), /^Grace: roses for .*Poem for Grace/);
  assert.deepStrictEqual(JSON.parse(textOf(await fx.client.callTool("roots", {}))), {
    roots: [{ uri: "file:///work", name: "work" }],
  });
});

Deno.test("a server that never stops asking is cut off after maxInputRounds", async () => {
  await using fx = await connectFake("modern.ts", [], {
    onElicitation: () => ({ action: "decline" }),
    maxInputRounds: 3,
  });
  const error = await rejectsWith(fx.client.callTool("endless", {}), ProtocolError);
  assert.match(error.message, /after 3 rounds/);
  assert.equal(methods(fx.transport.sent).filter((m) => m === "tools/call").length, 3);
});

Deno.test("an input request with no handler fails clearly instead of guessing", async () => {
  await using fx = await connectFake("modern.ts");
  const error = await rejectsWith(fx.client.callTool("ask", {}), ProtocolError);
  assert.match(error.message, /asked for elicitation\/create .* declared no handler/);
});

Deno.test("cacheable results are served from the cache until list_changed makes them stale", async () => {
  await using fx = await connectFake("modern.ts");
  const { client } = fx;
  await client.listTools();
  await client.listTools();
  const count = () => methods(fx.transport.sent).filter((m) => m === "tools/list").length;
  assert.equal(count(), 1);
  await client.listTools({ bypassCache: true });
  assert.equal(count(), 2);
  const changed = next(client, "toolsListChanged");
  await client.callTool("change", {});
  await changed;
  await client.listTools();
  assert.equal(count(), 3);
});

Deno.test("subscriptions/listen carries list changes and resource updates", async () => {
  await using fx = await connectFake("modern.ts");
  const { client } = fx;
  const [listen] = sentParams(fx.transport.sent, "subscriptions/listen");
  assert.deepStrictEqual(listen!.notifications, {
    toolsListChanged: true,
    resourcesListChanged: true,
  });
  await client.subscribeResource("fake://modern/doc");
  const updated = next(client, "resourceUpdated");
  await client.callTool("touch", { uri: "fake://modern/doc" });
  assert.deepStrictEqual(await updated, { uri: "fake://modern/doc" });
  // the old stream was cancelled when the filter changed
  assert.ok(methods(fx.transport.sent).includes("notifications/cancelled"));
});

Deno.test("the log level travels in _meta, and no logs come without it", async () => {
  await using fx = await connectFake("modern.ts");
  const logs: unknown[] = [];
  fx.client.on("log", (message) => logs.push(message.data));
  await fx.client.callTool("log", { level: "error" });
  await fx.client.setLoggingLevel("warning");
  await fx.client.callTool("log", { level: "info" });
  await fx.client.callTool("log", { level: "error" });
  assert.deepStrictEqual(logs, ["at error"]);
  assert.ok(!methods(fx.transport.sent).includes("logging/setLevel"));
});

Deno.test("ping maps to server/discover, and a missing resource is a typed error", async () => {
  await using fx = await connectFake("modern.ts");
  await fx.client.ping();
  assert.ok(!methods(fx.transport.sent).includes("ping"));
  assert.equal(methods(fx.transport.sent).filter((m) => m === "server/discover").length, 2);
  const error = await rejectsWith(
    fx.client.readResource("fake://modern/none"),
    ResourceNotFoundError,
  );
  assert.equal(error.uri, "fake://modern/none");
});

Deno.test("a dual-era server is spoken to in the modern era", async () => {
  await using fx = await connectFake("modern.ts", [], { transport: { env: { FAKE_DUAL: "1" } } });
  assert.equal(fx.client.era, "modern");
});

Deno.test("UnsupportedProtocolVersion with a shared legacy revision falls back to initialize", async () => {
  await using fx = await connectFake("modern.ts", [], {
    transport: { env: { FAKE_SUPPORTED: "2027-01-01,2025-11-25", FAKE_DUAL: "1" } },
  });
  assert.equal(fx.client.era, "legacy");
  assert.equal(fx.client.serverInfo.name, "fake-modern-dual");
});

Deno.test("a server that shares no revision fails with the revisions it named", async () => {
  const transport = new StdioTransport(
    fakeServer("modern.ts", [], { env: { FAKE_SUPPORTED: "2027-01-01" } }),
  );
  const error = await rejectsWith(Client.connect(transport), ProtocolError);
  assert.match(error.message, /speaks none of our revisions \(it supports 2027-01-01\)/);
});

Deno.test("protocol: legacy against a modern-only server fails at initialize", async () => {
  const transport = new StdioTransport(fakeServer("modern.ts"));
  const error = await rejectsWith(Client.connect(transport, { protocol: "legacy" }), McpError);
  assert.match(error.message, /speaks only 2026-07-28/);
});

Deno.test("protocol: modern against a legacy server fails without a handshake", async () => {
  const transport = new StdioTransport(fakeServer("everything.ts"));
  const error = await rejectsWith(Client.connect(transport, { protocol: "modern" }), McpError);
  assert.equal(error.code, -32601);
});

Deno.test("a legacy verdict from an earlier connection skips the probe", async () => {
  let verdict;
  {
    await using first = await connectFake("everything.ts");
    verdict = first.client.discovery;
  }
  assert.deepStrictEqual(verdict, { era: "legacy", protocolVersion: "2025-11-25" });
  await using second = await connectFake("everything.ts", [], { discovery: verdict });
  assert.equal(methods(second.transport.sent)[0], "initialize");
});

Deno.test("a dropped or ended subscriptions/listen stream is opened again", async () => {
  await using fx = await connectFake("modern.ts");
  const listens = () =>
    methods(fx.transport.sent).filter((m) => m === "subscriptions/listen").length;
  const waitFor = async (count: number) => {
    for (let i = 0; i < 200 && listens() < count; i++) await new Promise((r) => setTimeout(r, 20));
  };
  assert.equal(listens(), 1);
  await fx.client.callTool("end_listens", {});
  await waitFor(2);
  assert.equal(listens(), 2);
  await fx.client.callTool("end_listens", { graceful: true });
  await waitFor(3);
  assert.equal(listens(), 3);
  // and the new stream works: a list change still arrives
  const changed = next(fx.client, "toolsListChanged");
  await fx.client.callTool("change", {});
  await changed;
});
