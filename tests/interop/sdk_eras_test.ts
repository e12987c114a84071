// Interop with the official SDK v2 servers where the era matters: legacy limits, change events on
// subscriptions/listen; and the legacy server-everything, which `auto` mode must still reach.
// Every message the client sends is checked against the official schema.

import assert from "node:assert/strict";
import { McpError, StdioTransport, StreamableHttpTransport } from "../../mod.ts";
import type { InMemoryServerEventBus } from "@modelcontextprotocol/server";
import { serveSdk } from "../../testdata/http/sdk_http.ts";
import { connectChecked, rejectsWith } from "../_helpers.ts";
import { npmServer } from "../_npm_servers.ts";
import {
  connectHttp,
  delay,
  methods,
  nextToolsListChanged,
  sdkStdio,
  sentParams,
  TARGETS,
  textOf,
} from "./_sdk.ts";

// ---------------------------------------------------------------------------------------------
// Era-specific behaviour

Deno.test("an SDK v2 dual-era server over stateless HTTP refuses input requests in the legacy era", async () => {
  const target = TARGETS.find((t) => t.stateless)!;
  let asked = 0;
  await using fx = await target.connect({
    onElicitation: () => {
      asked++;
      return { action: "accept", content: { sure: true } };
    },
  });
  // Each legacy request meets a fresh instance that saw no initialize, so it cannot know the
  // client's capabilities nor receive an answer: the SDK reports a tool error, it does not hang.
  const result = await fx.client.callTool("confirm", { action: "deploy" });
  assert.equal(result.isError, true, textOf(result));
  assert.match(
    textOf(result),
    /per-request legacy serving cannot receive server-to-client requests/,
  );
  assert.equal(asked, 0);
});

Deno.test("protocol: legacy against an SDK v2 modern-only server fails at initialize", async () => {
  await using server = serveSdk("reject");
  for (
    const transport of [
      new StdioTransport(sdkStdio("sdk_modern.ts")),
      new StreamableHttpTransport({ url: server.url }),
    ]
  ) {
    const error = await rejectsWith(connectChecked(transport, { protocol: "legacy" }), McpError);
    assert.equal(error.code, -32022); // UnsupportedProtocolVersion, naming what it speaks
    assert.deepStrictEqual((error.data as { supported?: unknown }).supported, ["2026-07-28"]);
  }
});

for (const target of TARGETS.filter((t) => !t.label.includes("HTTP"))) {
  Deno.test(`${target.label}: a changed tool list reaches the client`, async () => {
    await using fx = await target.connect();
    assert.ok(!(await fx.client.listTools()).some((t) => t.name === "secret"));
    const changed = nextToolsListChanged(fx);
    assert.equal(textOf(await fx.client.callTool("unlock", {})), "unlocked");
    await changed;
    assert.ok((await fx.client.listTools()).some((t) => t.name === "secret"));
    assert.equal(textOf(await fx.client.callTool("secret", {})), "the secret");
    if (target.era === "modern") {
      // it came on the subscriptions/listen stream the client opened after discovery
      const [listen] = sentParams(fx.transport.sent, "subscriptions/listen");
      assert.deepStrictEqual(listen?.notifications, {
        toolsListChanged: true,
        promptsListChanged: true,
        resourcesListChanged: true,
      });
    }
  });
}

for (const legacy of ["reject", "stateless"] as const) {
  Deno.test(`an SDK v2 ${legacy === "reject" ? "modern-only" : "dual-era"} HTTP server's change events reach the client on subscriptions/listen`, async () => {
    await using fx = await connectHttp(legacy, (url) => new StreamableHttpTransport({ url }), {});
    assert.equal(fx.client.era, "modern");
    // connect() does not wait for the listen stream's acknowledgement; the server's bus shows
    // when the stream is open.
    const bus = fx.server.handler.bus as InMemoryServerEventBus;
    for (let i = 0; i < 100 && bus.listenerCount === 0; i++) await delay(20);
    assert.equal(bus.listenerCount, 1);
    const changed = nextToolsListChanged(fx);
    fx.server.handler.notify.toolsChanged();
    await changed;
  });
}

// ---------------------------------------------------------------------------------------------
// A legacy server

Deno.test("auto mode lands on the legacy era against server-everything and its tools still work", async () => {
  await using fx = await connectChecked(
    new StdioTransport(await npmServer("everything", ["stdio"])),
  );
  const { client } = fx;
  assert.equal(client.era, "legacy");
  assert.equal(client.protocolVersion, "2025-11-25");
  const sent = methods(fx.transport.sent);
  assert.equal(sent[0], "server/discover");
  assert.ok(sent.includes("initialize"), `sent ${sent.join(", ")}`);
  const tools = (await client.listTools()).map((t) => t.name);
  assert.ok(tools.includes("echo") && tools.includes("get-sum"), tools.join(", "));
  assert.equal(
    textOf(await client.callTool("echo", { message: "still here" })),
    "Echo: still here",
  );
  const sum = await client.callTool("get-sum", { a: 2, b: 3 });
  assert.match(textOf(sum), /5/);
});
