// A chunked body declares no length: the server must count bytes as they arrive and refuse as
// soon as the limit is passed, instead of reading a 300 MB body whole before checking its size.

import assert from "node:assert/strict";
import { tinyHttpServer } from "./_http.ts";

const CHUNK = new Uint8Array(64 * 1024).fill(0x20);
const LIMIT = 1024 * 1024;

Deno.test("a chunked body over the limit is refused with 413 long before it ends", async () => {
  await using http = tinyHttpServer({ maxBodyBytes: LIMIT });
  let pulled = 0;
  const total = 300 * 1024 * 1024;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      pulled += CHUNK.byteLength;
      controller.enqueue(CHUNK);
    },
  });
  const response = await fetch(http.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body,
  });
  // What left the client is the limit plus what the socket buffers held: nowhere near 300 MB.
  assert.ok(pulled < 64 * LIMIT, `${pulled} bytes were produced before the 413`);
  assert.equal(response.status, 413);
  assert.match((await response.json()).error.message, /too large \(limit 1048576 bytes\)/);
});

Deno.test("a body within the limit, sent chunked, is read whole and answered", async () => {
  await using http = tinyHttpServer({ maxBodyBytes: LIMIT });
  const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} });
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
      controller.close();
    },
  });
  const response = await fetch(http.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body,
  });
  assert.equal(response.status, 200);
  assert.equal((await response.json()).id, 1);
});

Deno.test("a declared Content-Length over the limit is refused before the body is read", async () => {
  await using http = tinyHttpServer({ maxBodyBytes: 16 });
  const response = await fetch(http.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }),
  });
  assert.equal(response.status, 413);
  await response.body?.cancel();
});
