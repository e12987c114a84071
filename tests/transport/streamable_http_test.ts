// Streamable HTTP (revision 2025-11-25) against the fake of testdata/http/streamable_fake.ts:
// sessions, SSE answers with server requests, resumption, the GET stream, retries, errors, and
// what must never leak into an error message.

import assert from "node:assert/strict";
import {
  AuthorizationError,
  type CallToolResult,
  Client,
  type ClientOptions,
  ConnectionClosedError,
  type Diagnostic,
  HttpError,
  type LogMessage,
  ProtocolError,
  SessionExpiredError,
  StreamableHttpTransport,
  type StreamableHttpTransportOptions,
  TimeoutError,
  TransportError,
} from "../../mod.ts";
import { parseChallenges, retryAfterMs } from "../../src/transport/_http.ts";
import {
  type SeenRequest,
  streamableFake,
  type StreamableFakeOptions,
} from "../../testdata/http/streamable_fake.ts";
import { type CheckedClient, connectChecked, rejectsWith } from "../_helpers.ts";

type Handler = (req: Request) => Response | Promise<Response>;

function listen(handler: Handler) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { server, origin: `http://127.0.0.1:${server.addr.port}` };
}

/** The fake on a free port; `wrap` may answer some requests itself. */
function serve(options: StreamableFakeOptions = {}, wrap?: (inner: Handler) => Handler) {
  const log: SeenRequest[] = [];
  const fake = streamableFake({ ...options, log });
  const { server, origin } = listen(wrap ? wrap(fake) : fake);
  return {
    url: `${origin}/mcp`,
    log,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** Short waits everywhere, so that no test sleeps for long. */
function transport(url: string, options: Partial<StreamableHttpTransportOptions> = {}) {
  return new StreamableHttpTransport({ url, reconnectDelayMs: 10, maxDelayMs: 100, ...options });
}

function connect(
  url: string,
  options: Partial<StreamableHttpTransportOptions> = {},
  client: ClientOptions = {},
) {
  return connectChecked(transport(url, options), client);
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => c.text ?? "").join("");
}

/** Resolves when `check` holds; fails after 5 s instead of hanging. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 5_000) assert.fail(`Still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A promise and the function that resolves it, for events. */
function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => resolve = r);
  return { promise, resolve };
}

/** Awaits an event, failing after 5 s instead of hanging. */
async function eventually<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Still waiting for ${what}`)), 5_000);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const count = (log: SeenRequest[], rpc: string) => log.filter((r) => r.rpc === rpc).length;

/** The session id the transport under the schema check holds. */
function sessionOf(fx: CheckedClient): string | undefined {
  return (fx.transport.inner as StreamableHttpTransport).sessionId;
}

// --- the conversation ---------------------------------------------------------------------------

Deno.test("JSON answers: the probe falls back to initialize, and tools are listed and called", async () => {
  await using server = serve();
  await using fx = await connect(server.url);
  assert.equal(fx.client.era, "legacy");
  assert.equal(fx.client.protocolVersion, "2025-11-25");
  assert.ok(sessionOf(fx));
  assert.deepStrictEqual((await fx.client.listTools()).map((t) => t.name), [
    "echo",
    "chatty",
    "cut",
    "announce",
    "big",
  ]);
  assert.equal(textOf(await fx.client.callTool("echo", { text: "hello" })), "hello");
  assert.equal(count(server.log, "server/discover"), 1);
});

Deno.test("every request after initialize carries the session id and the negotiated revision", async () => {
  await using server = serve();
  const fx = await connect(server.url);
  let session: string | undefined;
  try {
    session = sessionOf(fx);
    await fx.client.callTool("echo", { text: "x" });
    await fx.client.ping();
    await until(() => server.log.some((r) => r.method === "GET"), "the GET stream");
  } finally {
    await fx[Symbol.asyncDispose]();
  }
  const init = server.log.findIndex((r) => r.rpc === "initialize");
  assert.equal(server.log[init]!.session, null);
  const later = server.log.slice(init + 1);
  assert.deepStrictEqual(
    [...new Set(later.map((r) => r.rpc ?? r.method))].sort(),
    ["DELETE", "GET", "notifications/initialized", "ping", "tools/call", "tools/list"],
  );
  for (const request of later) {
    assert.equal(request.session, session, JSON.stringify(request));
    assert.equal(request.protocol, "2025-11-25", JSON.stringify(request));
  }
});

Deno.test("SSE answers deliver progress, logs, roots/list and sampling before the response", async () => {
  await using server = serve({ answer: "sse" });
  const logs: LogMessage[] = [];
  const sampled: string[] = [];
  await using fx = await connect(server.url, {}, {
    roots: [{ uri: "file:///srv/alpha", name: "alpha" }],
    onSampling: (request) => {
      sampled.push(JSON.stringify(request.messages[0]?.content));
      return { role: "assistant", content: { type: "text", text: "Bonjour" }, model: "fake" };
    },
    listeners: { log: (message) => logs.push(message) },
  });
  const progress: number[] = [];
  const result = await fx.client.callTool("chatty", {}, {
    onProgress: (p) => progress.push(p.progress),
  });
  assert.equal(textOf(result), "roots file:///srv/alpha; sampled Bonjour");
  assert.deepStrictEqual(progress, [1, 2]);
  assert.deepStrictEqual(logs.map((l) => l.data), ["working"]);
  assert.match(sampled[0] ?? "", /Say hi/);
  const answers = server.log.filter((r) => r.rpc === "response");
  assert.deepStrictEqual(answers.map((r) => r.id), ["srv-1", "srv-2"]);
  assert.ok(answers.every((r) => r.session !== null && r.protocol === "2025-11-25"));
  // ordinary answers come as SSE too
  assert.equal(textOf(await fx.client.callTool("echo", { text: "sse" })), "sse");
});

Deno.test("a stateless server: no session id is ever sent, GET gets 405, close sends no DELETE", async () => {
  await using server = serve({ sessions: false });
  const fx = await connect(server.url);
  try {
    assert.equal(sessionOf(fx), undefined);
    assert.equal(textOf(await fx.client.callTool("echo", { text: "hi" })), "hi");
    await until(() => server.log.some((r) => r.method === "GET"), "the GET attempt");
  } finally {
    await fx[Symbol.asyncDispose]();
  }
  assert.ok(server.log.every((r) => r.session === null));
  assert.equal(server.log.filter((r) => r.method === "GET").length, 1);
  assert.equal(server.log.filter((r) => r.method === "DELETE").length, 0);
});

// --- sessions -----------------------------------------------------------------------------------

Deno.test("an expired session (404) is replaced once, transparently, and the request succeeds", async () => {
  await using server = serve({ expire: { method: "tools/call", times: 1 } });
  const diagnostics: Diagnostic[] = [];
  await using fx = await connect(server.url, { onDiagnostic: (d) => diagnostics.push(d) });
  const first = sessionOf(fx);
  assert.equal(textOf(await fx.client.callTool("echo", { text: "again" })), "again");
  const second = sessionOf(fx);
  assert.ok(second && second !== first);
  assert.equal(count(server.log, "initialize"), 2);
  assert.equal(count(server.log, "notifications/initialized"), 2);
  const inits = server.log.filter((r) => r.rpc === "initialize");
  assert.ok(inits.every((r) => r.session === null));
  const calls = server.log.filter((r) => r.rpc === "tools/call");
  assert.deepStrictEqual(calls.map((r) => r.session), [first, second]);
  assert.ok(diagnostics.some((d) => /session expired; started a new one/i.test(d.message)));
});

Deno.test("a session that expires again right away fails with SessionExpiredError, not a loop", async () => {
  await using server = serve({ expire: { method: "tools/call", times: 2 } });
  await using fx = await connect(server.url);
  await rejectsWith(fx.client.callTool("echo", { text: "x" }), SessionExpiredError);
  assert.equal(count(server.log, "initialize"), 2);
  assert.equal(count(server.log, "tools/call"), 2);
  // the session the second handshake started still serves
  assert.equal(textOf(await fx.client.callTool("echo", { text: "after" })), "after");
});

Deno.test("reinitializeOnExpiry: false surfaces SessionExpiredError without a new handshake", async () => {
  await using server = serve({ expire: { method: "tools/call", times: 1 } });
  await using fx = await connect(server.url, { reinitializeOnExpiry: false });
  await rejectsWith(fx.client.callTool("echo", { text: "x" }), SessionExpiredError);
  assert.equal(count(server.log, "initialize"), 1);
});

Deno.test("concurrent requests that meet one expiry share one new session", async () => {
  await using server = serve({ expire: { method: "tools/call", times: 1 } });
  await using fx = await connect(server.url);
  const texts = await Promise.all(
    ["a", "b", "c"].map(async (text) => textOf(await fx.client.callTool("echo", { text }))),
  );
  assert.deepStrictEqual(texts, ["a", "b", "c"]);
  assert.equal(count(server.log, "initialize"), 2);
  assert.ok(server.log.filter((r) => r.rpc === "tools/call").every((r) => r.session !== null));
});

Deno.test("after a new session, the GET stream starts afresh and server messages still arrive", async () => {
  await using server = serve({ expire: { method: "tools/call", times: 1 } });
  const changed = signal();
  await using fx = await connect(server.url, {}, {
    listeners: { toolsListChanged: () => changed.resolve() },
  });
  await until(() => server.log.some((r) => r.method === "GET"), "the first GET stream");
  await fx.client.callTool("echo", { text: "renew" });
  await fx.client.callTool("announce", {});
  await eventually(changed.promise, "tools/list_changed in the new session");
  const second = sessionOf(fx);
  const gets = server.log.filter((r) => r.method === "GET" && r.session === second);
  assert.ok(gets.length >= 1);
  // an event id of the old session means nothing in the new one
  assert.ok(gets.every((r) => r.lastEventId === null), JSON.stringify(gets));
});

Deno.test("a GET stream answered 404 on reconnection starts a new session, which then listens", async () => {
  // The first GET stream closes after one message; reconnecting, the client learns of the expiry.
  await using server = serve({
    getStream: "polling",
    expire: { method: "GET", times: 1, skip: 1 },
  });
  let changes = 0;
  await using fx = await connect(server.url, {}, {
    listeners: { toolsListChanged: () => changes++ },
  });
  await fx.client.callTool("announce", {});
  await until(() => count(server.log, "initialize") === 2, "the second handshake");
  const second = () => sessionOf(fx);
  await until(
    () =>
      server.log.some((r) => r.method === "GET" && r.session !== null && r.session === second()),
    "a GET stream in the new session",
  );
  await fx.client.callTool("announce", {});
  await until(() => changes === 2, "tools/list_changed in both sessions");
});

Deno.test("a 404 to the first GET of a session is taken as no GET stream, not as expiry", async () => {
  // Servers that route only POST answer GET with 404; renewing on it would never end.
  await using server = serve({ expire: { method: "GET", times: 1 } });
  const diagnostics: Diagnostic[] = [];
  await using _fx = await connect(server.url, { onDiagnostic: (d) => diagnostics.push(d) });
  await until(() => diagnostics.length > 0, "a diagnostic");
  assert.match(diagnostics[0]!.message, /Stopped listening .*first GET .*404/);
  assert.equal(count(server.log, "initialize"), 1);
  assert.equal(server.log.filter((r) => r.method === "GET").length, 1);
});

Deno.test("an answer to a server request is not re-sent into a new session", async () => {
  await using server = serve({ answer: "sse", expire: { method: "response", times: 1 } });
  const diagnostics: Diagnostic[] = [];
  await using fx = await connect(server.url, { onDiagnostic: (d) => diagnostics.push(d) }, {
    roots: [{ uri: "file:///srv/alpha", name: "alpha" }],
  });
  // The roots/list of the old session is never answered, so the call can only time out.
  await rejectsWith(fx.client.callTool("chatty", {}, { timeoutMs: 300 }), TimeoutError);
  assert.equal(count(server.log, "initialize"), 2);
  assert.equal(count(server.log, "response"), 1);
  assert.ok(
    diagnostics.some((d) => /answer could be delivered/.test(d.message)),
    JSON.stringify(diagnostics),
  );
});

Deno.test("close() ends the session with DELETE, and a 405 to it is fine", async () => {
  for (const deleteStatus of [200, 405]) {
    await using server = serve({ deleteStatus });
    const fx = await connect(server.url);
    const session = sessionOf(fx);
    await fx[Symbol.asyncDispose]();
    await fx.transport.close(); // idempotent: no second DELETE
    const deletes = server.log.filter((r) => r.method === "DELETE");
    assert.equal(deletes.length, 1);
    assert.equal(deletes[0]!.session, session);
  }
});

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

Deno.test("a large SSE answer of known length that drops keeps what arrived and resumes", async () => {
  await using server = serve();
  // A Content-Length that the connection never reaches, as when a proxy cuts the answer.
  await using fx = await connect(server.url, { fetch: cuttingFetch(1024 * 1024) });
  const progress: number[] = [];
  const result = await fx.client.callTool("slow", {}, {
    onProgress: (p) => progress.push(p.progress),
  });
  assert.equal(textOf(result), "kept");
  assert.deepStrictEqual(progress, [1]);
});

Deno.test("a small SSE answer of known length that drops fails its request as one without ids", async () => {
  await using server = serve();
  // Read in one go, a small answer cut short leaves nothing to resume from.
  await using fx = await connect(server.url, { fetch: cuttingFetch(4096) });
  const error = await rejectsWith(
    fx.client.callTool("slow", {}, { onProgress: () => {} }),
    ConnectionClosedError,
  );
  assert.match(error.message, /no event id to resume from/);
  assert.equal(textOf(await fx.client.callTool("echo", { text: "still" })), "still");
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

// --- safety -------------------------------------------------------------------------------------

Deno.test("a URL that is not http: or https: is refused at construction", () => {
  for (const url of ["file:///tmp/mcp", "ws://127.0.0.1/mcp", "ftp://example.com/", "mcp"]) {
    assert.throws(() => new StreamableHttpTransport({ url }), TransportError, url);
  }
});

Deno.test("a header with CR, LF or a bad name is refused before any request is sent", async () => {
  for (
    const headers of [
      { "X-Team": "a\r\nInjected: yes" },
      { "X-Team": "a\nInjected: yes" },
      { "Bad Name": "x" },
      { "X-Team": "名前" },
    ]
  ) {
    assert.throws(() => transport("http://127.0.0.1:9/mcp", { headers }), TransportError);
  }
  assert.throws(
    () => transport("http://127.0.0.1:9/mcp", { headers: { "X-Team": "a\r\nInjected: yes" } }),
    (error: Error) => /"X-Team"/.test(error.message) && !/Injected/.test(error.message),
  );
  await using server = serve();
  const error = await rejectsWith(
    Client.connect(transport(server.url, {
      requestHeaders: () => ({ Authorization: "Bearer t0ken\r\nInjected: yes" }),
    })),
    TransportError,
  );
  assert.doesNotMatch(error.message, /t0ken|Injected/);
  assert.equal(server.log.length, 0);
});

Deno.test("a session id outside visible ASCII is refused, and not shown", async () => {
  await using server = serve({ sessionId: () => "bad session\u00e9id" });
  const error = await rejectsWith(Client.connect(transport(server.url)), ProtocolError);
  assert.match(error.message, /invalid Mcp-Session-Id/);
  assert.doesNotMatch(error.message, /bad session/);
});

Deno.test("session ids, Authorization values and query tokens never appear in error messages", async () => {
  const token = "canary-token-5f2a91";
  const key = "query-key-77c3e0";
  // A server that echoes back what it was sent, as debug pages and naive errors do.
  await using server = serve({}, (inner) => async (req) => {
    if (req.method !== "POST") return await inner(req);
    const body = await req.text();
    const message = JSON.parse(body);
    const echo = `session ${req.headers.get("mcp-session-id")} auth ${
      req.headers.get("authorization")
    } url ${req.url}`;
    if (message?.params?.name === "plain") return new Response(echo, { status: 400 });
    if (message?.params?.name === "html") {
      return new Response(`<html><body><p>${echo}</p></body></html>`, {
        status: 500,
        headers: { "content-type": "text/html" },
      });
    }
    if (message?.params?.name === "json") {
      return Response.json({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32000, message: echo },
      }, {
        status: 400,
      });
    }
    return await inner(new Request(req.url, { method: "POST", headers: req.headers, body }));
  });
  await using fx = await connect(`${server.url}?key=${key}`, {
    requestHeaders: () => ({ Authorization: `Bearer ${token}` }),
  });
  const session = sessionOf(fx)!;
  const messages: string[] = [];
  for (const name of ["plain", "html", "json"]) {
    await assert.rejects(fx.client.callTool(name, {}), (error: Error) => {
      messages.push(error.message);
      return true;
    });
  }
  for (const message of messages) {
    for (const secret of [session, token, key]) {
      assert.ok(!message.includes(secret), `${message} shows a secret`);
    }
    assert.match(message, /\[redacted\]/);
  }
});

Deno.test("an unreachable server fails with TransportError that hides the query and the token", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const error = await rejectsWith(
    Client.connect(transport(`http://127.0.0.1:${port}/mcp?key=query-secret-19`, {
      headers: { Authorization: "Bearer header-secret-42" },
    })),
    TransportError,
  );
  assert.match(error.message, new RegExp(`Cannot reach the server .*127\\.0\\.0\\.1:${port}/mcp`));
  assert.doesNotMatch(error.message, /query-secret|header-secret/);
  assert.equal(error.cause, undefined);
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
