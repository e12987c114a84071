// Streamable HTTP's limit on requests in flight (maxConcurrentRequests), against a small server
// that holds calls until the test lets them go and counts how many it holds at once.

import assert from "node:assert/strict";
import {
  CancelledError,
  type Client,
  type ClientOptions,
  ConnectionClosedError,
  StreamableHttpTransport,
  TransportError,
} from "../../mod.ts";
import { connectChecked, rejectsWith } from "../_helpers.ts";
import {
  connect as connectFake,
  serve as serveFake,
  sessionOf,
  until,
} from "./_streamable_fixture.ts";

type Json = Record<string, unknown>;

/**
 * A 2025-11-25 server with a session and a GET stream. Tool "hold" answers only once `hold`
 * calls are held at once, or when `release()` is called; tool "ask" pings the client on the GET
 * stream and answers once the client has answered the ping.
 */
function holdingServer(hold = Infinity) {
  const encoder = new TextEncoder();
  const calls: string[] = [];
  const held = new Set<() => void>();
  let peak = 0;
  const pongs = new Map<unknown, (answer: Json) => void>();
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  const streamOpen = Promise.withResolvers<void>();
  const releaseAll = () => {
    for (const resolve of [...held]) resolve();
  };
  const answer = (id: unknown, result: Json, headers: Record<string, string> = {}) =>
    Response.json({ jsonrpc: "2.0", id, result }, { headers });
  const text = (value: string) => ({ content: [{ type: "text", text: value }] });

  const handler = async (req: Request): Promise<Response> => {
    if (req.method === "GET") {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          stream = controller;
          streamOpen.resolve();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    if (req.method === "DELETE") return new Response(null, { status: 200 });
    const message = await req.json() as Json;
    if (message.method === undefined) {
      pongs.get(message.id)?.(message);
      return new Response(null, { status: 202 });
    }
    if (message.id === undefined) return new Response(null, { status: 202 });
    const params = (message.params ?? {}) as Json;
    switch (message.method) {
      case "initialize":
        return answer(message.id, {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "holding", version: "1.0.0" },
        }, { "mcp-session-id": "session-1" });
      case "tools/list":
        return answer(message.id, {
          tools: ["hold", "other", "ask", "sample", "echo"].map((name) => ({
            name,
            inputSchema: { type: "object" },
          })),
        });
      case "tools/call":
        break;
      default:
        return answer(message.id, {});
    }
    const name = String(params.name);
    calls.push(name);
    if (name === "ask") {
      await streamOpen.promise;
      const answered = Promise.withResolvers<Json>();
      pongs.set("srv-ping", answered.resolve);
      const ping = JSON.stringify({ jsonrpc: "2.0", id: "srv-ping", method: "ping" });
      stream!.enqueue(encoder.encode(`event: message\ndata: ${ping}\n\n`));
      await answered.promise;
      return answer(message.id, text("answered"));
    }
    if (name === "sample") {
      // Holds the call's answer until the client has answered a sampling request.
      await streamOpen.promise;
      const answered = Promise.withResolvers<Json>();
      pongs.set("srv-sample", answered.resolve);
      const ask = JSON.stringify({
        jsonrpc: "2.0",
        id: "srv-sample",
        method: "sampling/createMessage",
        params: {
          messages: [{ role: "user", content: { type: "text", text: "hi" } }],
          maxTokens: 5,
        },
      });
      stream!.enqueue(encoder.encode(`event: message\ndata: ${ask}\n\n`));
      const reply = ((await answered.promise).result as Json | undefined)?.content as Json;
      return answer(message.id, text(`sampled ${String(reply?.text)}`));
    }
    if (name === "echo") return answer(message.id, text("echo"));
    const released = Promise.withResolvers<void>();
    held.add(released.resolve);
    peak = Math.max(peak, held.size);
    if (held.size >= hold) releaseAll();
    await released.promise;
    held.delete(released.resolve);
    return answer(message.id, text(name));
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    calls,
    get peak() {
      return peak;
    },
    get held() {
      return held.size;
    },
    release: releaseAll,
    async [Symbol.asyncDispose]() {
      releaseAll();
      for (const resolve of pongs.values()) resolve({});
      try {
        stream?.close();
      } catch {
        // the client already closed it
      }
      await server.shutdown();
    },
  };
}

function connect(url: string, maxConcurrentRequests?: number, options: ClientOptions = {}) {
  const transport = new StreamableHttpTransport({
    url,
    ...(maxConcurrentRequests === undefined ? {} : { maxConcurrentRequests }),
  });
  return connectChecked(transport, { protocol: "legacy", requestTimeoutMs: 10_000, ...options });
}

Deno.test("no more requests than maxConcurrentRequests wait for their answer at once", async () => {
  await using server = holdingServer();
  await using fx = await connect(server.url, 2);
  const calls = Promise.all(Array.from({ length: 6 }, () => fx.client.callTool("hold", {})));
  calls.catch(() => {}); // awaited below; a failed wait must not leave it unhandled
  // Two at a time: the next two arrive only once the server has let the last two go.
  for (let arrived = 2; arrived <= 6; arrived += 2) {
    await until(() => server.calls.length === arrived && server.held === 2, `${arrived} calls`);
    server.release();
  }
  const results = await calls;
  for (const result of results) assert.equal(result.content[0]?.text, "hold");
  assert.equal(server.peak, 2);
});

Deno.test("by default 32 requests may be in flight at once, and a 33rd waits", async () => {
  // The server answers only once 32 are held: fewer in flight would never finish.
  await using server = holdingServer(32);
  await using fx = await connect(server.url);
  const calls = Promise.all(Array.from({ length: 33 }, () => fx.client.callTool("hold", {})));
  calls.catch(() => {}); // awaited below; a failed wait must not leave it unhandled
  // The 33rd is sent only once the first 32 are answered; then it is held alone.
  await until(() => server.calls.length === 33 && server.held === 1, "the 33rd call");
  server.release();
  assert.equal((await calls).length, 33);
  assert.equal(server.peak, 32);
});

Deno.test("an answer to the server never waits behind the requests that fill the limit", async () => {
  await using server = holdingServer();
  await using fx = await connect(server.url, 1);
  // The call holds the only slot until the server has our answer to its ping.
  const result = await fx.client.callTool("ask", {});
  assert.equal(result.content[0]?.text, "answered");
});

Deno.test("requests made while answering the server skip the limit: the answer may need them", async () => {
  await using server = holdingServer();
  const connected: { client?: Client } = {};
  await using fx = await connect(server.url, 1, {
    // The server holds the call until it has this answer, which needs a call of its own.
    onSampling: async () => {
      const echoed = await connected.client!.callTool("echo", {});
      const text = echoed.content[0]?.text ?? "";
      return { role: "assistant", model: "m", content: { type: "text", text } };
    },
  });
  connected.client = fx.client;
  const result = await fx.client.callTool("sample", {});
  assert.equal(result.content[0]?.text, "sampled echo");
});

Deno.test("a ping never waits behind the requests that fill the limit", async () => {
  await using server = holdingServer();
  await using fx = await connect(server.url, 1);
  const held = fx.client.callTool("hold", {});
  await until(() => server.held === 1, "the call to be held");
  // A health check must see a live server, not our queue.
  await fx.client.ping();
  server.release();
  assert.equal((await held).content[0]?.text, "hold");
});

Deno.test("a request cancelled while it waits for a slot is never sent", async () => {
  await using server = holdingServer();
  await using fx = await connect(server.url, 1);
  const first = fx.client.callTool("hold", {});
  await until(() => server.held === 1, "the first call to be held");
  const abort = new AbortController();
  const queued = fx.client.callTool("other", {}, { signal: abort.signal });
  abort.abort();
  await rejectsWith(queued, CancelledError);
  server.release();
  await first;
  await fx.client.callTool("echo", {});
  assert.deepStrictEqual(server.calls, ["hold", "echo"]);
});

Deno.test("requests queued behind one that finds its session expired go out in the new session", async () => {
  await using server = serveFake({ expire: { method: "tools/call", times: 1 } });
  await using fx = await connectFake(server.url, { maxConcurrentRequests: 1 });
  const first = sessionOf(fx);
  const texts = ["a", "b", "c", "d"];
  const results = await Promise.all(texts.map((text) => fx.client.callTool("echo", { text })));
  assert.deepStrictEqual(results.map((r) => r.content[0]?.text), texts);
  const second = sessionOf(fx);
  assert.ok(second && second !== first);
  // The expired call once in each session; every other call once, in the new one.
  const calls = server.log.filter((r) => r.rpc === "tools/call");
  assert.deepStrictEqual(calls.map((r) => r.session), [first, second, second, second, second]);
});

Deno.test("closing fails the requests still waiting for a slot", async () => {
  await using server = holdingServer();
  const fx = await connect(server.url, 1);
  const first = fx.client.callTool("hold", {});
  await until(() => server.held === 1, "the first call to be held");
  const queued = fx.client.callTool("other", {});
  const failures = [first, queued].map((call) => rejectsWith(call, ConnectionClosedError));
  await fx[Symbol.asyncDispose]();
  await Promise.all(failures);
  assert.deepStrictEqual(server.calls, ["hold"]);
});

Deno.test("maxConcurrentRequests must be a whole number of at least 1, or Infinity", async () => {
  for (const bad of [0, -1, 1.5, NaN]) {
    assert.throws(
      () =>
        new StreamableHttpTransport({ url: "http://127.0.0.1:1/mcp", maxConcurrentRequests: bad }),
      (error: unknown) =>
        error instanceof TransportError && /maxConcurrentRequests/.test(error.message),
    );
  }
  const unlimited = new StreamableHttpTransport({
    url: "http://127.0.0.1:1/mcp",
    maxConcurrentRequests: Infinity,
  });
  await unlimited.close();
});

Deno.test("a cancelled request whose re-issue waits for a slot is not sent, and the cancellation names the re-issue", async () => {
  // A modern call whose answer stream ends early is re-issued under a new id; here the re-issue
  // waits behind a held call when the session cancels the call by the id it knows.
  const posted: { id?: unknown; method?: string; params?: Json }[] = [];
  const endCut = Promise.withResolvers<void>();
  const releaseHold = Promise.withResolvers<void>();
  const answer = (id: unknown) => Response.json({ jsonrpc: "2.0", id, result: { content: [] } });
  const fakeFetch: typeof fetch = async (_input, init) => {
    const message = JSON.parse(String(init?.body ?? "null"));
    posted.push(message);
    if (message.params?.name === "cut") {
      const body = new ReadableStream({
        async start(controller) {
          await endCut.promise;
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    if (message.params?.name === "hold") {
      await releaseHold.promise;
      return answer(message.id);
    }
    return new Response(null, { status: 202 });
  };
  const transport = new StreamableHttpTransport({
    url: "http://127.0.0.1:9/mcp",
    fetch: fakeFetch,
    maxConcurrentRequests: 1,
    openServerStream: false,
  });
  const received: unknown[] = [];
  const reading = (async () => {
    for await (const message of transport.readable) received.push(message);
  })();
  const writer = transport.writable.getWriter();
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
  await writer.write({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "cut", _meta: meta },
  });
  await writer.write({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "hold", _meta: meta },
  });
  await until(() => posted.length === 2, "both calls to be posted");
  endCut.resolve(); // request 1 loses its stream; its re-issue queues behind request 2
  await new Promise((resolve) => setTimeout(resolve, 20));
  await writer.write({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 1 },
  });
  releaseHold.resolve();
  await until(() => received.length === 1, "the answer to request 2");
  writer.releaseLock();
  await transport.close();
  await reading;
  assert.deepStrictEqual(posted.map((m) => m.id ?? m.method), [1, 2, "notifications/cancelled"]);
  assert.match(String(posted[2]?.params?.requestId), /^mcp-inspect-reissue-/);
});
