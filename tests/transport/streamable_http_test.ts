// Streamable HTTP (revision 2025-11-25) against the fake of testdata/http/streamable_fake.ts: the
// conversation (JSON and SSE answers, server requests, stateless servers) and sessions (expiry and
// renewal, the GET stream of a new session, DELETE on close).

import assert from "node:assert/strict";
import { type Diagnostic, type LogMessage, SessionExpiredError, TimeoutError } from "../../mod.ts";
import { rejectsWith } from "../_helpers.ts";
import {
  connect,
  count,
  eventually,
  serve,
  sessionOf,
  signal,
  textOf,
  until,
} from "./_streamable_fixture.ts";

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

Deno.test("a request whose headers are computed while the session renews still carries a session id", async () => {
  await using server = serve({ expire: { method: "tools/call", times: 1 } });
  const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let renewals = false;
  await using fx = await connect(server.url, {
    openServerStream: false,
    // An async header lookup (a token, say): call "b" is still computing its headers when the
    // expiry met by call "a" starts a renewal, which is slow.
    requestHeaders: async (message) => {
      const params = message && "params" in message ? message.params : undefined;
      if ((params?.arguments as { text?: string } | undefined)?.text === "b") await delay(30);
      if (message && "method" in message && message.method === "initialize" && renewals) {
        await delay(100);
      }
      return {};
    },
  });
  renewals = true;
  const texts = await Promise.all(
    ["a", "b"].map(async (text) => textOf(await fx.client.callTool("echo", { text }))),
  );
  assert.deepStrictEqual(texts, ["a", "b"]);
  const calls = server.log.filter((r) => r.rpc === "tools/call");
  assert.ok(calls.every((r) => r.session !== null), "every call carried a session id");
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
