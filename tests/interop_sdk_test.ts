// Interop with servers built on the official SDK v2 (`@modelcontextprotocol/server` 2.4.0), which
// speaks the modern era, over Streamable HTTP.

import assert from "node:assert/strict";
import { StreamableHttpTransport } from "../mod.ts";
import { serveSdk } from "../testdata/http/sdk_http.ts";
import { connectChecked } from "./_helpers.ts";

for (const legacy of ["reject", "stateless"] as const) {
  const kind = legacy === "reject" ? "modern-only" : "dual-era";
  Deno.test(`an SDK v2 ${kind} server is spoken to in the modern era`, async () => {
    await using server = serveSdk(legacy);
    await using fx = await connectChecked(new StreamableHttpTransport({ url: server.url }), {
      onElicitation: () => ({ action: "accept", content: {} }),
    });
    const { client } = fx;
    assert.equal(client.era, "modern");
    assert.equal(client.serverInfo.name, "sdk-server");
    const names = (await client.listTools()).map((t) => t.name).sort();
    assert.deepStrictEqual(names, ["add", "confirm", "echo"]);
    assert.equal((await client.callTool("echo", { text: "modern" })).content[0]?.text, "modern");
    assert.deepStrictEqual((await client.callTool("add", { a: 2, b: 40 })).structuredContent, {
      sum: 42,
    });
    const confirmed = await client.callTool("confirm", {});
    assert.match(String(confirmed.content[0]?.text), /confirmed: \{"sure":true\}/);
  });
}

Deno.test("a dual-era SDK v2 server also serves the legacy era when asked", async () => {
  await using server = serveSdk("stateless");
  await using fx = await connectChecked(new StreamableHttpTransport({ url: server.url }), {
    protocol: "legacy",
  });
  assert.equal(fx.client.era, "legacy");
  assert.equal((await fx.client.callTool("echo", { text: "legacy" })).content[0]?.text, "legacy");
});
