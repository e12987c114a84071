// Streamable HTTP safety against the fake of testdata/http/streamable_fake.ts: URLs, headers and
// session ids refused before use, and secrets (session ids, Authorization values, query tokens)
// that must never leak into an error message.

import assert from "node:assert/strict";
import { Client, ProtocolError, StreamableHttpTransport, TransportError } from "../../mod.ts";
import { rejectsWith } from "../_helpers.ts";
import { connect, serve, sessionOf, transport } from "./_streamable_fixture.ts";

// --- safety -------------------------------------------------------------------------------------

Deno.test("a URL that is not http: or https: is refused at construction", () => {
  for (const url of ["file:///tmp/mcp", "ws://127.0.0.1/mcp", "ftp://example.com/", "mcp"]) {
    assert.throws(() => new StreamableHttpTransport({ url }), TransportError, url);
  }
});

Deno.test("a header with CR, LF or a bad name is refused before any request is sent", async () => {
  for (
    const headers of [
      { "X-Team": "a\r\nInjected: yes" },
      { "X-Team": "a\nInjected: yes" },
      { "Bad Name": "x" },
      { "X-Team": "名前" },
    ]
  ) {
    assert.throws(() => transport("http://127.0.0.1:9/mcp", { headers }), TransportError);
  }
  assert.throws(
    () => transport("http://127.0.0.1:9/mcp", { headers: { "X-Team": "a\r\nInjected: yes" } }),
    (error: Error) => /"X-Team"/.test(error.message) && !/Injected/.test(error.message),
  );
  await using server = serve();
  const error = await rejectsWith(
    Client.connect(transport(server.url, {
      requestHeaders: () => ({ Authorization: "Bearer t0ken\r\nInjected: yes" }),
    })),
    TransportError,
  );
  assert.doesNotMatch(error.message, /t0ken|Injected/);
  assert.equal(server.log.length, 0);
});

Deno.test("a session id outside visible ASCII is refused, and not shown", async () => {
  await using server = serve({ sessionId: () => "bad session\u00e9id" });
  const error = await rejectsWith(Client.connect(transport(server.url)), ProtocolError);
  assert.match(error.message, /invalid Mcp-Session-Id/);
  assert.doesNotMatch(error.message, /bad session/);
});

Deno.test("session ids, Authorization values and query tokens never appear in error messages", async () => {
  const token = "canary-token-5f2a91";
  const key = "query-key-77c3e0";
  // A server that echoes back what it was sent, as debug pages and naive errors do.
  await using server = serve({}, (inner) => async (req) => {
    if (req.method !== "POST") return await inner(req);
    const body = await req.text();
    const message = JSON.parse(body);
    const echo = `session ${req.headers.get("mcp-session-id")} auth ${
      req.headers.get("authorization")
    } url ${req.url}`;
    if (message?.params?.name === "plain") return new Response(echo, { status: 400 });
    if (message?.params?.name === "html") {
      return new Response(`<html><body><p>${echo}</p></body></html>`, {
        status: 500,
        headers: { "content-type": "text/html" },
      });
    }
    if (message?.params?.name === "json") {
      return Response.json({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32000, message: echo },
      }, {
        status: 400,
      });
    }
    return await inner(new Request(req.url, { method: "POST", headers: req.headers, body }));
  });
  await using fx = await connect(`${server.url}?key=${key}`, {
    requestHeaders: () => ({ Authorization: `Bearer ${token}` }),
  });
  const session = sessionOf(fx)!;
  const messages: string[] = [];
  for (const name of ["plain", "html", "json"]) {
    await assert.rejects(fx.client.callTool(name, {}), (error: Error) => {
      messages.push(error.message);
      return true;
    });
  }
  for (const message of messages) {
    for (const secret of [session, token, key]) {
      assert.ok(!message.includes(secret), `${message} shows a secret`);
    }
    assert.match(message, /\*\*\*/);
  }
});

Deno.test("an unreachable server fails with TransportError that hides the query and the token", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const error = await rejectsWith(
    Client.connect(transport(`http://127.0.0.1:${port}/mcp?key=query-secret-19`, {
      headers: { Authorization: "Bearer header-secret-42" },
    })),
    TransportError,
  );
  assert.match(error.message, new RegExp(`Cannot reach the server .*127\\.0\\.0\\.1:${port}/mcp`));
  assert.doesNotMatch(error.message, /query-secret|header-secret/);
  assert.equal(error.cause, undefined);
});
