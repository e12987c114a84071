// DNS rebinding: a web page on attacker.example makes the browser send its own host name in Host
// (and its own origin in Origin) to a server bound to loopback. Only real loopback names pass.

import assert from "node:assert/strict";
import { rawRequest, tinyHttpServer } from "./_http.ts";

const FOREIGN_HOSTS = [
  "127.0.0.1.attacker.example",
  "127.0.0.1.attacker.example:{port}",
  "127.attacker.example",
  "localhost.attacker.example",
  "attacker.example",
  "127.0.0.1.", // a trailing dot makes the name absolute: DNS, not the address
  "localhost.",
  "LOCALHOST.attacker.example",
  "0x7f.0.0.1", // not a dotted quad: resolved by whoever reads it
  "2130706433",
  "127.1",
  "10.0.0.1",
  "[::ffff:7f00:1]",
];

const MALFORMED_HOSTS = [
  "attacker.example@127.0.0.1", // userinfo is not part of Host
  "user:pass@localhost:{port}",
  "a b",
  "localhost:{port}/path",
  "localhost:99999",
  "[::1",
];

const LOOPBACK_HOSTS = [
  "localhost",
  "localhost:{port}",
  "LocalHost:{port}",
  "127.0.0.1",
  "127.0.0.1:{port}",
  "127.45.6.7:{port}",
  "[::1]",
  "[::1]:{port}",
];

const FOREIGN_ORIGINS = [
  "http://127.0.0.1.attacker.example",
  "http://127.0.0.1.attacker.example:{port}",
  "http://attacker.example",
  "https://localhost.attacker.example",
  "http://localhost.",
  "http://attacker.example@127.0.0.1",
  "http://0x7f.1",
  "null",
  "file://",
  "http://localhost/path",
];

const LOOPBACK_ORIGINS = [
  "http://localhost:{port}",
  "http://LOCALHOST:{port}",
  "http://127.0.0.1:{port}",
  "https://127.0.0.1",
  "http://[::1]:{port}",
];

Deno.test("a server bound to loopback refuses every foreign or look-alike Host with 403", async () => {
  await using http = tinyHttpServer();
  for (const pattern of FOREIGN_HOSTS) {
    const host = pattern.replace("{port}", http.url.port);
    const { status } = await rawRequest(http.url, { Host: host });
    assert.equal(status, 403, `Host: ${host}`);
  }
});

Deno.test("a malformed, empty or missing Host is a 400, not a crash", async () => {
  await using http = tinyHttpServer();
  for (const pattern of MALFORMED_HOSTS) {
    const host = pattern.replace("{port}", http.url.port);
    const { status, text } = await rawRequest(http.url, { Host: host });
    assert.equal(status, 400, `Host: ${host}`);
    assert.match(text, /Malformed Host header/);
  }
  const empty = await rawRequest(http.url, { Host: "" });
  assert.equal(empty.status, 400);
});

Deno.test("a server bound to loopback accepts loopback Host headers, with or without a port", async () => {
  await using http = tinyHttpServer();
  for (const pattern of LOOPBACK_HOSTS) {
    const host = pattern.replace("{port}", http.url.port);
    const { status } = await rawRequest(http.url, { Host: host });
    assert.equal(status, 200, `Host: ${host}`);
  }
});

Deno.test("foreign and look-alike Origin headers are refused; loopback origins pass", async () => {
  await using http = tinyHttpServer();
  const host = `127.0.0.1:${http.url.port}`;
  for (const pattern of FOREIGN_ORIGINS) {
    const origin = pattern.replace("{port}", http.url.port);
    const { status } = await rawRequest(http.url, { Host: host, Origin: origin });
    assert.equal(status, 403, `Origin: ${origin}`);
  }
  for (const pattern of LOOPBACK_ORIGINS) {
    const origin = pattern.replace("{port}", http.url.port);
    const { status } = await rawRequest(http.url, { Host: host, Origin: origin });
    assert.equal(status, 200, `Origin: ${origin}`);
  }
});

Deno.test("allowedHosts and allowedOrigins replace the loopback rule, compared exactly", async () => {
  await using http = tinyHttpServer({
    allowedHosts: ["mcp.internal.example"],
    allowedOrigins: ["https://app.example"],
  });
  const ok = await rawRequest(http.url, { Host: "MCP.internal.example" });
  assert.equal(ok.status, 200);
  assert.equal((await rawRequest(http.url, { Host: "localhost" })).status, 403);
  assert.equal(
    (await rawRequest(http.url, {
      Host: "mcp.internal.example",
      Origin: "https://app.example.evil",
    }))
      .status,
    403,
  );
  assert.equal(
    (await rawRequest(http.url, { Host: "mcp.internal.example", Origin: "https://app.example" }))
      .status,
    200,
  );
});
