import assert from "node:assert/strict";
import {
  CancelledError,
  CapabilityError,
  Client,
  type ElicitationRequest,
  type JsonRpcMessage,
  LEGACY_PROTOCOL_VERSIONS,
  type LogMessage,
  McpError,
  ProtocolError,
  StdioTransport,
  TapTransport,
  ValidationError,
} from "../../mod.ts";
import { connectFake, fakeServer, rejectsWith } from "../_helpers.ts";

function textOf(
  result: { content: { type: string; text?: string }[] },
): string {
  return result.content.map((c) => c.text ?? "").join("");
}

const TOOL_NAMES = [
  "echo",
  "add",
  "bad_structured",
  "slow",
  "hang",
  "fail",
  "error",
  "sample",
  "elicit",
  "elicit_url",
  "roots",
  "ping_client",
  "log",
  "notify_changes",
  "update_resource",
  "whoami",
  "env",
  "cwd",
  "long_task",
];

Deno.test("connect() performs the handshake and exposes what the server said", async () => {
  await using fx = await connectFake("everything.ts");
  const { client } = fx;
  assert.equal(client.protocolVersion, "2025-11-25");
  assert.deepStrictEqual(client.serverInfo, {
    name: "fake-everything",
    version: "1.0.0",
  });
  assert.equal(client.instructions, "A fake server for tests.");
  assert.ok(client.serverCapabilities.tools);
  assert.equal(client.era, "legacy");
  // auto mode probes with server/discover first, then falls back to the handshake
  const sent = fx.transport.sent.map((m) => "method" in m ? m.method : "response");
  assert.deepStrictEqual(sent.slice(0, 3), [
    "server/discover",
    "initialize",
    "notifications/initialized",
  ]);
});

for (const revision of LEGACY_PROTOCOL_VERSIONS) {
  Deno.test(`a server answering ${revision} is accepted and spoken to in that revision`, async () => {
    await using fx = await connectFake("everything.ts", [], {
      transport: { env: { FAKE_PROTOCOL_VERSION: revision } },
      roots: [{ uri: "file:///tmp", name: "tmp" }],
      onSampling: () => ({
        role: "assistant",
        content: { type: "text", text: "ok" },
        model: "m",
      }),
    });
    assert.equal(fx.client.protocolVersion, revision);
    assert.equal(fx.transport.revision, revision);
    assert.equal((await fx.client.listTools()).length, TOOL_NAMES.length);
    assert.equal(
      textOf(await fx.client.callTool("echo", { text: "hi" })),
      "hi",
    );
    assert.match(
      textOf(await fx.client.callTool("roots", {})),
      /file:\/\/\/tmp/,
    );
    assert.match(
      textOf(await fx.client.callTool("sample", { prompt: "2+2" })),
      /"ok"/,
    );
    await fx.client.ping();
  });
}

Deno.test("an unsupported protocol revision fails connect() and stops the server", async () => {
  const transport = new StdioTransport(
    fakeServer("misbehaving.ts", ["unsupported-version"]),
  );
  const error = await rejectsWith(Client.connect(transport), ProtocolError);
  assert.match(
    error.message,
    /"1999-01-01", which this client does not support/,
  );
  await rejectsWith(transport.start(), Error); // closed for good
});

Deno.test("an initialize error is surfaced as McpError", async () => {
  const transport = new StdioTransport(
    fakeServer("misbehaving.ts", ["initialize-error"]),
  );
  const error = await rejectsWith(Client.connect(transport), McpError);
  assert.equal(error.code, -32603);
});

Deno.test("listTools() walks every page; a cursor option returns one raw page", async () => {
  await using fx = await connectFake("everything.ts");
  const tools = await fx.client.listTools();
  assert.deepStrictEqual(tools.map((t) => t.name), TOOL_NAMES);
  const first = await fx.client.listTools({ cursor: undefined });
  assert.equal(first.items.length, 2);
  assert.equal(typeof first.nextCursor, "string");
  const second = await fx.client.listTools({ cursor: first.nextCursor });
  assert.deepStrictEqual(second.items.map((t) => t.name), [
    "bad_structured",
    "slow",
  ]);
  const error = await rejectsWith(
    fx.client.listTools({ maxPages: 2 }),
    ProtocolError,
  );
  assert.match(error.message, /did not end after 2 pages/);
});

Deno.test("callTool() validates structuredContent against the tool's outputSchema", async () => {
  await using fx = await connectFake("everything.ts");
  const result = await fx.client.callTool("add", { a: 2, b: 3 });
  assert.deepStrictEqual(result.structuredContent, { sum: 5 });
  const error = await rejectsWith(
    fx.client.callTool("bad_structured", {}),
    ValidationError,
  );
  assert.deepStrictEqual(error.issues, ["/sum must be number"]);
});

Deno.test("the first call goes out with the tool listing its output check needs, not after it", async () => {
  /** The wire of a first call of `bad_structured`, whose answer breaks its output schema. */
  async function firstCall(
    capabilities: Record<string, unknown>,
  ): Promise<string[]> {
    const wire: string[] = [];
    const label = (message: JsonRpcMessage) =>
      "method" in message ? `→ ${message.method}` : "← answer";
    const server = fakeServer("everything.ts", [], {
      env: { FAKE_CAPABILITIES: JSON.stringify(capabilities) },
    });
    const transport = new TapTransport(new StdioTransport(server), {
      sent: (message) => wire.push(label(message)),
      received: (message) => wire.push(label(message)),
    });
    await using client = await Client.connect(transport);
    wire.length = 0;
    const error = await rejectsWith(
      client.callTool("bad_structured", {}),
      ValidationError,
    );
    assert.deepStrictEqual(error.issues, ["/sum must be number"]);
    return wire;
  }
  // Only the output check needs the schemas: both requests leave before either answer.
  assert.deepStrictEqual((await firstCall({ tools: {} })).slice(0, 3), [
    "→ tools/list",
    "→ tools/call",
    "← answer",
  ]);
  // A server that takes task-augmented calls: whether the tool requires a task decides the call,
  // so it waits for the whole listing (this server gives it in pages).
  const wire = await firstCall({
    tools: {},
    tasks: { requests: { tools: { call: {} } } },
  });
  const call = wire.indexOf("→ tools/call");
  assert.ok(
    call > wire.lastIndexOf("→ tools/list") && wire[call - 1] === "← answer",
    String(wire),
  );
});

Deno.test("the schema engine loads on the first call with a schema to check, not before", async () => {
  // In a process of its own: the engine, once loaded, stays for the process.
  const script = `
    import { Client, SchemaValidator, StdioTransport } from "${new URL(
    "../../mod.ts",
    import.meta.url,
  )}";
    const client = await Client.connect(new StdioTransport(${
    JSON.stringify(fakeServer("everything.ts"))
  }));
    await client.callTool("echo", { text: "hi" });
    const afterEcho = SchemaValidator.isReady;
    await client.callTool("add", { a: 1, b: 2 });
    console.log(JSON.stringify([afterEcho, SchemaValidator.isReady]));
    await client.close();
  `;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.equal(code, 0, decoder.decode(stderr));
  // echo has no output schema; add has one.
  assert.deepStrictEqual(JSON.parse(decoder.decode(stdout)), [false, true]);
});

Deno.test("a tool result with isError is returned, a JSON-RPC error is thrown", async () => {
  await using fx = await connectFake("everything.ts");
  const failed = await fx.client.callTool("fail", {});
  assert.equal(failed.isError, true);
  assert.equal(textOf(failed), "boom");
  const error = await rejectsWith(fx.client.callTool("error", {}), McpError);
  assert.deepStrictEqual([error.code, error.message, error.data], [
    -32001,
    "Tool exploded",
    {
      detail: "x",
    },
  ]);
});

Deno.test("validateArguments rejects bad arguments before anything is sent", async () => {
  await using fx = await connectFake("everything.ts", [], {
    validateArguments: true,
  });
  const error = await rejectsWith(
    fx.client.callTool("add", { a: "two" }),
    ValidationError,
  );
  assert.ok(
    error.issues.includes("(root) must have required property 'b'"),
    error.message,
  );
  assert.ok(error.issues.includes("/a must be number"), error.message);
  assert.equal(
    fx.transport.sent.filter((m) => "method" in m && m.method === "tools/call")
      .length,
    0,
  );
});

Deno.test("a method the server did not advertise fails without a round trip", async () => {
  await using fx = await connectFake("everything.ts", [], {
    transport: { env: { FAKE_CAPABILITIES: JSON.stringify({ tools: {} }) } },
  });
  const error = await rejectsWith(fx.client.listPrompts(), CapabilityError);
  assert.equal(error.capability, "prompts");
  assert.match(
    error.message,
    /server "fake-everything" does not advertise the "prompts" capability/,
  );
  await rejectsWith(
    fx.client.subscribeResource("fake://docs/readme"),
    CapabilityError,
  );
  await rejectsWith(fx.client.setLoggingLevel("info"), CapabilityError);
  await rejectsWith(
    fx.client.complete({ type: "ref/prompt", name: "greet" }, {
      name: "style",
      value: "",
    }),
    CapabilityError,
  );
  const methods = fx.transport.sent.flatMap((m) => "method" in m ? [m.method] : []);
  assert.deepStrictEqual(methods, [
    "server/discover",
    "initialize",
    "notifications/initialized",
  ]);
});

Deno.test("resources: list every page, templates, read text and blob, not found", async () => {
  await using fx = await connectFake("everything.ts");
  const { client } = fx;
  const resources = await client.listResources();
  assert.deepStrictEqual(resources.map((r) => r.uri), [
    "fake://docs/readme",
    "fake://docs/guide",
    "fake://images/logo",
  ]);
  const templates = await client.listResourceTemplates();
  assert.deepStrictEqual(templates.map((t) => t.uriTemplate), [
    "fake://notes/{id}",
  ]);
  const readme = await client.readResource("fake://docs/readme");
  assert.equal(typeof readme.contents[0]?.text, "string");
  const logo = await client.readResource("fake://images/logo");
  assert.equal(typeof logo.contents[0]?.blob, "string");
  assert.equal(
    (await client.readResource("fake://notes/42")).contents[0]?.text,
    "note 42",
  );
  const error = await rejectsWith(
    client.readResource("fake://nowhere"),
    McpError,
  );
  assert.equal(error.code, -32002);
});

Deno.test("subscribeResource() brings resourceUpdated events", async () => {
  await using fx = await connectFake("everything.ts");
  const updated: string[] = [];
  fx.client.on("resourceUpdated", ({ uri }) => updated.push(uri));
  assert.equal(
    textOf(
      await fx.client.callTool("update_resource", { uri: "fake://docs/guide" }),
    ),
    "not subscribed",
  );
  await fx.client.subscribeResource("fake://docs/guide");
  assert.equal(
    textOf(
      await fx.client.callTool("update_resource", { uri: "fake://docs/guide" }),
    ),
    "updated",
  );
  await fx.client.unsubscribeResource("fake://docs/guide");
  assert.deepStrictEqual(updated, ["fake://docs/guide"]);
});

Deno.test("prompts: list, get with arguments, and a missing required argument", async () => {
  await using fx = await connectFake("everything.ts");
  assert.deepStrictEqual((await fx.client.listPrompts()).map((p) => p.name), [
    "greet",
    "plain",
  ]);
  const prompt = await fx.client.getPrompt("greet", {
    name: "Ada",
    style: "formal",
  });
  assert.equal(
    prompt.messages[0]?.content.text,
    "Hello Ada, in a formal style",
  );
  const error = await rejectsWith(fx.client.getPrompt("greet", {}), McpError);
  assert.equal(error.code, -32602);
});

Deno.test("complete() completes prompt arguments and template variables", async () => {
  await using fx = await connectFake("everything.ts");
  const styles = await fx.client.complete(
    { type: "ref/prompt", name: "greet" },
    {
      name: "style",
      value: "f",
    },
  );
  assert.deepStrictEqual(styles.completion.values, [
    "formal",
    "friendly",
    "funny",
  ]);
  const ids = await fx.client.complete({
    type: "ref/resource",
    uri: "fake://notes/{id}",
  }, {
    name: "id",
    value: "4",
  });
  assert.deepStrictEqual(ids.completion.values, ["42"]);
});

Deno.test("setLoggingLevel() filters log events by severity", async () => {
  await using fx = await connectFake("everything.ts");
  const logs: LogMessage[] = [];
  fx.client.on("log", (message) => logs.push(message));
  await fx.client.setLoggingLevel("warning");
  await fx.client.callTool("log", { level: "info", data: "quiet" });
  await fx.client.callTool("log", { level: "error", data: { loud: true } });
  assert.deepStrictEqual(logs.map((m) => [m.level, m.data]), [["error", {
    loud: true,
  }]]);
});

Deno.test("list_changed notifications become events and refresh the tool cache", async () => {
  await using fx = await connectFake("everything.ts");
  const events: string[] = [];
  fx.client.on("toolsListChanged", () => events.push("tools"));
  fx.client.on("promptsListChanged", () => events.push("prompts"));
  fx.client.on("resourcesListChanged", () => events.push("resources"));
  await fx.client.callTool("notify_changes", {});
  assert.deepStrictEqual(events.sort(), ["prompts", "resources", "tools"]);
  // the next call re-learns the tool list before validating output
  await fx.client.callTool("add", { a: 1, b: 1 });
  const lists = fx.transport.sent.filter((m) => "method" in m && m.method === "tools/list")
    .length;
  assert.ok(
    lists >= 2 * Math.ceil(TOOL_NAMES.length / 2),
    `tools/list sent ${lists} times`,
  );
});

Deno.test("concurrent first calls on a fresh client list the tools once between them", async () => {
  await using fx = await connectFake("everything.ts");
  await Promise.all(
    Array.from({ length: 5 }, () => fx.client.callTool("echo", { text: "hi" })),
  );
  const lists = fx.transport.sent.filter((m) => "method" in m && m.method === "tools/list")
    .length;
  // everything.ts serves two tools a page: one full listing is this many pages.
  assert.equal(lists, Math.ceil(TOOL_NAMES.length / 2));
});

Deno.test("capabilities are advertised only for the handlers given", async () => {
  await using bare = await connectFake("everything.ts");
  const none = JSON.parse(textOf(await bare.client.callTool("whoami", {})));
  assert.deepStrictEqual(none.capabilities, {});
  assert.equal(none.clientInfo.name, "mcp-inspect");
  const sampled = await bare.client.callTool("sample", { prompt: "hi" });
  assert.equal(sampled.isError, true); // the client answered -32601

  await using full = await connectFake("everything.ts", [], {
    roots: [],
    onSampling: () => ({
      role: "assistant",
      content: { type: "text", text: "" },
      model: "m",
    }),
    onElicitation: () => ({ action: "decline" }),
    elicitationModes: ["form", "url"],
  });
  const all = JSON.parse(textOf(await full.client.callTool("whoami", {})));
  assert.deepStrictEqual(all.capabilities, {
    roots: { listChanged: true },
    sampling: {},
    elicitation: { form: {}, url: {} },
  });
});

Deno.test("sampling requests reach the handler and its answer reaches the server", async () => {
  await using fx = await connectFake("everything.ts", [], {
    onSampling: (request) => ({
      role: "assistant",
      content: {
        type: "text",
        text: `echo ${JSON.stringify(request.messages[0]?.content)}`,
      },
      model: "test-model",
    }),
  });
  const result = JSON.parse(
    textOf(await fx.client.callTool("sample", { prompt: "2+2" })),
  );
  assert.equal(result.model, "test-model");
  assert.match(result.content.text, /2\+2/);
});

Deno.test("elicitation applies the form's defaults to an accepting answer", async () => {
  const seen: ElicitationRequest[] = [];
  await using fx = await connectFake("everything.ts", [], {
    onElicitation: (request) => {
      seen.push(request);
      return { action: "accept", content: { email: "ada@example.com" } };
    },
  });
  const result = JSON.parse(textOf(await fx.client.callTool("elicit", {})));
  assert.deepStrictEqual(result, {
    action: "accept",
    content: { email: "ada@example.com", name: "Ada", age: 36 },
  });
  assert.equal(seen[0]?.message, "Who are you?");
});

Deno.test("URL-mode elicitation reaches the handler only when the mode is enabled", async () => {
  await using formOnly = await connectFake("everything.ts", [], {
    onElicitation: () => ({ action: "accept" }),
  });
  const refused = await formOnly.client.callTool("elicit_url", {});
  assert.equal(refused.isError, true);

  const urls: string[] = [];
  await using both = await connectFake("everything.ts", [], {
    onElicitation: (request) => {
      urls.push(request.url ?? "");
      return { action: "accept" };
    },
    elicitationModes: ["form", "url"],
  });
  assert.deepStrictEqual(
    JSON.parse(textOf(await both.client.callTool("elicit_url", {}))),
    {
      action: "accept",
    },
  );
  assert.deepStrictEqual(urls, ["https://example.com/login"]);
});

Deno.test("roots are listed on request, and setRoots() notifies the server", async () => {
  const stderr: string[] = [];
  await using fx = await connectFake("everything.ts", [], {
    roots: [{ uri: "file:///one", name: "one" }],
    transport: { stderr: (line) => stderr.push(line) },
  });
  assert.deepStrictEqual(
    JSON.parse(textOf(await fx.client.callTool("roots", {}))).roots,
    [{
      uri: "file:///one",
      name: "one",
    }],
  );
  await fx.client.setRoots([{ uri: "file:///two" }]);
  assert.deepStrictEqual(
    JSON.parse(textOf(await fx.client.callTool("roots", {}))).roots,
    [{
      uri: "file:///two",
    }],
  );
  assert.ok(
    stderr.some((line) => line.includes("roots changed")),
    stderr.join("\n"),
  );
});

Deno.test("the client answers the server's ping", async () => {
  await using fx = await connectFake("everything.ts");
  assert.equal(textOf(await fx.client.callTool("ping_client", {})), "pong");
});

Deno.test("progress from a slow tool reaches onProgress", async () => {
  await using fx = await connectFake("everything.ts");
  const steps: number[] = [];
  const result = await fx.client.callTool("slow", { steps: 3, delayMs: 10 }, {
    onProgress: (p) => steps.push(p.progress),
  });
  assert.equal(textOf(result), "done after 3 steps");
  assert.deepStrictEqual(steps, [1, 2, 3]);
});

Deno.test("aborting a call cancels it on the server", async () => {
  const stderr: string[] = [];
  await using fx = await connectFake("everything.ts", [], {
    transport: { stderr: (line) => stderr.push(line) },
  });
  const controller = new AbortController();
  const call = fx.client.callTool("hang", {}, { signal: controller.signal });
  setTimeout(() => controller.abort("enough"), 50);
  await rejectsWith(call, CancelledError);
  await fx.client.ping(); // the cancellation was written before this round trip
  await fx.client.callTool("echo", { text: "sync" });
  assert.ok(
    stderr.some((line) => /^cancelled \d+/.test(line)),
    stderr.join("\n"),
  );
});
