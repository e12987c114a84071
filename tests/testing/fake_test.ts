// FakeServer: a fake declared in a few lines, in process, as a child process and over HTTP, with
// the misbehaviours a host must survive.

import assert from "node:assert/strict";
import {
  CancelledError,
  Client,
  type Diagnostic,
  HttpTransport,
  McpError,
  StdioTransport,
} from "../../mod.ts";
import { FakeServer } from "../../src/testing/testing.ts";
import { fixture, rejectsWith } from "../_helpers.ts";

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

const TOOLS = [
  { name: "echo", handler: (args: Record<string, unknown>) => String(args.text) },
  { name: "raw" },
  { name: "hang" },
];

Deno.test("a fake declared in a few lines serves tools, resources and prompts in process", async () => {
  const fake = new FakeServer({
    tools: TOOLS,
    resources: [{ uri: "mem://readme", text: "# Hi" }],
    prompts: [{ name: "greet", arguments: [{ name: "who" }], text: (a) => `Hello ${a.who}` }],
    instructions: "A fake.",
  });
  await using client = await Client.connect(fake.transport(), { protocol: "legacy" });
  assert.equal(client.instructions, "A fake.");
  assert.deepEqual((await client.listTools()).map((t) => t.name), ["echo", "raw", "hang"]);
  assert.equal((await client.callTool("echo", { text: "hi" })).content[0]?.text, "hi");
  assert.equal((await client.callTool("raw", { n: 1 })).content[0]?.text, '{"n":1}');
  assert.equal((await client.readResource("mem://readme")).contents[0]?.text, "# Hi");
  const prompt = await client.getPrompt("greet", { who: "Ada" });
  assert.deepEqual(prompt.messages[0]?.content, { type: "text", text: "Hello Ada" });
  assert.ok(fake.received.some((m) => "method" in m && m.method === "tools/call"));
});

Deno.test("misbehaviours: silence until cancelled, errors, duplicate answers", async () => {
  const diagnostics: Diagnostic[] = [];
  const fake = new FakeServer({
    tools: TOOLS,
    misbehave: {
      neverAnswer: ["tools/call"],
      failWith: { "prompts/list": { code: -32603, message: "down" } },
      duplicateAnswers: true,
    },
    prompts: [],
  });
  await using client = await Client.connect(fake.transport(), {
    protocol: "legacy",
    onDiagnostic: (d) => diagnostics.push(d),
  });
  const call = client.callTool("hang", {}, { signal: AbortSignal.timeout(100) });
  await assert.rejects(call, CancelledError);
  await assert.rejects(client.listPrompts(), (e) => e instanceof McpError && e.message === "down");
  assert.ok(diagnostics.some((d) => d.kind === "duplicate-response"), JSON.stringify(diagnostics));
  assert.ok(
    fake.received.some((m) => "method" in m && m.method === "notifications/cancelled"),
    "the fake heard the cancellation",
  );
});

Deno.test("a fake script serves on stdio as a child process", async () => {
  await using client = await Client.connect(
    new StdioTransport({
      command: Deno.execPath(),
      // The script imports this repository's sources: it needs the repository's import map.
      args: ["run", "--allow-all", "--config", CONFIG, fixture("declared.ts")],
    }),
    { protocol: "legacy" },
  );
  assert.equal(client.serverInfo.name, "declared");
  assert.equal((await client.callTool("shout", { text: "hi" })).content[0]?.text, "HI");
});

Deno.test("a fake serves over Streamable HTTP", async () => {
  const fake = new FakeServer({ tools: TOOLS });
  await using http = fake.serveHttp();
  await using client = await Client.connect(new HttpTransport({ url: http.url }), {
    protocol: "legacy",
  });
  assert.equal((await client.callTool("echo", { text: "web" })).content[0]?.text, "web");
});

/** A tool that may run as a task, and answers once `release` is called. */
function slowTool(release: Promise<void>) {
  return {
    name: "build",
    execution: { taskSupport: "optional" },
    handler: async () => {
      await release;
      return "built";
    },
  };
}

Deno.test("a tool with taskSupport runs as a task when the call asks (2025-11-25)", async () => {
  const release = Promise.withResolvers<void>();
  const fake = new FakeServer({ tools: [slowTool(release.promise), { name: "echo" }] });
  await using client = await Client.connect(fake.transport(), { protocol: "2025-11-25" });
  assert.ok(client.serverCapabilities.tasks, "the fake declares the tasks capability");
  const seen: string[] = [];
  const created = Promise.withResolvers<void>();
  const call = client.callTool("build", {}, {
    task: { ttlMs: 30_000 },
    onTaskStatus: (task) => {
      seen.push(task.status);
      created.resolve();
    },
  });
  await created.promise;
  const [listed] = await client.listTasks();
  assert.equal(listed?.status, "working");
  release.resolve();
  const result = await call;
  assert.deepEqual(result.content, [{ type: "text", text: "built" }]);
  assert.equal(seen[0], "working");
  assert.equal(seen.at(-1), "completed");
  assert.equal((await client.getTask(listed!.taskId)).status, "completed");
  // Without `task` the same tool answers at once, as a plain call.
  const plain = await client.callTool("echo", { a: 1 });
  assert.deepEqual(plain.content, [{ type: "text", text: '{"a":1}' }]);
});

Deno.test("a fake's task can be cancelled, fails with its tool's error, and names unknown ids", async () => {
  const never = new Promise<void>(() => {});
  const fake = new FakeServer({
    tools: [
      slowTool(never),
      {
        name: "broken",
        execution: { taskSupport: "required" },
        handler: () => {
          throw new McpError(-32010, "The disk is full");
        },
      },
    ],
  });
  await using client = await Client.connect(fake.transport(), { protocol: "2025-11-25" });
  const created = await client.request("tools/call", { name: "build", arguments: {}, task: {} });
  const { taskId } = created.task as { taskId: string };
  await client.cancelTask(taskId);
  assert.equal((await client.getTask(taskId)).status, "cancelled");
  // A task that is over cannot be cancelled again.
  const again = await rejectsWith(client.cancelTask(taskId), McpError);
  assert.equal(again.code, -32602);

  const failed = await rejectsWith(client.callTool("broken", {}, { task: {} }), McpError);
  assert.equal(failed.code, -32010);
  assert.match(failed.message, /The disk is full/);

  const unknown = await rejectsWith(client.getTask("task-99"), McpError);
  assert.equal(unknown.code, -32602);
  // taskSupport is held to: "required" only as a task (callTool() would make it one; a raw
  // request does not), a tool without it never as one.
  const plain = await rejectsWith(
    client.request("tools/call", { name: "broken", arguments: {} }),
    McpError,
  );
  assert.equal(plain.code, -32601);
  assert.match(plain.message, /runs only as a task/);
});

Deno.test("a fake's tool without taskSupport refuses a task-augmented call", async () => {
  const fake = new FakeServer({ tools: [{ name: "echo" }] });
  await using client = await Client.connect(fake.transport(), { protocol: "2025-11-25" });
  assert.equal(client.serverCapabilities.tasks, undefined);
  const refused = await rejectsWith(
    client.request("tools/call", { name: "echo", arguments: {}, task: {} }),
    McpError,
  );
  assert.equal(refused.code, -32601);
  assert.match(refused.message, /does not run as a task/);
});
