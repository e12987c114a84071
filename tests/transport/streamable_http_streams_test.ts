// Streamable HTTP streams against the fake of testdata/http/streamable_fake.ts (and one hand-written
// server that checks the exact Last-Event-ID): response streams resumed or polled with
// Last-Event-ID, SSE answers of known length that drop, and the GET stream.

import assert from "node:assert/strict";
import { ConnectionClosedError, type Diagnostic, StreamableHttpTransport } from "../../mod.ts";
import { connectChecked, rejectsWith } from "../_helpers.ts";
import { connect, eventually, serve, signal, textOf, until } from "./_streamable_fixture.ts";

// --- streams ------------------------------------------------------------------------------------

Deno.test("a response stream cut mid-event is resumed by GET with Last-Event-ID after retry:", async () => {
  await using server = serve({ retryMs: 5 });
  // Without the server's retry: the next attempt would wait a minute and the call time out.
  await using fx = await connect(server.url, { reconnectDelayMs: 60_000, maxDelayMs: 60_000 });
  const progress: number[] = [];
  const result = await fx.client.callTool("cut", { how: "mid-event" }, {
    onProgress: (p) => progress.push(p.progress),
    timeoutMs: 10_000,
  });
  assert.equal(textOf(result), "resumed after mid-event");
  assert.deepStrictEqual(progress, [1]);
  const resumes = server.log.filter((r) => r.method === "GET" && r.lastEventId !== null);
  assert.equal(resumes.length, 1);
});

Deno.test("a hand-written server's cut stream is resumed with the Last-Event-ID of its last complete event", async () => {
  const lastEventIds: (string | null)[] = [];
  let pending: unknown;
  const encoder = new TextEncoder();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "GET") {
      lastEventIds.push(req.headers.get("last-event-id"));
      // The resumed stream carries the response the cut stream never finished.
      const body = `id: e3\nevent: message\ndata: ${
        JSON.stringify({
          jsonrpc: "2.0",
          id: pending,
          result: { content: [{ type: "text", text: "resumed" }] },
        })
      }\n\n`;
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    if (req.method === "DELETE") return new Response(null, { status: 405 });
    const message = await req.json();
    if (message.id === undefined) return new Response(null, { status: 202 });
    if (message.method === "initialize") {
      return Response.json({
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "cut", version: "1" },
        },
      }, { headers: { "mcp-session-id": "s1" } });
    }
    if (message.method === "tools/list") {
      return Response.json({ jsonrpc: "2.0", id: message.id, result: { tools: [] } });
    }
    pending = message.id;
    // A priming event with an id and a retry, a progress event, then half an event, then EOF.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(`id: e1\nretry: 20\ndata: \n\n`));
        controller.enqueue(
          encoder.encode(
            `id: e2\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${message.id},"progress":1}}\n\n`,
          ),
        );
        controller.enqueue(
          encoder.encode(`id: e3\nevent: message\ndata: {"jsonrpc":"2.0","id":${message.id},"res`),
        );
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  try {
    await using fx = await connectChecked(
      new StreamableHttpTransport({
        url: `http://127.0.0.1:${server.addr.port}/mcp`,
        openServerStream: false,
      }),
      { protocol: "legacy" },
    );
    const progress: number[] = [];
    const result = await fx.client.callTool("slow", {}, {
      onProgress: (p) => progress.push(p.progress),
    });
    assert.equal(result.content[0]?.text, "resumed");
    assert.deepStrictEqual(progress, [1]);
    assert.deepStrictEqual(lastEventIds, ["e2"]); // the last complete event, not the cut one
  } finally {
    await server.shutdown();
  }
});

Deno.test("a response stream that ends before its response is polled with GET after retry:", async () => {
  await using server = serve({ retryMs: 5 });
  await using fx = await connect(server.url, { reconnectDelayMs: 60_000, maxDelayMs: 60_000 });
  const result = await fx.client.callTool("cut", { how: "before-response" }, {
    onProgress: () => {},
    timeoutMs: 10_000,
  });
  assert.equal(textOf(result), "resumed after before-response");
});

Deno.test("a response stream cut without event ids fails its request; the connection stays up", async () => {
  await using server = serve();
  await using fx = await connect(server.url);
  const error = await rejectsWith(
    fx.client.callTool("cut", { how: "no-ids" }, { onProgress: () => {} }),
    ConnectionClosedError,
  );
  assert.match(error.message, /no event id to resume from/);
  assert.equal(textOf(await fx.client.callTool("echo", { text: "still" })), "still");
});

/**
 * A fetch that answers a call of "slow" with an SSE body declaring `length` bytes that ends early, after
 * an event with id k1 and a progress event with id k2, and answers a resumption from k2.
 */
function cuttingFetch(length: number): typeof fetch {
  const encoder = new TextEncoder();
  let pending: unknown;
  return (input, init) => {
    const message = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    if (message?.method === "tools/call" && message.params.name === "slow") {
      pending = message.id;
      const progress = JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: message.params._meta.progressToken, progress: 1 },
      });
      const chunks = [
        `id: k1\nretry: 5\ndata: \n\n`,
        `id: k2\nevent: message\ndata: ${progress}\n\n`,
      ];
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk) controller.enqueue(encoder.encode(chunk));
          else controller.error(new TypeError("connection reset"));
        },
      });
      return Promise.resolve(
        new Response(body, {
          headers: { "content-type": "text/event-stream", "content-length": String(length) },
        }),
      );
    }
    if (new Headers(init?.headers).get("last-event-id") === "k2") {
      const answer = {
        jsonrpc: "2.0",
        id: pending,
        result: { content: [{ type: "text", text: "kept" }] },
      };
      return Promise.resolve(
        new Response(`id: k3\nevent: message\ndata: ${JSON.stringify(answer)}\n\n`, {
          headers: { "content-type": "text/event-stream" },
        }),
      );
    }
    return fetch(input, init);
  };
}

Deno.test("an SSE answer of known length that drops keeps what arrived and resumes", async () => {
  for (const length of [4096, 1024 * 1024]) {
    await using server = serve();
    // A Content-Length that the connection never reaches, as when a proxy cuts the answer.
    await using fx = await connect(server.url, { fetch: cuttingFetch(length) });
    const progress: number[] = [];
    const result = await fx.client.callTool("slow", {}, {
      onProgress: (p) => progress.push(p.progress),
    });
    assert.equal(textOf(result), "kept", `length ${length}`);
    assert.deepStrictEqual(progress, [1]);
  }
});

Deno.test("an SSE answer of known length cut after the answer arrived delivers it, once", async () => {
  await using server = serve();
  const encoder = new TextEncoder();
  let calls = 0;
  const cutAfterAnswer: typeof fetch = (input, init) => {
    const message = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    if (message?.method !== "tools/call" || message.params.name !== "slow") {
      return fetch(input, init);
    }
    calls++;
    const answer = {
      jsonrpc: "2.0",
      id: message.id,
      result: { content: [{ type: "text", text: "done" }] },
    };
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new TypeError("connection reset"));
        sent = true;
        controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(answer)}\n\n`));
      },
    });
    return Promise.resolve(
      new Response(body, {
        headers: { "content-type": "text/event-stream", "content-length": "4096" },
      }),
    );
  };
  await using fx = await connect(server.url, { fetch: cutAfterAnswer });
  assert.equal(textOf(await fx.client.callTool("slow", {})), "done");
  assert.equal(calls, 1);
});

Deno.test("closing stops an SSE answer of known length that stalls, whatever fetch made it", async () => {
  await using server = serve();
  let stalled = false;
  // A wrapped fetch whose body ignores the abort signal and never delivers its 100 bytes.
  const stalling: typeof fetch = (input, init) => {
    const message = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    if (message?.method !== "tools/call") return fetch(input, init);
    stalled = true;
    return Promise.resolve(
      new Response(new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) }), {
        headers: { "content-type": "text/event-stream", "content-length": "100" },
      }),
    );
  };
  const fx = await connect(server.url, { fetch: stalling });
  const call = rejectsWith(fx.client.callTool("echo", { text: "never" }), ConnectionClosedError);
  await until(() => stalled, "the call to be sent");
  await eventually(Promise.resolve(fx[Symbol.asyncDispose]()), "close() to finish");
  await call;
});

Deno.test("the GET stream carries server notifications and requests after the handshake", async () => {
  await using server = serve();
  const changed = signal();
  await using fx = await connect(server.url, {}, {
    listeners: { toolsListChanged: () => changed.resolve() },
  });
  assert.equal(textOf(await fx.client.callTool("announce", {})), "announced");
  await eventually(changed.promise, "tools/list_changed");
  // the server's ping, sent on the GET stream, is answered with a POST
  await until(() => server.log.some((r) => r.rpc === "response"), "the answer to the ping");
  const gets = server.log.filter((r) => r.method === "GET");
  assert.equal(gets.length, 1);
});

Deno.test("a GET stream that closes after each message is reopened with Last-Event-ID", async () => {
  await using server = serve({ getStream: "polling", retryMs: 5 });
  let changes = 0;
  await using fx = await connect(server.url, {}, {
    listeners: { toolsListChanged: () => changes++ },
  });
  await fx.client.callTool("announce", {});
  await until(() => changes === 1, "the first tools/list_changed");
  await fx.client.callTool("announce", {});
  await until(() => changes === 2, "the second tools/list_changed");
  const resumed = server.log.filter((r) => r.method === "GET" && r.lastEventId !== null);
  assert.ok(resumed.length >= 1);
});

Deno.test("405 to GET is accepted: no retries, no diagnostics, and requests still work", async () => {
  await using server = serve({ getStream: "405" });
  const diagnostics: Diagnostic[] = [];
  await using fx = await connect(server.url, { onDiagnostic: (d) => diagnostics.push(d) });
  await until(() => server.log.some((r) => r.method === "GET"), "the GET attempt");
  assert.equal(textOf(await fx.client.callTool("echo", { text: "ok" })), "ok");
  assert.equal(server.log.filter((r) => r.method === "GET").length, 1);
  assert.deepStrictEqual(diagnostics, []);
});
