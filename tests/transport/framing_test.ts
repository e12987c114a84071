import assert from "node:assert/strict";
import { type Diagnostic, type JsonRpcMessage, ProtocolError } from "../../mod.ts";
import { jsonRpcLines } from "../../src/transport/framing.ts";
import { rejectsWith } from "../_helpers.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A byte stream, as Deno gives for a process's stdout: read into the reader's own buffer. */
function byteStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk === undefined) {
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      const view = controller.byobRequest?.view;
      if (view) {
        new Uint8Array(view.buffer, view.byteOffset, view.byteLength).set(chunk);
        controller.byobRequest!.respond(chunk.byteLength);
      } else {
        controller.enqueue(chunk.slice());
      }
    },
  });
}

async function messages(
  source: ReadableStream<Uint8Array>,
  diagnostics: Diagnostic[] = [],
  max = 1024,
): Promise<JsonRpcMessage[]> {
  return await Array.fromAsync(jsonRpcLines(source, max, (d) => diagnostics.push(d)));
}

const ONE = '{"jsonrpc":"2.0","id":1,"result":{"a":1}}';
const TWO = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

for (
  const [kind, stream] of [["a byte stream", byteStream], [
    "a plain stream",
    ReadableStream.from,
  ]] as const
) {
  Deno.test(`jsonRpcLines splits lines across chunks and tolerates CRLF, from ${kind}`, async () => {
    const text = `${ONE}\r\n\n${TWO}\n${ONE}`;
    const chunks = [bytes(text.slice(0, 10)), bytes(text.slice(10, 50)), bytes(text.slice(50))];
    assert.deepStrictEqual(await messages(stream(chunks)), [
      JSON.parse(ONE),
      JSON.parse(TWO),
      JSON.parse(ONE),
    ]);
  });

  Deno.test(`jsonRpcLines keeps a character split across chunks, from ${kind}`, async () => {
    const all = bytes('{"jsonrpc":"2.0","id":1,"result":{"text":"héllo wörld"}}\n');
    const chunks = [all.slice(0, 45), all.slice(45, 49), all.slice(49)];
    const [message] = await messages(stream(chunks));
    assert.deepStrictEqual(message, { jsonrpc: "2.0", id: 1, result: { text: "héllo wörld" } });
  });

  Deno.test(`jsonRpcLines reads on past chunks that hold no message, from ${kind}`, async () => {
    const diagnostics: Diagnostic[] = [];
    const chunks = [
      bytes("Starting server...\n"),
      bytes('{"jsonrpc"'),
      bytes(`:"2.0","id":1,"result":{}}\n`),
    ];
    assert.deepStrictEqual(await messages(stream(chunks), diagnostics), [
      { jsonrpc: "2.0", id: 1, result: {} },
    ]);
    assert.deepStrictEqual(diagnostics.map((d) => d.kind), ["non-json-line"]);
  });
}

Deno.test("jsonRpcLines reuses one buffer for a byte stream without losing earlier lines", async () => {
  const many = Array.from(
    { length: 50 },
    (_, i) => bytes(`{"jsonrpc":"2.0","id":${i},"result":{}}\n`),
  );
  const got = await messages(byteStream(many));
  assert.deepStrictEqual(got.map((m) => (m as { id: number }).id), [...many.keys()]);
});

Deno.test("jsonRpcLines replaces invalid UTF-8 instead of failing", async () => {
  const diagnostics: Diagnostic[] = [];
  await messages(byteStream([new Uint8Array([0x61, 0xff, 0xfe, 0x62, 0x0a])]), diagnostics);
  assert.equal(diagnostics[0]!.data, "a\uFFFD\uFFFDb");
});

Deno.test("jsonRpcLines errors as soon as a line passes the limit", async () => {
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(100).fill(0x78));
    },
  });
  const error = await rejectsWith(messages(endless, [], 1000), ProtocolError);
  assert.match(error.message, /exceeds the 1000 bytes limit/);
  assert.ok(pulled <= 12, `read ${pulled} chunks past a 1000-byte limit`);
});

Deno.test("jsonRpcLines measures each line of a chunk against the limit", async () => {
  const line = (bytes: number) =>
    `{"jsonrpc":"2.0","id":1,"result":{"t":"${"x".repeat(bytes - 42)}"}}`;
  assert.equal(line(100).length, 100);
  // Lines at the limit pass, however many share a chunk and wherever the chunks cut them.
  const fits = `${line(100)}\n${line(100)}\n${line(100)}\n`;
  const cut = [bytes(fits.slice(0, 150)), bytes(fits.slice(150))];
  assert.equal((await messages(byteStream(cut), [], 100)).length, 3);
  // One byte over fails: a line inside a chunk, and a line begun in the chunk before.
  const over = `${line(100)}\n${line(101)}\n${line(100)}\n`;
  await rejectsWith(messages(byteStream([bytes(over)]), [], 100), ProtocolError);
  const begun = [bytes(over.slice(0, 160)), bytes(over.slice(160))];
  await rejectsWith(messages(byteStream(begun), [], 100), ProtocolError);
});

Deno.test("jsonRpcLines decodes a bad sequence at a line's end as that line's", async () => {
  const diagnostics: Diagnostic[] = [];
  // 0xe2 0x82 opens a three-byte character that the newline cuts short.
  const chunks = [new Uint8Array([0x61, 0xe2]), new Uint8Array([0x82, 0x0a, 0x62, 0x0a])];
  await messages(byteStream(chunks), diagnostics);
  assert.deepStrictEqual(diagnostics.map((d) => d.data), ["a\uFFFD", "b"]);
});

Deno.test("jsonRpcLines skips and reports lines that are not JSON-RPC", async () => {
  const diagnostics: Diagnostic[] = [];
  const text = ["Starting server...", ONE, '{"hello":1}', "[1,2]", TWO, ""].join("\n");
  assert.deepStrictEqual(await messages(ReadableStream.from([bytes(text)]), diagnostics), [
    JSON.parse(ONE),
    JSON.parse(TWO),
  ]);
  assert.deepStrictEqual(diagnostics.map((d) => d.kind), [
    "non-json-line",
    "invalid-message",
    "invalid-message",
  ]);
  assert.equal(diagnostics[0]!.data, "Starting server...");
});

Deno.test("jsonRpcLines runs onEnd at the end, and what it throws errors the stream", async () => {
  let ended = 0;
  const done = jsonRpcLines(ReadableStream.from([bytes(`${ONE}\n`)]), 1024, () => {}, {
    onEnd: () => void ended++,
  });
  assert.equal((await Array.fromAsync(done)).length, 1);
  assert.equal(ended, 1);
  const failing = jsonRpcLines(ReadableStream.from([bytes(ONE)]), 1024, () => {}, {
    onEnd: () => {
      throw new Error("the server went away");
    },
  });
  const reader = failing.getReader();
  assert.deepStrictEqual((await reader.read()).value, JSON.parse(ONE)); // the unterminated last line
  await assert.rejects(reader.read(), /the server went away/);
});

Deno.test("jsonRpcLines: aborting the signal cancels the source and errors the stream", async () => {
  let cancelled: unknown;
  const source = new ReadableStream<Uint8Array>({
    pull: () => new Promise(() => {}), // a server that says nothing
    cancel(reason) {
      cancelled = reason;
    },
  });
  const stop = new AbortController();
  const reader = jsonRpcLines(source, 1024, () => {}, { signal: stop.signal }).getReader();
  const read = reader.read();
  stop.abort(new Error("Transport closed"));
  await assert.rejects(read, /Transport closed/);
  assert.match(String(cancelled), /Transport closed/);
});

Deno.test("jsonRpcLines hands messages to a direct hook once the queue is empty, in order", async () => {
  const text = (id: number) => `{"jsonrpc":"2.0","id":${id},"result":{}}\n`;
  // The stream fills its queue before anyone reads: those messages are read, then the rest come
  // through the hook, reading on without further reads.
  const chunks = [bytes(text(1) + text(2)), bytes(text(3)), bytes(text(4) + text(5))];
  const reader: { hook?: (message: JsonRpcMessage) => void } = {};
  const order: string[] = [];
  const stream = jsonRpcLines(byteStream(chunks), 1024, () => {}, {
    onMessage: () => reader.hook,
  });
  await new Promise((resolve) => setTimeout(resolve, 10)); // the first pull queues 1 and 2
  reader.hook = (message) => void order.push(`hook ${(message as { id: number }).id}`);
  for await (const message of stream) order.push(`read ${(message as { id: number }).id}`);
  assert.deepStrictEqual(order, ["read 1", "read 2", "hook 3", "hook 4", "hook 5"]);
});

Deno.test("jsonRpcLines lets a hook's continuation run before it asks the source for more", async () => {
  // A caller whose answer arrives sends its next request a few promise turns later; that write
  // must not queue behind the next read of the pipe.
  const events: string[] = [];
  const chunks = [
    bytes('{"jsonrpc":"2.0","id":1,"result":{}}\n'),
    bytes('{"jsonrpc":"2.0","id":2,"result":{}}\n'),
  ];
  let next = 0;
  const source = new ReadableStream({
    type: "bytes",
    pull(controller) {
      events.push(`read ${next + 1}`);
      const chunk = chunks[next++];
      if (chunk === undefined) {
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      const view = controller.byobRequest!.view!;
      new Uint8Array(view.buffer, view.byteOffset, view.byteLength).set(chunk);
      controller.byobRequest!.respond(chunk.byteLength);
    },
  });
  const stream = jsonRpcLines(source, 1024, () => {}, {
    onMessage: () => (message) => {
      const id = (message as { id: number }).id;
      events.push(`answer ${id}`);
      // what a caller does once awakened: two turns later, it sends again
      void Promise.resolve().then(() => null).then(() => void events.push(`send after ${id}`));
    },
  });
  for await (const _ of stream) assert.fail("every message goes to the hook");
  assert.deepStrictEqual(events, [
    "read 1",
    "answer 1",
    "send after 1",
    "read 2",
    "answer 2",
    "send after 2",
    "read 3",
  ]);
});
