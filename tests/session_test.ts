import assert from "node:assert/strict";
import { fakeTime, rejectsWith } from "./_helpers.ts";
import {
  CancelledError,
  ConnectionClosedError,
  type Diagnostic,
  type JsonObject,
  type JsonRpcMessage,
  McpError,
  MemoryTransport,
  type Progress,
  Session,
  type SessionOptions,
  TimeoutError,
  type Transport,
} from "../mod.ts";

// Raw wire messages are inspected field by field.
// deno-lint-ignore no-explicit-any
type Wire = any;

/** A session on one end of a memory pair, and raw access to the other end. */
function pair(options: SessionOptions = {}) {
  const [near, far] = MemoryTransport.pair();
  const session = new Session(near, options);
  const reader = far.readable.getReader();
  const writer = far.writable.getWriter();
  return {
    session,
    async next(): Promise<Wire> {
      const { value, done } = await reader.read();
      if (done) throw new Error("peer closed");
      return value;
    },
    send(message: Record<string, unknown>): Promise<void> {
      return writer.write({ jsonrpc: "2.0", ...message } as JsonRpcMessage);
    },
    async [Symbol.asyncDispose]() {
      await session.close();
      reader.releaseLock();
      writer.releaseLock();
      await far.close();
    },
  };
}

Deno.test("request() resolves with the result of the matching response", async () => {
  await using peer = pair();
  const pending = peer.session.request("tools/list", {});
  const request = await peer.next();
  assert.deepStrictEqual(request, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
  await peer.send({ id: 1, result: { tools: [] } });
  assert.deepStrictEqual(await pending, { tools: [] });
});

Deno.test("request() rejects with McpError carrying the server's code and data", async () => {
  await using peer = pair();
  const pending = peer.session.request("tools/call", { name: "x" });
  await peer.next();
  await peer.send({ id: 1, error: { code: -32001, message: "Tool exploded", data: { a: 1 } } });
  const error = await rejectsWith(pending, McpError);
  assert.deepStrictEqual([error.code, error.message, error.data], [-32001, "Tool exploded", {
    a: 1,
  }]);
});

Deno.test("a timed-out request rejects with TimeoutError and sends notifications/cancelled", async () => {
  using clock = fakeTime();
  await using peer = pair();
  const pending = peer.session.request("tools/call", {}, { timeoutMs: 20 });
  let settled = false;
  pending.catch(() => {}).finally(() => settled = true);
  await peer.next();
  await clock.tickAsync(19);
  assert.equal(settled, false, "still waiting 1 ms before its timeout");
  await clock.tickAsync(1);
  const error = await rejectsWith(pending, TimeoutError);
  assert.deepStrictEqual([error.method, error.timeoutMs, error.kind], ["tools/call", 20, "idle"]);
  const cancel = await peer.next();
  assert.deepStrictEqual((cancel as { method: string }).method, "notifications/cancelled");
  assert.deepStrictEqual((cancel as { params: { requestId: number } }).params.requestId, 1);
});

Deno.test("progress resets the timeout when asked, but the total limit still applies", async () => {
  using clock = fakeTime();
  await using peer = pair();
  const seen: Progress[] = [];
  const pending = peer.session.request("tools/call", {}, {
    timeoutMs: 60,
    resetTimeoutOnProgress: true,
    maxTotalTimeoutMs: 150,
    onProgress: (p) => seen.push(p),
  });
  const request = await peer.next() as { params: { _meta: { progressToken: number } } };
  const token = request.params._meta.progressToken;
  assert.deepStrictEqual(token, 1);
  let progress = 0;
  const timer = setInterval(() => {
    peer.send({
      method: "notifications/progress",
      params: { progressToken: token, progress: ++progress },
    });
  }, 20);
  try {
    const timedOut = rejectsWith(pending, TimeoutError);
    await clock.tickAsync(150);
    const error = await timedOut;
    assert.deepStrictEqual(error.kind, "total");
    assert.ok(seen.length >= 3, `expected several progress updates, got ${seen.length}`);
  } finally {
    clearInterval(timer);
  }
});

Deno.test("progress notifications reach onProgress with total and message", async () => {
  await using peer = pair();
  const seen: Progress[] = [];
  const pending = peer.session.request("tools/call", {}, { onProgress: (p) => seen.push(p) });
  await peer.next();
  await peer.send({
    method: "notifications/progress",
    params: { progressToken: 1, progress: 1, total: 2, message: "half" },
  });
  await peer.send({ method: "notifications/progress", params: { progressToken: 99, progress: 1 } });
  await peer.send({ id: 1, result: {} });
  await pending;
  assert.deepStrictEqual(seen, [{ progress: 1, total: 2, message: "half" }]);
});

Deno.test("aborting a request rejects with CancelledError and tells the server", async () => {
  await using peer = pair();
  const controller = new AbortController();
  const pending = peer.session.request("tools/call", {}, { signal: controller.signal });
  await peer.next();
  controller.abort("user pressed Ctrl-C");
  const error = await rejectsWith(pending, CancelledError);
  assert.deepStrictEqual(error.reason, "user pressed Ctrl-C");
  const cancel = await peer.next() as { method: string; params: Record<string, unknown> };
  assert.deepStrictEqual(cancel.method, "notifications/cancelled");
  assert.deepStrictEqual(cancel.params.requestId, 1);
  // a late response for the cancelled request is dropped, not delivered
  await peer.send({ id: 1, result: {} });
  assert.deepStrictEqual(peer.session.pendingCount, 0);
});

Deno.test("an already aborted signal rejects without sending anything", async () => {
  await using peer = pair();
  const pending = peer.session.request("ping", {}, { signal: AbortSignal.abort() });
  await rejectsWith(() => pending, CancelledError);
  const next = peer.session.request("ping");
  assert.deepStrictEqual((await peer.next() as { id: number }).id, 1);
  await peer.send({ id: 1, result: {} });
  await next;
});

Deno.test("initialize is never cancelled with a notification", async () => {
  await using peer = pair();
  const controller = new AbortController();
  const pending = peer.session.request("initialize", {}, { signal: controller.signal });
  await peer.next();
  controller.abort();
  await rejectsWith(() => pending, CancelledError);
  const ping = peer.session.request("ping");
  const after = await peer.next() as { method: string };
  assert.deepStrictEqual(after.method, "ping"); // no notifications/cancelled in between
  await peer.send({ id: 2, result: {} });
  await ping;
});

Deno.test("ping is answered automatically and unknown methods get -32601", async () => {
  await using peer = pair();
  await peer.send({ id: "a", method: "ping" });
  assert.deepStrictEqual(await peer.next(), { jsonrpc: "2.0", id: "a", result: {} });
  await peer.send({ id: 7, method: "no/such" });
  const response = await peer.next() as { id: number; error: { code: number } };
  assert.deepStrictEqual([response.id, response.error.code], [7, -32601]);
});

Deno.test("request handlers answer, and their errors become JSON-RPC errors", async () => {
  await using peer = pair();
  peer.session.setRequestHandler("roots/list", () => ({ roots: [] }));
  peer.session.setRequestHandler("sampling/createMessage", () => {
    throw new McpError(-32600, "Sampling declined");
  });
  peer.session.setRequestHandler("elicitation/create", () => {
    throw new Error("handler bug");
  });
  await peer.send({ id: 1, method: "roots/list" });
  assert.deepStrictEqual(await peer.next(), { jsonrpc: "2.0", id: 1, result: { roots: [] } });
  await peer.send({ id: 2, method: "sampling/createMessage", params: {} });
  assert.deepStrictEqual((await peer.next() as { error: unknown }).error, {
    code: -32600,
    message: "Sampling declined",
  });
  await peer.send({ id: 3, method: "elicitation/create", params: {} });
  assert.deepStrictEqual((await peer.next() as { error: unknown }).error, {
    code: -32603,
    message: "handler bug",
  });
});

Deno.test("a request the server cancels gets its signal aborted and no response", async () => {
  await using peer = pair();
  const handling = Promise.withResolvers<{ aborted: Promise<void> }>();
  peer.session.setRequestHandler("sampling/createMessage", (_params, { signal }) => {
    const aborted = new Promise<void>((resolve) =>
      signal.addEventListener("abort", () => resolve())
    );
    handling.resolve({ aborted });
    return aborted.then(() => ({ never: true }));
  });
  await peer.send({ id: "s1", method: "sampling/createMessage", params: {} });
  const { aborted } = await handling.promise;
  await peer.send({ method: "notifications/cancelled", params: { requestId: "s1" } });
  await aborted;
  const ping = peer.session.request("ping");
  assert.deepStrictEqual((await peer.next() as { method: string }).method, "ping");
  await peer.send({ id: 1, result: {} });
  await ping;
});

Deno.test("responses with unknown, duplicate or wrongly typed ids are dropped and reported", async () => {
  const diagnostics: Diagnostic[] = [];
  await using peer = pair({ onDiagnostic: (d) => diagnostics.push(d) });
  const pending = peer.session.request("tools/call", {});
  await peer.next();
  await peer.send({ id: 9999, result: { wrong: true } });
  await peer.send({ id: "1", result: { wrong: "type" } });
  await peer.send({ id: 1, result: { right: true } });
  await peer.send({ id: 1, result: { duplicate: true } });
  assert.deepStrictEqual(await pending, { right: true });
  const ping = peer.session.request("ping");
  await peer.next();
  await peer.send({ id: 2, result: {} });
  await ping;
  assert.deepStrictEqual(diagnostics.filter((d) => d.kind === "unknown-response").length, 2);
  assert.ok(diagnostics.some((d) => d.message.includes('"1"')));
  // The second answer to id 1 is told apart from a stray id, naming the request it repeats.
  const duplicate = diagnostics.filter((d) => d.kind === "duplicate-response");
  assert.equal(duplicate.length, 1);
  assert.match(duplicate[0]!.message, /answered request 1 \(tools\/call\) a second time/);
});

Deno.test("notifications reach every listener, and a throwing listener is reported", async () => {
  const diagnostics: Diagnostic[] = [];
  await using peer = pair({ onDiagnostic: (d) => diagnostics.push(d) });
  const got: unknown[] = [];
  peer.session.onNotification("notifications/message", () => {
    throw new Error("listener bug");
  });
  const off = peer.session.onNotification("notifications/message", (p) => got.push(p));
  await peer.send({ method: "notifications/message", params: { level: "info", data: 1 } });
  await peer.send({ id: 5, method: "ping" }); // a round trip orders delivery
  await peer.next();
  off();
  await peer.send({ method: "notifications/message", params: { level: "info", data: 2 } });
  await peer.send({ id: 6, method: "ping" });
  await peer.next();
  assert.deepStrictEqual(got, [{ level: "info", data: 1 }]);
  assert.deepStrictEqual(
    diagnostics.filter((d) => d.kind === "notification-handler-failed").length,
    2,
  );
});

Deno.test("close() rejects pending requests with ConnectionClosedError", async () => {
  await using peer = pair();
  const pending = peer.session.request("tools/call", {});
  await peer.next();
  await peer.session.close();
  await rejectsWith(() => pending, ConnectionClosedError);
  await rejectsWith(() => peer.session.request("ping"), ConnectionClosedError);
  await rejectsWith(() => peer.session.notify("notifications/initialized"), ConnectionClosedError);
});

Deno.test("the peer closing rejects pending requests and reports the reason", async () => {
  const [near, far] = MemoryTransport.pair();
  let reason: Error | undefined;
  const session = new Session(near, { onClose: (r) => reason = r });
  const pending = session.request("tools/call", {});
  await far.close();
  const error = await rejectsWith(() => pending, ConnectionClosedError);
  assert.ok(reason instanceof ConnectionClosedError);
  assert.match(error.message, /closed the connection/);
  await session.close();
});

Deno.test("the meta option adds _meta entries, and the request's own entries win", async () => {
  await using peer = pair();
  const pending = peer.session.request("tools/call", { _meta: { mine: 1 } }, {
    meta: { traceparent: "00-abc-def-01", mine: 2 },
    onProgress: () => {},
  });
  const request = await peer.next();
  assert.deepStrictEqual(request.params._meta, {
    traceparent: "00-abc-def-01",
    mine: 1,
    progressToken: 1,
  });
  await peer.send({ id: 1, result: {} });
  await pending;
});

/** A transport that hands every message to the reader's hook; its readable only ends. */
class DirectTransport implements Transport {
  onMessage: ((message: JsonRpcMessage) => void) | undefined;
  readonly sent: JsonRpcMessage[] = [];
  #end!: ReadableStreamDefaultController<JsonRpcMessage>;
  readonly readable = new ReadableStream<JsonRpcMessage>({ start: (c) => void (this.#end = c) });
  readonly writable = new WritableStream<JsonRpcMessage>({ write: (m) => void this.sent.push(m) });
  start(): Promise<void> {
    return Promise.resolve();
  }
  close(): Promise<void> {
    try {
      this.#end.close();
    } catch {
      // closed already
    }
    return Promise.resolve();
  }
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

Deno.test("the session takes messages straight from a transport that offers them", async () => {
  const transport = new DirectTransport();
  const session = new Session(transport);
  assert.equal(typeof transport.onMessage, "function", "the hook is set before reading");
  const notes: JsonObject[] = [];
  session.onNotification("notifications/message", (params) => notes.push(params));
  const answer = session.request("ping", {});
  await Promise.resolve();
  const { id } = transport.sent[0] as { id: number };
  transport.onMessage!({ jsonrpc: "2.0", method: "notifications/message", params: { n: 1 } });
  transport.onMessage!({ jsonrpc: "2.0", id, result: { pong: true } });
  assert.deepStrictEqual(await answer, { pong: true });
  assert.deepStrictEqual(notes, [{ n: 1 }]);
  await session.close();
  assert.equal(transport.onMessage, undefined, "a closed session takes no more messages");
});

/** A transport that joins what is sent in one turn into one write, as stdio does. */
class BatchingTransport extends DirectTransport {
  /** Settles the current write; what is sent after it goes out in the next one. */
  write = Promise.withResolvers<void>();
  readonly batches: number[][] = [[]];
  send(message: JsonRpcMessage): Promise<void> {
    if ("id" in message) this.batches.at(-1)!.push(message.id as number);
    return this.write.promise;
  }
  /** Ends the current write with `error`, or successfully, and opens the next. */
  settle(error?: Error): void {
    if (error) this.write.reject(error);
    else this.write.resolve();
    this.write = Promise.withResolvers<void>();
    this.batches.push([]);
  }
}

Deno.test("a failed write fails every request it carried, and only those", async () => {
  const transport = new BatchingTransport();
  const session = new Session(transport);
  const first = [session.request("a"), session.request("b")];
  transport.settle(); // written: they wait for their answers
  const second = [session.request("c"), session.request("d")];
  transport.settle(new Error("stdin closed"));
  const third = session.request("e");
  assert.deepStrictEqual(transport.batches.slice(0, 3), [[1, 2], [3, 4], [5]]);
  for (const failed of second) {
    const error = await rejectsWith(failed, ConnectionClosedError);
    assert.match(error.message, /stdin closed/);
  }
  // The first write's requests still wait for their answers, and the third write is fine.
  transport.onMessage!({ jsonrpc: "2.0", id: 1, result: { n: 1 } });
  transport.onMessage!({ jsonrpc: "2.0", id: 2, result: { n: 2 } });
  assert.deepStrictEqual(await Promise.all(first), [{ n: 1 }, { n: 2 }]);
  transport.settle();
  transport.onMessage!({ jsonrpc: "2.0", id: 5, result: { n: 5 } });
  assert.deepStrictEqual(await third, { n: 5 });
  await session.close();
});
