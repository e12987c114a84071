import assert from "node:assert/strict";
import {
  CancelledError,
  Client,
  ConnectionClosedError,
  HttpError,
  HttpTransport,
  SseTransport,
  TransportError,
} from "../../mod.ts";
import { type LegacyOptions, legacySseHandler } from "../../testdata/http/legacy_sse.ts";
import { connectChecked, rejectsWith } from "../_helpers.ts";
import { until } from "./_streamable_fixture.ts";

/** A legacy server on a random loopback port, shut down on dispose. */
function legacyServer(options: LegacyOptions = {}) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    legacySseHandler(options),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** A minimal Streamable HTTP server answering with JSON, for the auto-detection test. */
function streamableServer() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const message = await req.json();
    if (message.id === undefined) return new Response(null, { status: 202 });
    const result = message.method === "initialize"
      ? {
        protocolVersion: "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "modern-http", version: "1.0.0" },
      }
      : message.method === "tools/list"
      ? { tools: [] }
      : {};
    return Response.json({ jsonrpc: "2.0", id: message.id, result });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

function textOf(result: { content: { text?: string }[] }): string {
  return result.content.map((c) => c.text ?? "").join("");
}

Deno.test("SseTransport posts to the announced endpoint and reads answers from the stream", async () => {
  await using server = legacyServer();
  const transport = new SseTransport({ url: `${server.url}/sse` });
  await using fx = await connectChecked(transport);
  assert.equal(fx.client.protocolVersion, "2024-11-05");
  assert.equal(transport.endpoint?.pathname, "/messages");
  assert.deepStrictEqual((await fx.client.listTools()).map((t) => t.name), ["echo"]);
  assert.equal(textOf(await fx.client.callTool("echo", { text: "over sse" })), "over sse");
  await fx.client.ping();
});

Deno.test("SseTransport refuses an endpoint on another origin", async () => {
  await using server = legacyServer({ endpoint: "http://evil.example:9/steal" });
  const error = await rejectsWith(
    Client.connect(new SseTransport({ url: `${server.url}/sse` })),
    TransportError,
  );
  assert.match(error.message, /endpoint on another origin \(http:\/\/evil\.example:9\)/);
});

Deno.test("SseTransport fails start() when no endpoint is announced in time", async () => {
  await using server = legacyServer({ silent: true });
  const error = await rejectsWith(
    Client.connect(new SseTransport({ url: `${server.url}/sse`, endpointTimeoutMs: 100 })),
    TransportError,
  );
  assert.match(error.message, /no endpoint event .* within 100 ms/);
});

Deno.test("a dropped SSE stream fails pending requests with ConnectionClosedError", async () => {
  await using server = legacyServer({ closeOnTool: "vanish" });
  await using fx = await connectChecked(new SseTransport({ url: `${server.url}/sse` }));
  const error = await rejectsWith(fx.client.callTool("vanish", {}), ConnectionClosedError);
  assert.match(error.message, /closed the SSE stream/);
});

Deno.test("HttpTransport falls back to HTTP+SSE when the first POST gets 405", async () => {
  await using server = legacyServer();
  const transport = new HttpTransport({ url: `${server.url}/sse` });
  await using fx = await connectChecked(transport);
  assert.equal(transport.kind, "sse");
  assert.equal(textOf(await fx.client.callTool("echo", { text: "fell back" })), "fell back");
});

Deno.test("HttpTransport stays on Streamable HTTP when the server speaks it", async () => {
  await using server = streamableServer();
  const transport = new HttpTransport({ url: server.url });
  await using fx = await connectChecked(transport);
  assert.equal(transport.kind, "streamable-http");
  assert.equal(fx.client.serverInfo.name, "modern-http");
});

Deno.test("HttpTransport forced to Streamable HTTP surfaces the 405 instead of falling back", async () => {
  await using server = legacyServer();
  const transport = new HttpTransport({ url: `${server.url}/sse`, transport: "streamable-http" });
  const error = await rejectsWith(Client.connect(transport), HttpError);
  assert.equal(error.status, 405);
});

Deno.test("HttpTransport forced to SSE connects without trying a POST first", async () => {
  await using server = legacyServer();
  const transport = new HttpTransport({ url: `${server.url}/sse`, transport: "sse" });
  await using fx = await connectChecked(transport);
  assert.equal(transport.kind, "sse");
  assert.equal(fx.client.serverInfo.name, "legacy-sse");
});

Deno.test("HTTP transports reject non-HTTP URLs and bad headers before any request", () => {
  assert.throws(() => new SseTransport({ url: "file:///etc/passwd" }), /must use http: or https:/);
  assert.throws(
    () =>
      new HttpTransport({
        url: "http://127.0.0.1:1/mcp",
        headers: { "X-Bad": "a\r\nInjected: 1" },
      }),
    /Invalid value for header "X-Bad" in headers: it contains CR, LF or NUL/,
  );
  assert.throws(
    () => new HttpTransport({ url: "http://127.0.0.1:1/mcp", headers: { "Bad Name": "x" } }),
    /Invalid header name "Bad Name"/,
  );
});

/** Holds each tools/call POST until `release()`, counting how many are held at once. */
function holdingCalls() {
  const held = new Set<() => void>();
  const seen: string[] = [];
  let peak = 0;
  return {
    held,
    seen,
    get peak() {
      return peak;
    },
    beforeCall(name: string): Promise<void> {
      seen.push(name);
      const { promise, resolve } = Promise.withResolvers<void>();
      held.add(resolve);
      peak = Math.max(peak, held.size);
      return promise.finally(() => held.delete(resolve));
    },
    release() {
      for (const resolve of [...held]) resolve();
    },
    /** Lets every call go, so that the server can shut down even after a failed assertion. */
    [Symbol.asyncDispose]() {
      this.release();
      return Promise.resolve();
    },
  };
}

Deno.test("SseTransport keeps at most maxConcurrentRequests POSTs of requests in flight", async () => {
  await using server = legacyServer({ beforeCall: (name) => hold.beforeCall(name) });
  await using hold = holdingCalls();
  const transport = new SseTransport({ url: `${server.url}/sse`, maxConcurrentRequests: 2 });
  await using fx = await connectChecked(transport);
  const calls = Promise.all(
    ["a", "b", "c", "d"].map((text) => fx.client.callTool("echo", { text })),
  );
  calls.catch(() => {}); // awaited below; a failed wait must not leave it unhandled
  for (let arrived = 2; arrived <= 4; arrived += 2) {
    await until(() => hold.seen.length === arrived && hold.held.size === 2, `${arrived} calls`);
    hold.release();
  }
  assert.deepStrictEqual((await calls).map(textOf), ["a", "b", "c", "d"]);
  assert.equal(hold.peak, 2);
});

Deno.test("SseTransport never sends a request cancelled while it waited for a slot", async () => {
  await using server = legacyServer({ beforeCall: (name) => hold.beforeCall(name) });
  await using hold = holdingCalls();
  const transport = new SseTransport({ url: `${server.url}/sse`, maxConcurrentRequests: 1 });
  await using fx = await connectChecked(transport, { requestTimeoutMs: 5_000 });
  const first = fx.client.callTool("echo", { text: "first" });
  await until(() => hold.held.size === 1, "the first call to be held");
  const abort = new AbortController();
  const queued = fx.client.callTool("skipped", {}, { signal: abort.signal });
  abort.abort();
  await rejectsWith(queued, CancelledError);
  hold.release();
  assert.equal(textOf(await first), "first");
  const last = fx.client.callTool("echo", { text: "last" });
  await until(() => hold.held.size === 1, "the last call to be held");
  hold.release();
  assert.equal(textOf(await last), "last");
  assert.deepStrictEqual(hold.seen, ["echo", "echo"]);
});
