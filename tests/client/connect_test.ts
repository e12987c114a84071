// Connecting a client to a server of the legacy era: the handshake, each revision, and the
// revisions and errors that fail connect().

import assert from "node:assert/strict";
import {
  Client,
  LEGACY_PROTOCOL_VERSIONS,
  McpError,
  ProtocolError,
  StdioTransport,
} from "../../mod.ts";
import { connectFake, fakeServer, rejectsWith } from "../_helpers.ts";
import { textOf, TOOL_NAMES } from "./_fixtures.ts";

Deno.test("connect() performs the handshake and exposes what the server said", async () => {
  await using fx = await connectFake("everything.ts");
  const { client } = fx;
  assert.equal(client.protocolVersion, "2025-11-25");
  assert.deepStrictEqual(client.serverInfo, {
    name: "fake-everything",
    version: "1.0.0",
  });
  assert.equal(client.instructions, "A fake server for tests.");
  assert.ok(client.serverCapabilities.tools);
  assert.equal(client.era, "legacy");
  // auto mode probes with server/discover first, then falls back to the handshake
  const sent = fx.transport.sent.map((m) => "method" in m ? m.method : "response");
  assert.deepStrictEqual(sent.slice(0, 3), [
    "server/discover",
    "initialize",
    "notifications/initialized",
  ]);
});

for (const revision of LEGACY_PROTOCOL_VERSIONS) {
  Deno.test(`a server answering ${revision} is accepted and spoken to in that revision`, async () => {
    await using fx = await connectFake("everything.ts", [], {
      transport: { env: { FAKE_PROTOCOL_VERSION: revision } },
      roots: [{ uri: "file:///tmp", name: "tmp" }],
      onSampling: () => ({
        role: "assistant",
        content: { type: "text", text: "ok" },
        model: "m",
      }),
    });
    assert.equal(fx.client.protocolVersion, revision);
    assert.equal(fx.transport.revision, revision);
    assert.equal((await fx.client.listTools()).length, TOOL_NAMES.length);
    assert.equal(
      textOf(await fx.client.callTool("echo", { text: "hi" })),
      "hi",
    );
    assert.match(
      textOf(await fx.client.callTool("roots", {})),
      /file:\/\/\/tmp/,
    );
    assert.match(
      textOf(await fx.client.callTool("sample", { prompt: "2+2" })),
      /"ok"/,
    );
    await fx.client.ping();
  });
}

Deno.test("an unsupported protocol revision fails connect() and stops the server", async () => {
  const transport = new StdioTransport(
    fakeServer("misbehaving.ts", ["unsupported-version"]),
  );
  const error = await rejectsWith(Client.connect(transport), ProtocolError);
  assert.match(
    error.message,
    /"1999-01-01", which this client does not support/,
  );
  await rejectsWith(transport.start(), Error); // closed for good
});

Deno.test("an initialize error is surfaced as McpError", async () => {
  const transport = new StdioTransport(
    fakeServer("misbehaving.ts", ["initialize-error"]),
  );
  const error = await rejectsWith(Client.connect(transport), McpError);
  assert.equal(error.code, -32603);
});
