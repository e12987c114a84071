// Streamable HTTP (legacy era) against small Deno.serve fakes that misbehave in the ways real
// deployments do: expired sessions, rate limits, HTML error pages, redirects, huge bodies.

import assert from "node:assert/strict";
import {
  Client,
  type Diagnostic,
  HttpError,
  ProtocolError,
  SessionExpiredError,
  StreamableHttpTransport,
  TransportError,
} from "../../mod.ts";
import { connectChecked, rejectsWith } from "../_helpers.ts";

type Json = Record<string, unknown>;
type Handler = (message: Json, req: Request, n: number) => Response | Promise<Response> | undefined;

/**
 * A stateful legacy server: initialize mints session ids s1, s2, …; `handle` may answer any
 * message first (returning undefined falls through to the default answers).
 */
function fake(handle: Handler = () => undefined) {
  let sessions = 0;
  let count = 0;
  const requests: { method: string; session: string | null; protocol: string | null }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "GET" || req.method === "DELETE") {
      await req.body?.cancel();
      return new Response(null, { status: 405 });
    }
    const message = await req.json() as Json;
    requests.push({
      method: String(message.method ?? "response"),
      session: req.headers.get("mcp-session-id"),
      protocol: req.headers.get("mcp-protocol-version"),
    });
    const special = await handle(message, req, ++count);
    if (special) return special;
    if (message.id === undefined) return new Response(null, { status: 202 });
    const answer = (result: Json, headers: HeadersInit = {}) =>
      Response.json({ jsonrpc: "2.0", id: message.id, result }, { headers });
    switch (message.method) {
      case "initialize":
        return answer(
          {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "http-fake", version: "1" },
          },
          { "mcp-session-id": `s${++sessions}` },
        );
      case "tools/list":
        return answer({ tools: [{ name: "echo", inputSchema: { type: "object" } }] });
      case "tools/call":
        return answer({
          content: [{ type: "text", text: `ok in ${req.headers.get("mcp-session-id")}` }],
        });
      default:
        return Response.json({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32601, message: "Method not found" },
        });
    }
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    requests,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** Connects in the legacy era (the fake has no server/discover). */
function connect(
  url: string,
  options: Partial<ConstructorParameters<typeof StreamableHttpTransport>[0]> = {},
  onDiagnostic?: (diagnostic: Diagnostic) => void,
) {
  return connectChecked(new StreamableHttpTransport({ url, ...options }), {
    protocol: "legacy",
    ...(onDiagnostic ? { onDiagnostic } : {}),
  });
}

Deno.test("the session id is kept and sent, with the negotiated revision, on every later request", async () => {
  await using server = fake();
  await using fx = await connect(server.url);
  await fx.client.listTools();
  const later = server.requests.filter((r) => r.method !== "initialize");
  assert.ok(later.length >= 2);
  assert.ok(
    later.every((r) => r.session === "s1" && r.protocol === "2025-11-25"),
    JSON.stringify(later),
  );
});

Deno.test("an expired session (404) is replaced by a new handshake once, transparently", async () => {
  let expired = false;
  await using server = fake((message, req) => {
    if (message.method === "tools/call" && req.headers.get("mcp-session-id") === "s1" && !expired) {
      expired = true;
      return new Response("Session not found", { status: 404 });
    }
  });
  const diagnostics: Diagnostic[] = [];
  await using fx = await connect(server.url, { onDiagnostic: (d) => diagnostics.push(d) });
  const result = await fx.client.callTool("echo", {});
  assert.equal(result.content[0]?.text, "ok in s2");
  assert.equal(server.requests.filter((r) => r.method === "initialize").length, 2);
  assert.ok(diagnostics.some((d) => /session expired; started a new one/i.test(d.message)));
});

Deno.test("a session that expires again at once is an error, not a loop", async () => {
  await using server = fake((message) => {
    if (message.method === "tools/call") return new Response(null, { status: 404 });
  });
  await using fx = await connect(server.url);
  await rejectsWith(fx.client.callTool("echo", {}), SessionExpiredError);
  assert.equal(server.requests.filter((r) => r.method === "initialize").length, 2);
});

Deno.test("reinitializeOnExpiry: false raises SessionExpiredError instead", async () => {
  await using server = fake((message) => {
    if (message.method === "tools/call") return new Response(null, { status: 404 });
  });
  await using fx = await connect(server.url, { reinitializeOnExpiry: false });
  await rejectsWith(fx.client.callTool("echo", {}), SessionExpiredError);
  assert.equal(server.requests.filter((r) => r.method === "initialize").length, 1);
});

Deno.test("429 and 503 with Retry-After are retried for idempotent requests only", async () => {
  let listed = 0;
  await using server = fake((message) => {
    if (message.method === "tools/list" && ++listed <= 2) {
      const retryAfter = listed === 1 ? "0" : new Date(Date.now() + 50).toUTCString();
      return new Response("slow down", {
        status: listed === 1 ? 429 : 503,
        headers: { "retry-after": retryAfter },
      });
    }
    if (message.method === "tools/call") {
      return new Response("busy", { status: 503, headers: { "retry-after": "1" } });
    }
  });
  await using fx = await connect(server.url, { maxDelayMs: 200 });
  assert.equal((await fx.client.listTools()).length, 1);
  assert.equal(server.requests.filter((r) => r.method === "tools/list").length, 3);
  const error = await rejectsWith(fx.client.callTool("echo", {}), HttpError);
  assert.equal(error.status, 503);
  assert.equal(error.retryAfterMs, 1000);
  assert.equal(server.requests.filter((r) => r.method === "tools/call").length, 1);
});

Deno.test("an HTML error page becomes a short, tag-free HttpError", async () => {
  await using server = fake((message) => {
    if (message.method === "tools/call") {
      return new Response(
        "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>",
        { status: 502, headers: { "content-type": "text/html" } },
      );
    }
  });
  await using fx = await connect(server.url);
  const error = await rejectsWith(fx.client.callTool("echo", {}), HttpError);
  assert.equal(error.status, 502);
  assert.match(error.message, /HTTP 502 .*: 502 Bad Gateway$/);
  assert.ok(!error.message.includes("<"));
});

Deno.test("a redirect to another origin is refused; one within the origin is followed", async () => {
  await using server = fake((message, req) => {
    const path = new URL(req.url).pathname;
    if (message.method === "tools/list" && path === "/mcp") {
      return new Response(null, { status: 307, headers: { location: "/moved" } });
    }
    if (message.method === "tools/call") {
      return new Response(null, {
        status: 307,
        headers: { location: "http://evil.example:9/steal" },
      });
    }
  });
  await using fx = await connect(server.url);
  assert.equal((await fx.client.listTools()).length, 1); // followed to /moved
  const error = await rejectsWith(fx.client.callTool("echo", {}), TransportError);
  assert.match(error.message, /Refusing to follow a redirect .* to http:\/\/evil\.example:9/);
});

Deno.test("a followed redirect that cannot reach the server fails as a network error, and frees its slot", async () => {
  await using server = fake();
  let followed = 0;
  // The server's own fetch, except that tools/call is redirected within the origin and the
  // followed request fails as fetch fails when nothing answers.
  const fetchVia: typeof fetch = (input, init) => {
    const url = new URL(String(input));
    if (url.pathname === "/moved") {
      followed++;
      return Promise.reject(new TypeError("error sending request: connection refused"));
    }
    if (init?.method === "POST" && String(init.body).includes('"tools/call"') && followed === 0) {
      return Promise.resolve(new Response(null, { status: 307, headers: { location: "/moved" } }));
    }
    return fetch(input, init);
  };
  await using fx = await connect(server.url, { fetch: fetchVia, maxConcurrentRequests: 1 });
  const error = await rejectsWith(fx.client.callTool("echo", {}), TransportError);
  assert.match(error.message, /^Cannot reach the server \(POST .*\/mcp\): .*connection refused/);
  assert.equal(followed, 1);
  // The one slot was given back: the next request goes out and is answered.
  assert.equal((await fx.client.callTool("echo", {})).isError, undefined);
});

Deno.test("a fetch that throws at once fails the request, not the caller's turn, and frees its slot", async () => {
  await using server = fake();
  let thrown = 0;
  const fetchVia: typeof fetch = (input, init) => {
    if (String(init?.body).includes('"tools/call"') && thrown++ === 0) {
      throw new RangeError("this fetch refuses at once");
    }
    return fetch(input, init);
  };
  await using fx = await connect(server.url, { fetch: fetchVia, maxConcurrentRequests: 1 });
  let call: Promise<unknown> | undefined;
  assert.doesNotThrow(() => call = fx.client.callTool("echo", {}));
  const error = await rejectsWith(call!, RangeError);
  assert.equal(error.message, "this fetch refuses at once");
  assert.equal((await fx.client.callTool("echo", {})).isError, undefined);
});

Deno.test("a redirect loop within the origin stops after five requests", async () => {
  await using server = fake((message, req) => {
    if (message.method === "tools/call") {
      const hop = Number(new URL(req.url).searchParams.get("hop") ?? 0);
      return new Response(null, { status: 308, headers: { location: `/mcp?hop=${hop + 1}` } });
    }
  });
  await using fx = await connect(server.url);
  const error = await rejectsWith(fx.client.callTool("echo", {}), TransportError);
  assert.match(error.message, /Too many redirects/);
  assert.equal(server.requests.filter((r) => r.method === "tools/call").length, 5);
});

Deno.test("a body over maxMessageBytes fails the request, not the connection", async () => {
  await using server = fake((message) => {
    if (message.method === "tools/call") {
      return Response.json({
        jsonrpc: "2.0",
        id: message.id,
        result: { content: [{ type: "text", text: "x".repeat(5000) }] },
      });
    }
  });
  await using fx = await connect(server.url, { maxMessageBytes: 1024 });
  await rejectsWith(fx.client.callTool("echo", {}), ProtocolError);
  assert.equal((await fx.client.listTools()).length, 1); // still connected
});

Deno.test("session ids and Authorization values never appear in errors", async () => {
  await using server = fake((message) => {
    if (message.method === "tools/call") return new Response("nope", { status: 500 });
  });
  await using fx = await connect(server.url, {
    headers: { Authorization: "Bearer canary-token-123" },
  });
  const error = await rejectsWith(fx.client.callTool("echo", {}), HttpError);
  assert.ok(
    !error.message.includes("canary-token-123") && !error.message.includes("s1"),
    error.message,
  );
});

Deno.test("Client.connect on a closed port fails with a transport error, not a hang", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  await rejectsWith(
    Client.connect(new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp` }), {
      protocol: "legacy",
    }),
    Error,
  );
});

for (
  const [fault, body, reason] of [
    [
      "jsonrpc 1.0",
      (id: unknown) => ({ jsonrpc: "1.0", id, result: {} }),
      /"jsonrpc" must be "2\.0"/,
    ],
    [
      "a result that is not an object",
      (id: unknown) => ({ jsonrpc: "2.0", id, result: 5 }),
      /"result" must be an object/,
    ],
    [
      "an error without code",
      (id: unknown) => ({ jsonrpc: "2.0", id, error: { message: "x" } }),
      /numeric "code"/,
    ],
    ["no id at all", () => ({ jsonrpc: "2.0", result: {} }), /"id" must be a string or a number/],
  ] as const
) {
  Deno.test(`a JSON answer with ${fault} fails its request at once and is reported`, async () => {
    await using server = fake((message) => {
      if (message.method === "tools/call") return Response.json(body(message.id));
    });
    const diagnostics: Diagnostic[] = [];
    await using fx = await connect(server.url, {}, (d) => diagnostics.push(d));
    const error = await rejectsWith(fx.client.callTool("echo", {}), ProtocolError);
    assert.match(error.message, /answer to tools\/call \(id \d+\) is invalid/);
    assert.match(error.message, reason);
    const reported = diagnostics.find((d) => d.kind === "invalid-message");
    assert.ok(reported, JSON.stringify(diagnostics));
    assert.equal(typeof reported.id, "number");
    assert.equal((await fx.client.listTools()).length, 1); // still connected
  });
}

Deno.test("a POST failure the session cannot take is reported as a diagnostic, not lost", async () => {
  const reported = Promise.withResolvers<Diagnostic>();
  const transport = new StreamableHttpTransport({
    url: "http://127.0.0.1:9/mcp",
    fetch: () => Promise.reject(new TypeError("connection refused")),
    onDiagnostic: (diagnostic) => reported.resolve(diagnostic),
  });
  let asked = 0;
  transport.onRequestError = () => {
    asked++;
    throw new Error("a faulty session sink");
  };
  await transport.start();
  await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
  const diagnostic = await reported.promise;
  await transport.close();
  assert.equal(asked, 1);
  assert.match(diagnostic.message, /Could not send ping: a faulty session sink/);
});

Deno.test("a wrapped fetch or requestHeaders that throws fails the request, not the caller's turn", async () => {
  for (
    const [what, options] of [
      [
        "fetch",
        {
          fetch: (() => {
            throw new Error("the wrapped fetch broke");
          }) as typeof fetch,
        },
      ],
      [
        "requestHeaders",
        {
          requestHeaders: () => {
            throw new Error("the token store broke");
          },
        },
      ],
    ] as const
  ) {
    const failed = Promise.withResolvers<Error>();
    const transport = new StreamableHttpTransport({ url: "http://127.0.0.1:9/mcp", ...options });
    transport.onRequestError = (id, error) => {
      assert.equal(id, 7, what);
      failed.resolve(error);
    };
    await transport.start();
    // send() must not throw: the session learns of the failure as the request's error.
    await transport.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "x" } });
    assert.match((await failed.promise).message, /broke/, what);
    await transport.close();
  }
});

Deno.test("close() waits for the POSTs in flight, which end as the request's error", async () => {
  const arrived = Promise.withResolvers<void>();
  const released = Promise.withResolvers<void>();
  await using server = fake((message) => {
    if (message.method !== "tools/call") return undefined;
    arrived.resolve();
    // answers only once the client has closed (the server's shutdown waits for its handlers)
    return released.promise.then(() => new Response(null, { status: 500 }));
  });
  await using fx = await connect(server.url);
  const call = fx.client.callTool("echo", {});
  call.catch(() => {});
  await arrived.promise;
  await fx.client.close(); // must not hang on the POST the server does not answer
  released.resolve();
  await rejectsWith(call, Error);
});
