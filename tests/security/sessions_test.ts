// A client that opens sessions in a loop must not grow the server's memory without bound.

import assert from "node:assert/strict";
import { tinyHttpServer } from "./_http.ts";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
});
const HEADERS = { "content-type": "application/json", accept: "application/json" };

async function initialize(url: URL): Promise<{ status: number; session: string | null }> {
  const response = await fetch(url, { method: "POST", headers: HEADERS, body: INITIALIZE });
  await response.body?.cancel();
  return { status: response.status, session: response.headers.get("mcp-session-id") };
}

async function ping(url: URL, session: string): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, "mcp-session-id": session },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test("sessions opened in a loop stay capped: the one idle the longest is ended", async () => {
  await using http = tinyHttpServer({ maxSessions: 3 });
  const sessions: string[] = [];
  for (let i = 0; i < 50; i++) {
    const { status, session } = await initialize(http.url);
    assert.equal(status, 200);
    sessions.push(session!);
  }
  // Only the last three survive.
  assert.deepEqual(await Promise.all(sessions.slice(-3).map((s) => ping(http.url, s))), [
    200,
    200,
    200,
  ]);
  for (const old of sessions.slice(0, 47)) assert.equal(await ping(http.url, old), 404);
});

Deno.test("using a session keeps it: the least recently used one goes first", async () => {
  await using http = tinyHttpServer({ maxSessions: 2 });
  const first = (await initialize(http.url)).session!;
  const second = (await initialize(http.url)).session!;
  assert.equal(await ping(http.url, first), 200); // first is now the most recent
  await initialize(http.url);
  assert.equal(await ping(http.url, second), 404);
  assert.equal(await ping(http.url, first), 200);
});

Deno.test("when every session is busy, a new initialize gets 503 with Retry-After", async () => {
  await using http = tinyHttpServer({ maxSessions: 1 });
  const session = (await initialize(http.url)).session!;
  const stream = await fetch(http.url, {
    headers: { accept: "text/event-stream", "mcp-session-id": session },
  });
  assert.equal(stream.status, 200);
  const response = await fetch(http.url, { method: "POST", headers: HEADERS, body: INITIALIZE });
  assert.equal(response.status, 503);
  assert.equal(response.headers.get("retry-after"), "5");
  assert.match((await response.json()).error.message, /Too many sessions/);
  await stream.body?.cancel();
});
