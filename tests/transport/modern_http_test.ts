import assert from "node:assert/strict";
import { Client, type Diagnostic, ProtocolError, StreamableHttpTransport } from "../../mod.ts";
import { encodeHeaderValue, headerParams, paramHeaders } from "../../src/transport/_mcp_headers.ts";
import { modernHttpFake } from "../../testdata/http/modern_http.ts";
import { connectChecked } from "../_helpers.ts";

function serve(supported?: string[]) {
  const fake = modernHttpFake(supported ? { supported } : {});
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, fake.handler);
  return {
    fake,
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

Deno.test("header values are sent plain when safe and base64-encoded otherwise", () => {
  assert.equal(encodeHeaderValue("us-west1"), "us-west1");
  assert.equal(encodeHeaderValue("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
  assert.equal(encodeHeaderValue(" padded "), "=?base64?IHBhZGRlZCA=?=");
  assert.equal(encodeHeaderValue("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
  assert.equal(encodeHeaderValue("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
});

Deno.test("x-mcp-header annotations are found on reachable properties and rejected elsewhere", () => {
  const params = headerParams({
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      nested: { type: "object", properties: { on: { type: "boolean", "x-mcp-header": "On" } } },
    },
  });
  assert.deepStrictEqual(params, [{ path: ["region"], name: "Region" }, {
    path: ["nested", "on"],
    name: "On",
  }]);
  assert.deepStrictEqual(paramHeaders(params as [], { region: "eu", nested: { on: false } }), [
    ["mcp-param-Region", "eu"],
    ["mcp-param-On", "false"],
  ]);
  assert.deepStrictEqual(paramHeaders(params as [], { region: null }), []);
  const bad = (schema: unknown) => headerParams({ type: "object", properties: { x: schema } });
  assert.match(
    String(bad({ type: "number", "x-mcp-header": "X" })),
    /needs type string, integer or boolean/,
  );
  assert.match(String(bad({ type: "string", "x-mcp-header": "" })), /is empty/);
  assert.match(String(bad({ type: "string", "x-mcp-header": "A B" })), /not a valid header name/);
  assert.match(String(bad({ anyOf: [{ type: "string", "x-mcp-header": "X" }] })), /not reachable/);
  assert.match(
    String(headerParams({
      type: "object",
      properties: {
        a: { type: "string", "x-mcp-header": "Dup" },
        b: { type: "string", "x-mcp-header": "dup" },
      },
    })),
    /used twice/,
  );
});

Deno.test("modern requests carry Mcp-Method, Mcp-Name, Mcp-Param and the revision, and no session", async () => {
  await using server = serve();
  const diagnostics: Diagnostic[] = [];
  await using fx = await connectChecked(
    new StreamableHttpTransport({ url: server.url, onDiagnostic: (d) => diagnostics.push(d) }),
  );
  assert.equal(fx.client.era, "modern");
  const tools = await fx.client.listTools();
  assert.deepStrictEqual(tools.map((t) => t.name), ["lookup", "flaky"]); // invalid ones dropped
  assert.equal(diagnostics.filter((d) => /Dropped tool "bad_/.test(d.message)).length, 2);
  await fx.client.callTool("lookup", { region: "Zürich", limit: 3, query: "x" });
  const call = server.fake.seen.find((s) => s.method === "tools/call")!;
  assert.equal(call.headers.get("mcp-method"), "tools/call");
  assert.equal(call.headers.get("mcp-name"), "lookup");
  assert.equal(call.headers.get("mcp-param-region"), encodeHeaderValue("Zürich"));
  assert.equal(call.headers.get("mcp-param-limit"), "3");
  assert.equal(call.headers.get("mcp-param-query"), null);
  assert.equal(call.headers.get("mcp-protocol-version"), "2026-07-28");
  assert.ok(server.fake.seen.every((s) => s.headers.get("mcp-session-id") === null));
});

Deno.test("a broken response stream is re-issued under a new id and still answers the caller", async () => {
  await using server = serve();
  await using fx = await connectChecked(new StreamableHttpTransport({ url: server.url }));
  const result = await fx.client.callTool("flaky", {});
  assert.equal(result.content[0]?.text, "flaky {}");
  const calls = server.fake.seen.filter((s) => s.method === "tools/call");
  assert.equal(calls.length, 2);
  assert.notEqual(calls[0]!.id, calls[1]!.id);
});

Deno.test("an error body on HTTP 400 is the server's answer: UnsupportedProtocolVersion ends negotiation", async () => {
  await using server = serve(["2027-01-01"]);
  const transport = new StreamableHttpTransport({ url: server.url });
  await assert.rejects(Client.connect(transport), (error) => {
    assert.ok(error instanceof ProtocolError, String(error));
    assert.match(
      (error as Error).message,
      /speaks none of our revisions \(it supports 2027-01-01\)/,
    );
    return true;
  });
});
