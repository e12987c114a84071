// Streamable HTTP error statuses against the fake of testdata/http/streamable_fake.ts: retries after
// Retry-After, Bearer challenges, HTML error pages, redirects, oversized or malformed answers; and the
// parsers of WWW-Authenticate and Retry-After behind them.

import assert from "node:assert/strict";
import { AuthorizationError, Client, HttpError, ProtocolError, TransportError } from "../../mod.ts";
import { parseChallenges, retryAfterMs } from "../../src/transport/_http.ts";
import { rejectsWith } from "../_helpers.ts";
import { connect, count, listen, serve, textOf, transport } from "./_streamable_fixture.ts";

// --- error statuses -----------------------------------------------------------------------------

Deno.test("429 and 503 to an idempotent request are retried after Retry-After (seconds and date)", async () => {
  await using server = serve({
    canned: {
      "tools/list": [
        { status: 429, headers: { "retry-after": "0" }, body: "slow down" },
        { status: 503, headers: { "retry-after": new Date(0).toUTCString() } },
      ],
    },
  });
  // Were Retry-After ignored, the backoff would wait up to a minute and the call time out.
  await using fx = await connect(server.url, { reconnectDelayMs: 60_000, maxDelayMs: 60_000 });
  assert.equal((await fx.client.listTools({ timeoutMs: 10_000 })).length, 5);
  assert.equal(count(server.log, "tools/list"), 3);
});

Deno.test("a Retry-After longer than maxDelayMs is not cut short: the request fails at once with it", async () => {
  await using server = serve({
    canned: { "tools/list": [{ status: 503, headers: { "retry-after": "120" } }] },
  });
  // Retrying after maxDelayMs instead would ask again 119.9 s early, three times, and let the
  // request time out before the caller ever saw the server's answer.
  await using fx = await connect(server.url, { maxDelayMs: 100 });
  const error = await rejectsWith(fx.client.listTools({ timeoutMs: 60_000 }), HttpError);
  assert.equal(error.status, 503);
  assert.equal(error.retryAfterMs, 120_000);
  assert.equal(count(server.log, "tools/list"), 1);
});

Deno.test("429 and 503 to tools/call are not retried: HttpError with retryAfterMs", async () => {
  const later = new Date(Date.now() + 120_000).toUTCString();
  await using server = serve({
    canned: {
      "tools/call": [
        { status: 503, headers: { "retry-after": "7" } },
        { status: 429, headers: { "retry-after": later } },
      ],
    },
  });
  await using fx = await connect(server.url);
  const unavailable = await rejectsWith(fx.client.callTool("echo", {}), HttpError);
  assert.equal(unavailable.status, 503);
  assert.equal(unavailable.retryAfterMs, 7_000);
  const limited = await rejectsWith(fx.client.callTool("echo", {}), HttpError);
  assert.equal(limited.status, 429);
  assert.ok(limited.retryAfterMs! > 100_000 && limited.retryAfterMs! <= 120_000);
  assert.equal(count(server.log, "tools/call"), 2);
});

const CHALLENGE =
  'Bearer resource_metadata="https://auth.example/.well-known/oauth-protected-resource", scope="a b", error="invalid_token"';

Deno.test("401 with a Bearer challenge fails connect with AuthorizationError and its parameters", async () => {
  await using server = serve({
    canned: { "server/discover": [{ status: 401, headers: { "www-authenticate": CHALLENGE } }] },
  });
  const error = await rejectsWith(Client.connect(transport(server.url)), AuthorizationError);
  assert.equal(error.status, 401);
  assert.deepStrictEqual(error.challenges, [{
    scheme: "bearer",
    params: {
      resource_metadata: "https://auth.example/.well-known/oauth-protected-resource",
      scope: "a b",
      error: "invalid_token",
    },
  }]);
});

Deno.test("401 and 403 in the middle of a session fail that request only", async () => {
  await using server = serve({
    canned: {
      "tools/call": [
        { status: 401, headers: { "www-authenticate": CHALLENGE } },
        {
          status: 403,
          headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="admin"' },
        },
      ],
    },
  });
  await using fx = await connect(server.url);
  const expired = await rejectsWith(fx.client.callTool("echo", {}), AuthorizationError);
  assert.equal(expired.challenges[0]?.params.error, "invalid_token");
  const forbidden = await rejectsWith(fx.client.callTool("echo", {}), AuthorizationError);
  assert.equal(forbidden.status, 403);
  assert.deepStrictEqual(forbidden.challenges[0]?.params, {
    error: "insufficient_scope",
    scope: "admin",
  });
  assert.equal(textOf(await fx.client.callTool("echo", { text: "ok" })), "ok");
});

Deno.test("an HTML 502 page becomes an HttpError with the page title and no markup", async () => {
  await using server = serve({
    canned: {
      "tools/call": [{
        status: 502,
        headers: { "content-type": "text/html" },
        body:
          "<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>h1{}</style></head>" +
          "<body><h1>Bad Gateway</h1><p>upstream went away</p></body></html>",
      }],
    },
  });
  await using fx = await connect(server.url);
  const error = await rejectsWith(fx.client.callTool("echo", {}), HttpError);
  assert.equal(error.status, 502);
  assert.match(error.message, /502 Bad Gateway/);
  assert.doesNotMatch(error.message, /[<>]|upstream|h1\{/);
});

Deno.test("a redirect to another origin is refused and that origin receives nothing", async () => {
  const elsewhere: Request[] = [];
  const other = listen((req) => {
    elsewhere.push(req);
    return new Response("stolen");
  });
  try {
    await using server = serve({
      canned: {
        "tools/list": [{ status: 308, headers: { location: "/mcp/moved" } }],
        "tools/call": [{ status: 307, headers: { location: `${other.origin}/steal` } }],
      },
    });
    await using fx = await connect(server.url, { headers: { Authorization: "Bearer abcdef" } });
    assert.equal((await fx.client.listTools()).length, 5); // same origin: followed
    assert.ok(server.log.some((r) => r.path === "/mcp/moved" && r.rpc === "tools/list"));
    const error = await rejectsWith(fx.client.callTool("echo", {}), TransportError);
    assert.match(error.message, /Refusing to follow a redirect/);
    assert.equal(elsewhere.length, 0);
  } finally {
    await other.server.shutdown();
  }
});

Deno.test("a JSON body over maxMessageBytes fails its request; the connection stays up", async () => {
  await using server = serve();
  await using fx = await connect(server.url, { maxMessageBytes: 2048 });
  const error = await rejectsWith(fx.client.callTool("big", { size: 5000 }), ProtocolError);
  assert.match(error.message, /maxMessageBytes/);
  assert.equal(textOf(await fx.client.callTool("echo", { text: "small" })), "small");
});

Deno.test("an SSE event over maxMessageBytes fails its request with ProtocolError", async () => {
  await using server = serve({ answer: "sse" });
  await using fx = await connect(server.url, { maxMessageBytes: 2048 });
  const error = await rejectsWith(fx.client.callTool("big", { size: 5000 }), ProtocolError);
  assert.match(error.message, /maxMessageBytes/);
  assert.equal(textOf(await fx.client.callTool("echo", { text: "small" })), "small");
});

Deno.test("a compressed answer is held to maxMessageBytes once inflated, not by its Content-Length", async () => {
  for (const type of ["application/json", "text/event-stream"]) {
    const gzipped = (req: Request, inner: (req: Request) => Response | Promise<Response>) =>
      req.clone().json().catch(() => undefined).then(async (message) => {
        if (message?.params?.name !== "big") return inner(req);
        const answer = JSON.stringify({
          jsonrpc: "2.0",
          id: message.id,
          result: { content: [{ type: "text", text: "x".repeat(5000) }] },
        });
        const text = type === "application/json" ? answer : `event: message\ndata: ${answer}\n\n`;
        const body = await new Response(
          new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")),
        ).arrayBuffer();
        // a few dozen bytes declared, over 5000 once fetch inflates them
        return new Response(body, {
          headers: { "content-type": type, "content-encoding": "gzip" },
        });
      });
    await using server = serve({}, (inner) => (req) => gzipped(req, inner));
    await using fx = await connect(server.url, { maxMessageBytes: 2048 });
    const error = await rejectsWith(fx.client.callTool("big", {}), ProtocolError);
    assert.match(error.message, /maxMessageBytes/, type);
    assert.equal(textOf(await fx.client.callTool("echo", { text: "small" })), "small");
  }
});

Deno.test("a JSON answer of undeclared length, with another 2xx status or with an identity encoding, is still read and delivered", async () => {
  // None is the common answer (200, a declared length, no encoding) that a request's own path
  // reads: each goes on along the general path, with the response in hand, and its request gets
  // its answer.
  const unusual = (req: Request, inner: (req: Request) => Response | Promise<Response>) =>
    req.clone().json().catch(() => undefined).then(async (message) => {
      const text = message?.params?.arguments?.text;
      if (text !== "streamed" && text !== "created" && text !== "identity") return inner(req);
      const answer = new TextEncoder().encode(JSON.stringify({
        jsonrpc: "2.0",
        id: message.id,
        result: { content: [{ type: "text", text }] },
      }));
      // A stream has no Content-Length: Deno sends it chunked.
      const body = text === "streamed" ? new Blob([answer]).stream() : answer;
      await req.body?.cancel();
      return new Response(body, {
        status: text === "created" ? 201 : 200,
        headers: {
          "content-type": "application/json",
          ...(text === "identity" ? { "content-encoding": "identity" } : {}),
        },
      });
    });
  await using server = serve({}, (inner) => (req) => unusual(req, inner));
  await using fx = await connect(server.url, { maxMessageBytes: 2048 });
  assert.equal(textOf(await fx.client.callTool("echo", { text: "streamed" })), "streamed");
  assert.equal(textOf(await fx.client.callTool("echo", { text: "created" })), "created");
  assert.equal(textOf(await fx.client.callTool("echo", { text: "identity" })), "identity");
  assert.equal(textOf(await fx.client.callTool("echo", { text: "plain" })), "plain");
});

Deno.test("an answer that is neither JSON nor SSE, or broken JSON, fails its request only", async () => {
  await using server = serve({
    canned: {
      "tools/call": [
        { status: 200, headers: { "content-type": "text/plain" }, body: "hello" },
        { status: 200, headers: { "content-type": "application/json" }, body: '{"jsonrpc":' },
      ],
    },
  });
  await using fx = await connect(server.url);
  const plain = await rejectsWith(fx.client.callTool("echo", {}), ProtocolError);
  assert.match(plain.message, /content type "text\/plain"/);
  const broken = await rejectsWith(fx.client.callTool("echo", {}), ProtocolError);
  assert.match(broken.message, /invalid JSON/);
  assert.equal(textOf(await fx.client.callTool("echo", { text: "fine" })), "fine");
});

// --- parsing helpers ----------------------------------------------------------------------------

Deno.test("WWW-Authenticate challenges and Retry-After values are parsed", () => {
  assert.deepStrictEqual(
    parseChallenges('Basic realm="x", Bearer error="invalid_token", error_description="a \\"b\\""'),
    [
      { scheme: "basic", params: { realm: "x" } },
      { scheme: "bearer", params: { error: "invalid_token", error_description: 'a "b"' } },
    ],
  );
  assert.deepStrictEqual(parseChallenges("Negotiate abc123==, Bearer"), [
    { scheme: "negotiate", params: {} },
    { scheme: "bearer", params: {} },
  ]);
  const now = Date.UTC(2026, 0, 1);
  assert.equal(retryAfterMs("120", now), 120_000);
  assert.equal(retryAfterMs("Thu, 01 Jan 2026 00:00:30 GMT", now), 30_000);
  assert.equal(retryAfterMs("Wed, 31 Dec 2025 00:00:00 GMT", now), 0);
  assert.equal(retryAfterMs("soon", now), undefined);
  assert.equal(retryAfterMs(null, now), undefined);
});
