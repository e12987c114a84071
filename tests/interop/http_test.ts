// Interop with the real server-everything (official SDK 1.x) over Streamable HTTP: sessions,
// SSE answers, the GET stream, server-to-client requests, and resumption with Last-Event-ID
// after a proxy cuts an answer. Every message the client sends is checked against the schema.

import assert from "node:assert/strict";
import {
  type CallToolResult,
  type ClientEvents,
  type ClientOptions,
  type ElicitationRequest,
  type LogMessage,
  StreamableHttpTransport,
  type StreamableHttpTransportOptions,
} from "../../mod.ts";
import { type CheckedClient, connectChecked } from "../_helpers.ts";
import { everythingOverHttp } from "../_npm_servers.ts";

function textOf(result: CallToolResult): string {
  return result.content.map((c) => c.text ?? "").join("\n");
}

async function connect(
  base: string,
  options: ClientOptions = {},
  transport: Partial<StreamableHttpTransportOptions> = {},
): Promise<CheckedClient & { http: StreamableHttpTransport }> {
  const http = new StreamableHttpTransport({
    url: `${base}/mcp`,
    reconnectDelayMs: 50,
    ...transport,
  });
  return Object.assign(await connectChecked(http, options), { http });
}

/** The next event of a kind that matches, or a rejection after 10 s; leaves no timer behind. */
function nextEvent<K extends keyof ClientEvents & string>(
  fx: CheckedClient,
  event: K,
  match: (payload: ClientEvents[K]) => boolean = () => true,
): Promise<ClientEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`No matching "${event}" event within 10 s`));
    }, 10_000);
    const off = fx.client.on(event, (payload) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}

Deno.test("server-everything over Streamable HTTP: handshake, tools, resources, prompts, DELETE", async () => {
  await using server = await everythingOverHttp("streamableHttp");
  const fx = await connect(server.base);
  let session: string | undefined;
  try {
    const { client } = fx;
    assert.equal(client.era, "legacy");
    assert.equal(client.protocolVersion, "2025-11-25");
    assert.equal(client.serverInfo.name, "mcp-servers/everything");
    session = fx.http.sessionId;
    assert.match(session ?? "", /^[\x21-\x7e]+$/);

    const tools = (await client.listTools()).map((t) => t.name);
    assert.ok(tools.includes("echo") && tools.includes("get-sum"), tools.join(", "));
    assert.equal(
      textOf(await client.callTool("echo", { message: "über HTTP" })),
      "Echo: über HTTP",
    );
    assert.equal(
      textOf(await client.callTool("get-sum", { a: 19, b: 23.5 })),
      "The sum of 19 and 23.5 is 42.5.",
    );

    const resources = await client.listResources();
    assert.ok(resources.length > 0);
    const read = await client.readResource(resources[0]!.uri);
    assert.equal(read.contents[0]?.uri, resources[0]!.uri);
    assert.ok((await client.listResourceTemplates()).length > 0);

    const prompts = (await client.listPrompts()).map((p) => p.name);
    assert.ok(prompts.includes("simple-prompt"), prompts.join(", "));
    const prompt = await client.getPrompt("simple-prompt");
    assert.ok(prompt.messages.length > 0);
    await client.ping();
  } finally {
    await fx[Symbol.asyncDispose]();
  }
  // close() sent DELETE with the session id: the server no longer knows the session.
  const after = await fetch(`${server.base}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": session!,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  await after.body?.cancel();
  assert.equal(after.status, 400);
});

Deno.test("server-everything over Streamable HTTP: progress and logs on SSE answers, updates on the GET stream", async () => {
  await using server = await everythingOverHttp("streamableHttp");
  await using fx = await connect(server.base);
  const { client } = fx;
  const updates: number[] = [];
  await client.callTool("trigger-long-running-operation", { duration: 0.3, steps: 3 }, {
    onProgress: (p) => updates.push(p.progress),
  });
  assert.deepStrictEqual(updates, [1, 2, 3]);

  const resource = (await client.listResources())[0]!.uri;
  await client.setLoggingLevel("debug");
  // The subscribe handler logs while handling the request: that log rides on its SSE answer.
  const logged: Promise<LogMessage> = nextEvent(
    fx,
    "log",
    (m) => /Received Subscribe Resource request/.test(String(m.data)),
  );
  await client.subscribeResource(resource);
  assert.equal((await logged).level, "info");
  // Simulated updates are sent unrelated to any request, so only the GET stream carries them.
  const updated = nextEvent(fx, "resourceUpdated", (u) => u.uri === resource);
  await client.callTool("toggle-subscriber-updates");
  assert.equal((await updated).uri, resource);
  await client.callTool("toggle-subscriber-updates"); // stop the server's timer
  await client.unsubscribeResource(resource);
});

Deno.test("server-everything over Streamable HTTP: sampling, elicitation and roots requests are answered", async () => {
  await using server = await everythingOverHttp("streamableHttp");
  const sampled: string[] = [];
  const elicited: ElicitationRequest[] = [];
  await using fx = await connect(server.base, {
    roots: [{ uri: "file:///srv/alpha", name: "alpha" }],
    onSampling: (request) => {
      sampled.push(JSON.stringify(request.messages[0]?.content));
      return { role: "assistant", content: { type: "text", text: "Bonjour" }, model: "interop" };
    },
    onElicitation: (request) => {
      elicited.push(request);
      return { action: "accept", content: { name: "Ada", check: true } };
    },
  });
  const { client } = fx;
  // Shortly after the handshake the server asks for the roots on the GET stream, then logs.
  const synced = nextEvent(fx, "log", (m) => /Roots updated: 1 root/.test(String(m.data)));
  await client.setLoggingLevel("info");
  await synced;
  const roots = textOf(await client.callTool("get-roots-list"));
  assert.match(roots, /alpha\n\s+URI: file:\/\/\/srv\/alpha/);

  const sample = await client.callTool("trigger-sampling-request", {
    prompt: "Say hi",
    maxTokens: 5,
  });
  assert.match(textOf(sample), /Bonjour/);
  assert.match(sampled[0] ?? "", /Say hi/);

  const form = await client.callTool("trigger-elicitation-request");
  assert.match(textOf(form), /- Name: Ada/);
  assert.deepEqual(elicited[0]?.requestedSchema?.required, ["name"]);
});

Deno.test("server-everything over Streamable HTTP: an answer cut by a proxy is resumed with Last-Event-ID", async () => {
  await using server = await everythingOverHttp("streamableHttp");
  const resumedFrom: string[] = [];
  let cut = false;
  // A proxy that reads the first tools/call answer whole, then passes on only its first part,
  // ending in the middle of the last event, as a dropped connection would.
  const proxy: typeof fetch = async (input, init) => {
    const lastEventId = new Headers(init?.headers).get("last-event-id");
    if (lastEventId) resumedFrom.push(lastEventId);
    const response = await fetch(input, init);
    const message = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    if (message?.method !== "tools/call" || cut) return response;
    cut = true;
    const text = (await response.text()).trimEnd();
    const last = text.lastIndexOf("\n\n") + 2;
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return new Response(text.slice(0, last + Math.floor((text.length - last) / 2)), {
      status: response.status,
      headers,
    });
  };
  await using fx = await connect(server.base, {}, { fetch: proxy });
  const updates: number[] = [];
  const result = await fx.client.callTool("trigger-long-running-operation", {
    duration: 0.2,
    steps: 2,
  }, { onProgress: (p) => updates.push(p.progress), timeoutMs: 10_000 });
  assert.match(textOf(result), /Long running operation completed/);
  assert.deepStrictEqual(updates, [1, 2]);
  assert.equal(resumedFrom.length, 1);
});
