// Tools: listing and paging, calls with their output and argument checks, the listing a first call
// needs, list changes, progress and cancellation.

import assert from "node:assert/strict";
import {
  CancelledError,
  Client,
  type JsonRpcMessage,
  McpError,
  ProtocolError,
  StdioTransport,
  TapTransport,
  ValidationError,
} from "../../mod.ts";
import { connectFake, fakeServer, rejectsWith } from "../_helpers.ts";
import { textOf, TOOL_NAMES } from "./_fixtures.ts";

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
