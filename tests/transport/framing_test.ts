import assert from "node:assert/strict";
import { type Diagnostic, type JsonRpcMessage, ProtocolError } from "../../mod.ts";
import { JsonRpcDecodeStream, LineDecodeStream } from "../../src/transport/framing.ts";
import { rejectsWith } from "../_helpers.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

async function lines(chunks: Uint8Array[], max = 1024): Promise<string[]> {
  return await Array.fromAsync(ReadableStream.from(chunks).pipeThrough(new LineDecodeStream(max)));
}

Deno.test("LineDecodeStream splits lines across chunk boundaries and tolerates CRLF", async () => {
  const result = await lines([bytes('{"a":'), bytes('1}\r\n{"b"'), bytes(':2}\n\n{"c":3}')]);
  assert.deepStrictEqual(result, ['{"a":1}', '{"b":2}', '{"c":3}']);
});

Deno.test("LineDecodeStream keeps a multi-byte character split across chunks intact", async () => {
  const all = bytes("héllo wörld\n");
  const result = await lines([all.slice(0, 2), all.slice(2, 9), all.slice(9)]);
  assert.deepStrictEqual(result, ["héllo wörld"]);
});

Deno.test("LineDecodeStream replaces invalid UTF-8 instead of failing", async () => {
  const result = await lines([new Uint8Array([0x61, 0xff, 0xfe, 0x62, 0x0a])]);
  assert.deepStrictEqual(result, ["a\uFFFD\uFFFDb"]);
});

Deno.test("LineDecodeStream errors as soon as a line passes the limit", async () => {
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(100).fill(0x78));
    },
  });
  const error = await rejectsWith(
    Array.fromAsync(endless.pipeThrough(new LineDecodeStream(1000))),
    ProtocolError,
  );
  assert.match(error.message, /exceeds the 1000 bytes limit/);
  assert.ok(pulled <= 12, `read ${pulled} chunks past a 1000-byte limit`);
});

Deno.test("JsonRpcDecodeStream skips and reports lines that are not JSON-RPC", async () => {
  const diagnostics: Diagnostic[] = [];
  const messages: JsonRpcMessage[] = await Array.fromAsync(
    ReadableStream.from([
      "Starting server...",
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      '{"hello":1}',
      "[1,2]",
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    ]).pipeThrough(new JsonRpcDecodeStream((d) => diagnostics.push(d))),
  );
  assert.deepStrictEqual(messages, [
    { jsonrpc: "2.0", id: 1, result: {} },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ]);
  assert.deepStrictEqual(diagnostics.map((d) => d.kind), [
    "non-json-line",
    "invalid-message",
    "invalid-message",
  ]);
  assert.equal(diagnostics[0]!.data, "Starting server...");
});
