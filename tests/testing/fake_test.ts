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
import { fixture } from "../_helpers.ts";

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
