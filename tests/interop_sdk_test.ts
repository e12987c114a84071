// Interop with servers built on the official SDK v2 (`@modelcontextprotocol/server` 2.4.0): the
// same server (testdata/servers/sdk_modern.ts) served modern-only and dual-era, over stdio and over
// Streamable HTTP, in every era it offers; and the legacy server-everything, which `auto` mode must
// still reach. Every message the client sends is checked against the official schema.

import assert from "node:assert/strict";
import {
  type CallToolResult,
  type ClientOptions,
  type ElicitationRequest,
  HttpTransport,
  type JsonRpcMessage,
  type LogMessage,
  McpError,
  type Progress,
  StdioTransport,
  type StdioTransportOptions,
  StreamableHttpTransport,
  type Transport,
  ValidationError,
} from "../mod.ts";
import type { InMemoryServerEventBus } from "@modelcontextprotocol/server";
import { type SdkHttpServer, serveSdk } from "../testdata/http/sdk_http.ts";
import { type CheckedClient, connectChecked, fixture, rejectsWith } from "./_helpers.ts";
import { denoEnv, npmServer } from "./_npm_servers.ts";

// ---------------------------------------------------------------------------------------------
// Helpers

const CONFIG = new URL("../deno.json", import.meta.url).pathname;
const SERVER_INFO = { name: "sdk-server", version: "2.4.0" };
const INSTRUCTIONS = "A test server built on the official SDK.";
const TOOLS = "add confirm count echo lookup mislabeled summarize unlock".split(" ");

/** Runs an SDK server script with this Deno and the repository's import map and lockfile. */
function sdkStdio(file: "sdk_modern.ts" | "sdk_dual.ts"): StdioTransportOptions {
  return {
    command: Deno.execPath(),
    args: ["run", "--allow-all", "--quiet", "--config", CONFIG, fixture(file)],
    name: file,
    env: denoEnv(),
  };
}

/** A client connected to an SDK server over HTTP; disposing it stops the server too. */
interface HttpFixture extends CheckedClient {
  server: SdkHttpServer;
}

async function connectHttp(
  legacy: "reject" | "stateless",
  transport: (url: string) => Transport,
  options: ClientOptions,
): Promise<HttpFixture> {
  const server = serveSdk(legacy);
  let fx: CheckedClient;
  try {
    fx = await connectChecked(transport(server.url), options);
  } catch (error) {
    await server[Symbol.asyncDispose]();
    throw error;
  }
  return {
    client: fx.client,
    transport: fx.transport,
    server,
    async [Symbol.asyncDispose]() {
      try {
        await fx[Symbol.asyncDispose]();
      } finally {
        await server[Symbol.asyncDispose]();
      }
    },
  };
}

/** One way of reaching the SDK server. */
interface Target {
  label: string;
  era: "modern" | "legacy";
  /** Stateless legacy HTTP serves each request with a fresh instance that keeps nothing. */
  stateless: boolean;
  connect(options?: ClientOptions): Promise<CheckedClient>;
}

const TARGETS: Target[] = [
  {
    label: "SDK v2 modern-only server over stdio, auto",
    era: "modern",
    stateless: false,
    connect: (options = {}) =>
      connectChecked(new StdioTransport(sdkStdio("sdk_modern.ts")), options),
  },
  {
    label: "SDK v2 dual-era server over stdio, auto",
    era: "modern",
    stateless: false,
    connect: (options = {}) => connectChecked(new StdioTransport(sdkStdio("sdk_dual.ts")), options),
  },
  {
    label: "SDK v2 dual-era server over stdio, protocol legacy",
    era: "legacy",
    stateless: false,
    connect: (options = {}) =>
      connectChecked(new StdioTransport(sdkStdio("sdk_dual.ts")), {
        ...options,
        protocol: "legacy",
      }),
  },
  {
    label: "SDK v2 modern-only server over Streamable HTTP, auto",
    era: "modern",
    stateless: false,
    connect: (options = {}) =>
      connectHttp("reject", (url) => new StreamableHttpTransport({ url }), options),
  },
  {
    label: "SDK v2 dual-era server over HTTP (detected), auto",
    era: "modern",
    stateless: false,
    connect: (options = {}) =>
      connectHttp("stateless", (url) => new HttpTransport({ url }), options),
  },
  {
    label: "SDK v2 dual-era server over Streamable HTTP, protocol legacy",
    era: "legacy",
    stateless: true,
    connect: (options = {}) =>
      connectHttp("stateless", (url) => new StreamableHttpTransport({ url }), {
        ...options,
        protocol: "legacy",
      }),
  },
];

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function textOf(result: CallToolResult): string {
  return result.content.map((item) => item.type === "text" ? item.text ?? "" : "").join("\n");
}

/** The methods of the requests and notifications the client sent, in order. */
function methods(sent: readonly JsonRpcMessage[]): string[] {
  return sent.flatMap((m) => "method" in m ? [m.method] : []);
}

/** The params of every request of one method the client sent. */
function sentParams(sent: readonly JsonRpcMessage[], method: string): Record<string, unknown>[] {
  return sent.flatMap((m) => "method" in m && m.method === method ? [m.params ?? {}] : []);
}

/** Resolves on the next `toolsListChanged`, or rejects after `ms`; leaves no timer behind. */
function nextToolsListChanged(fx: CheckedClient, ms = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`No toolsListChanged within ${ms} ms`));
    }, ms);
    const off = fx.client.on("toolsListChanged", () => {
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The same checks for every way of reaching the SDK server

for (const target of TARGETS) {
  const { label, era } = target;

  Deno.test(`${label}: lands on the ${era} era with the server's info`, async () => {
    await using fx = await target.connect();
    const { client } = fx;
    assert.equal(client.era, era);
    assert.equal(client.protocolVersion, era === "modern" ? "2026-07-28" : "2025-11-25");
    assert.deepStrictEqual(client.serverInfo, SERVER_INFO);
    assert.equal(client.instructions, INSTRUCTIONS);
    await client.ping();
    if (fx.transport.inner instanceof HttpTransport) {
      assert.equal(fx.transport.inner.kind, "streamable-http");
    }
    const sent = methods(fx.transport.sent);
    if (era === "modern") {
      assert.equal(sent[0], "server/discover");
      assert.ok(!sent.includes("initialize"), `sent ${sent.join(", ")}`);
    } else {
      assert.equal(sent[0], "initialize");
      assert.ok(!sent.includes("server/discover"), `sent ${sent.join(", ")}`);
    }
  });

  Deno.test(`${label}: tools are listed and called, and structured content is validated`, async () => {
    await using fx = await target.connect();
    const { client } = fx;
    const tools = await client.listTools();
    assert.deepStrictEqual(tools.map((t) => t.name).sort(), TOOLS);
    assert.deepStrictEqual(tools.find((t) => t.name === "add")?.outputSchema, {
      type: "object",
      properties: { sum: { type: "number" } },
      required: ["sum"],
    });
    assert.equal(
      textOf(await client.callTool("echo", { text: `in the ${era} era` })),
      `in the ${era} era`,
    );
    const sum = await client.callTool("add", { a: 2, b: 40 });
    assert.equal(textOf(sum), "42");
    assert.deepStrictEqual(sum.structuredContent, { sum: 42 });
    // The SDK checks arguments against the input schema itself and reports a tool error.
    const wrong = await client.callTool("add", { a: "two", b: 40 });
    assert.equal(wrong.isError, true);
    // Over HTTP in the modern era the SDK checks the Mcp-Param-* headers against the arguments;
    // a non-ASCII value travels Base64-encoded.
    const lookup = await client.callTool("lookup", { region: "Zürich", limit: 5, query: "cafés" });
    assert.equal(textOf(lookup), "cafés in Zürich, at most 5");
    assert.equal(lookup.isError, undefined);
    const error = await rejectsWith(client.callTool("mislabeled", {}), ValidationError);
    assert.match(error.message, /Structured content of tool "mislabeled" does not match/);
    assert.ok(error.issues.some((issue) => issue.includes("/sum")), error.issues.join("; "));
  });

  Deno.test(`${label}: the resource is read and the prompt is rendered`, async () => {
    await using fx = await target.connect();
    const { client } = fx;
    const resources = await client.listResources();
    assert.deepStrictEqual(resources.map((r) => [r.uri, r.name, r.mimeType]), [
      ["sdk://readme", "readme", "text/plain"],
    ]);
    const read = await client.readResource("sdk://readme");
    assert.deepStrictEqual(read.contents, [
      { uri: "sdk://readme", mimeType: "text/plain", text: "Hello from the SDK." },
    ]);
    const prompts = await client.listPrompts();
    assert.deepStrictEqual(prompts.map((p) => p.name), ["greet"]);
    assert.deepStrictEqual(prompts[0]?.arguments?.map((a) => [a.name, a.required]), [
      ["name", true],
    ]);
    const prompt = await client.getPrompt("greet", { name: "Ada" });
    assert.deepStrictEqual(prompt.messages, [
      { role: "user", content: { type: "text", text: "Please greet Ada." } },
    ]);
  });

  Deno.test(`${label}: progress and log messages arrive, filtered by the log level`, async () => {
    await using fx = await target.connect();
    const { client } = fx;
    const logs: LogMessage[] = [];
    client.on("log", (message) => logs.push(message));
    const progress: Progress[] = [];
    const onProgress = (p: Progress) => progress.push(p);
    if (era === "modern") {
      // 2026-07-28: a request without a log level in _meta gets no log messages at all.
      assert.equal(
        textOf(await client.callTool("count", { n: 2 }, { onProgress })),
        "counted to 2",
      );
      assert.deepStrictEqual(progress.map((p) => p.progress), [1, 2]);
      assert.deepStrictEqual(logs, []);
      progress.length = 0;
    }
    await client.setLoggingLevel("warning");
    assert.equal(textOf(await client.callTool("count", { n: 3 }, { onProgress })), "counted to 3");
    assert.deepStrictEqual(progress, [
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
    // A stateless legacy server forgets logging/setLevel with the instance that received it.
    const expected = target.stateless ? [1, 2, 3] : [3];
    assert.deepStrictEqual(
      logs.map((m) => [m.level, m.logger, m.data]),
      expected.map((i) => [i === 3 ? "warning" : "info", "count", `step ${i} of 3`]),
    );
    if (era === "modern") {
      const meta = sentParams(fx.transport.sent, "tools/call").at(-1)?._meta as
        | Record<string, unknown>
        | undefined;
      assert.equal(meta?.["io.modelcontextprotocol/logLevel"], "warning");
      assert.ok(!methods(fx.transport.sent).includes("logging/setLevel"));
    }
  });

  if (target.stateless) continue; // input requests need a connection the server can ask on

  Deno.test(`${label}: input requests are answered by the elicitation and sampling handlers`, async () => {
    const asked: ElicitationRequest[] = [];
    let answer: Record<string, unknown> = { sure: true };
    await using fx = await target.connect({
      onElicitation: (request) => {
        asked.push(request);
        return { action: "accept", content: answer };
      },
      onSampling: (request) => {
        const content = request.messages[0]?.content as { text?: string } | undefined;
        return {
          role: "assistant",
          content: { type: "text", text: `short (${content?.text})` },
          model: "test-model",
        };
      },
    });
    const { client } = fx;
    assert.equal(textOf(await client.callTool("confirm", { action: "deploy" })), "deploy: done");
    assert.equal(asked[0]?.message, "Really deploy?");
    assert.deepStrictEqual(asked[0]?.requestedSchema, {
      type: "object",
      properties: { sure: { type: "boolean", default: false } },
    });
    // An accepted form that leaves a field out gets the schema's default.
    answer = {};
    assert.equal(textOf(await client.callTool("confirm", { action: "wipe" })), "wipe: cancelled");
    assert.equal(
      textOf(await client.callTool("summarize", { topic: "MCP" })),
      "summary: short (Summarize MCP)",
    );
    const calls = sentParams(fx.transport.sent, "tools/call");
    if (era === "modern") {
      // Multi round-trip: each call went twice, the retry carrying the answer.
      assert.equal(calls.length, 6);
      assert.deepStrictEqual(calls[1]?.inputResponses, {
        confirm: { action: "accept", content: { sure: true } },
      });
    } else {
      // The SDK's legacy shim asked with real server-to-client requests instead, which the
      // client answered: two elicitations and one sampling.
      assert.equal(calls.length, 3);
      const answers = fx.transport.sent.filter((m) => "result" in m);
      assert.equal(answers.length, 3);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Era-specific behaviour

Deno.test("an SDK v2 dual-era server over stateless HTTP refuses input requests in the legacy era", async () => {
  const target = TARGETS.find((t) => t.stateless)!;
  let asked = 0;
  await using fx = await target.connect({
    onElicitation: () => {
      asked++;
      return { action: "accept", content: { sure: true } };
    },
  });
  // Each legacy request meets a fresh instance that saw no initialize, so it cannot know the
  // client's capabilities nor receive an answer: the SDK reports a tool error, it does not hang.
  const result = await fx.client.callTool("confirm", { action: "deploy" });
  assert.equal(result.isError, true, textOf(result));
  assert.match(
    textOf(result),
    /per-request legacy serving cannot receive server-to-client requests/,
  );
  assert.equal(asked, 0);
});

Deno.test("protocol: legacy against an SDK v2 modern-only server fails at initialize", async () => {
  await using server = serveSdk("reject");
  for (
    const transport of [
      new StdioTransport(sdkStdio("sdk_modern.ts")),
      new StreamableHttpTransport({ url: server.url }),
    ]
  ) {
    const error = await rejectsWith(connectChecked(transport, { protocol: "legacy" }), McpError);
    assert.equal(error.code, -32022); // UnsupportedProtocolVersion, naming what it speaks
    assert.deepStrictEqual((error.data as { supported?: unknown }).supported, ["2026-07-28"]);
  }
});

for (const target of TARGETS.filter((t) => !t.label.includes("HTTP"))) {
  Deno.test(`${target.label}: a changed tool list reaches the client`, async () => {
    await using fx = await target.connect();
    assert.ok(!(await fx.client.listTools()).some((t) => t.name === "secret"));
    const changed = nextToolsListChanged(fx);
    assert.equal(textOf(await fx.client.callTool("unlock", {})), "unlocked");
    await changed;
    assert.ok((await fx.client.listTools()).some((t) => t.name === "secret"));
    assert.equal(textOf(await fx.client.callTool("secret", {})), "the secret");
    if (target.era === "modern") {
      // it came on the subscriptions/listen stream the client opened after discovery
      const [listen] = sentParams(fx.transport.sent, "subscriptions/listen");
      assert.deepStrictEqual(listen?.notifications, {
        toolsListChanged: true,
        promptsListChanged: true,
        resourcesListChanged: true,
      });
    }
  });
}

for (const legacy of ["reject", "stateless"] as const) {
  Deno.test(`an SDK v2 ${legacy === "reject" ? "modern-only" : "dual-era"} HTTP server's change events reach the client on subscriptions/listen`, async () => {
    await using fx = await connectHttp(legacy, (url) => new StreamableHttpTransport({ url }), {});
    assert.equal(fx.client.era, "modern");
    // connect() does not wait for the listen stream's acknowledgement; the server's bus shows
    // when the stream is open.
    const bus = fx.server.handler.bus as InMemoryServerEventBus;
    for (let i = 0; i < 100 && bus.listenerCount === 0; i++) await delay(20);
    assert.equal(bus.listenerCount, 1);
    const changed = nextToolsListChanged(fx);
    fx.server.handler.notify.toolsChanged();
    await changed;
  });
}

// ---------------------------------------------------------------------------------------------
// A legacy server

Deno.test("auto mode lands on the legacy era against server-everything and its tools still work", async () => {
  await using fx = await connectChecked(
    new StdioTransport(await npmServer("everything", ["stdio"])),
  );
  const { client } = fx;
  assert.equal(client.era, "legacy");
  assert.equal(client.protocolVersion, "2025-11-25");
  const sent = methods(fx.transport.sent);
  assert.equal(sent[0], "server/discover");
  assert.ok(sent.includes("initialize"), `sent ${sent.join(", ")}`);
  const tools = (await client.listTools()).map((t) => t.name);
  assert.ok(tools.includes("echo") && tools.includes("get-sum"), tools.join(", "));
  assert.equal(
    textOf(await client.callTool("echo", { message: "still here" })),
    "Echo: still here",
  );
  const sum = await client.callTool("get-sum", { a: 2, b: 3 });
  assert.match(textOf(sum), /5/);
});
