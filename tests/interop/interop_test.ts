// Interop over stdio with the real server-everything from npm, a reference implementation: what it
// offers (tools, content, resources, prompts, completions, logging). Every message the client sends
// is checked against the official schema, so a disagreement is a bug on one side or the other.

import assert from "node:assert/strict";
import { type LogMessage, McpError, type Progress } from "../../mod.ts";
import { rejectsWith } from "../_helpers.ts";
import { everything, textOf } from "./_stdio.ts";

// ---------------------------------------------------------------------------------------------
// @modelcontextprotocol/server-everything

Deno.test("server-everything: the handshake reports its info, capabilities and instructions", async () => {
  await using fx = await everything();
  const { client } = fx;
  assert.equal(client.protocolVersion, "2025-11-25");
  assert.equal(client.serverInfo.name, "mcp-servers/everything");
  for (const capability of ["tools", "prompts", "resources", "logging", "completions"]) {
    assert.ok(capability in client.serverCapabilities, `no "${capability}" capability`);
  }
  assert.match(client.instructions ?? "", /\S/);
});

Deno.test("server-everything: listTools() walks every page and matches a single raw page", async () => {
  await using fx = await everything();
  const tools = await fx.client.listTools();
  const names = tools.map((tool) => tool.name);
  for (
    const name of ["echo", "get-sum", "get-structured-content", "trigger-long-running-operation"]
  ) {
    assert.ok(names.includes(name), `no tool "${name}" in ${names.join(", ")}`);
  }
  assert.equal(new Set(names).size, names.length, "a tool was listed twice");
  // Tools that need sampling, elicitation or roots appear only for a client that offers them.
  assert.ok(!names.includes("trigger-sampling-request"));
  assert.ok(!names.includes("get-roots-list"));
  const page = await fx.client.listTools({ cursor: undefined });
  assert.equal(page.nextCursor, undefined);
  assert.deepEqual(page.items.map((tool) => tool.name), names);
});

Deno.test("server-everything: callTool() runs its echo and get-sum tools", async () => {
  await using fx = await everything();
  const echo = await fx.client.callTool("echo", { message: "héllo, wörld" });
  assert.equal(echo.isError, undefined);
  assert.equal(textOf(echo), "Echo: héllo, wörld");
  const sum = await fx.client.callTool("get-sum", { a: 19, b: 23.5 });
  assert.equal(textOf(sum), "The sum of 19 and 23.5 is 42.5.");
});

Deno.test("server-everything: structured content passes the tool's output schema", async () => {
  await using fx = await everything();
  const result = await fx.client.callTool("get-structured-content", { location: "Chicago" });
  assert.deepEqual(result.structuredContent, {
    temperature: 36,
    conditions: "Light rain / drizzle",
    humidity: 82,
  });
  assert.deepEqual(JSON.parse(textOf(result)), result.structuredContent);
});

Deno.test("server-everything: image, resource link and embedded resource content arrive intact", async () => {
  await using fx = await everything();
  const image = await fx.client.callTool("get-tiny-image");
  const png = image.content.find((item) => item.type === "image");
  assert.equal(png?.mimeType, "image/png");
  const bytes = Uint8Array.from(atob(png?.data ?? ""), (c) => c.charCodeAt(0));
  assert.deepEqual([...bytes.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]); // the PNG signature

  const links = await fx.client.callTool("get-resource-links", { count: 4 });
  const uris = links.content.filter((item) => item.type === "resource_link").map((item) =>
    item.uri
  );
  assert.deepEqual(uris, [
    "demo://resource/dynamic/blob/1",
    "demo://resource/dynamic/text/2",
    "demo://resource/dynamic/blob/3",
    "demo://resource/dynamic/text/4",
  ]);

  const reference = await fx.client.callTool("get-resource-reference", {
    resourceType: "Text",
    resourceId: 7,
  });
  const embedded = reference.content.find((item) => item.type === "resource");
  assert.equal(embedded?.resource?.uri, "demo://resource/dynamic/text/7");
  assert.match(embedded?.resource?.text ?? "", /^Resource 7: This is a plaintext resource/);
});

Deno.test("server-everything: failed tool calls come back as isError results, not rejections", async () => {
  await using fx = await everything();
  // The SDK's McpServer turns bad arguments and unknown tools alike into a tool error result.
  const invalid = await fx.client.callTool("get-sum", { a: "one", b: 2 });
  assert.equal(invalid.isError, true);
  assert.match(textOf(invalid), /Invalid arguments for tool get-sum/);
  const unknown = await fx.client.callTool("no-such-tool");
  assert.equal(unknown.isError, true);
  assert.match(textOf(unknown), /Tool no-such-tool not found/);
});

Deno.test("server-everything: onProgress receives every step of a long-running operation", async () => {
  await using fx = await everything();
  const updates: Progress[] = [];
  const result = await fx.client.callTool(
    "trigger-long-running-operation",
    { duration: 0.5, steps: 5 },
    { onProgress: (progress) => updates.push(progress), timeoutMs: 10_000 },
  );
  assert.match(textOf(result), /Long running operation completed/);
  assert.deepEqual(updates.map((update) => update.progress), [1, 2, 3, 4, 5]);
  assert.ok(updates.every((update) => update.total === 5));
});

Deno.test("server-everything: listResources() and readResource() read static and templated resources", async () => {
  await using fx = await everything();
  const resources = await fx.client.listResources();
  const instructions = resources.find((resource) => resource.name === "instructions.md");
  assert.ok(instructions, `no instructions.md in ${resources.map((r) => r.name).join(", ")}`);
  // The same file is the server's instructions, so the two paths must agree byte for byte.
  const read = await fx.client.readResource(instructions.uri);
  assert.equal(read.contents[0]?.mimeType, "text/markdown");
  assert.equal(read.contents[0]?.text, fx.client.instructions);

  const templates = await fx.client.listResourceTemplates();
  assert.deepEqual(templates.map((template) => template.uriTemplate).sort(), [
    "demo://resource/dynamic/blob/{resourceId}",
    "demo://resource/dynamic/text/{resourceId}",
  ]);
  const text = await fx.client.readResource("demo://resource/dynamic/text/3");
  assert.match(text.contents[0]?.text ?? "", /^Resource 3: This is a plaintext resource/);
  const blob = await fx.client.readResource("demo://resource/dynamic/blob/5");
  assert.match(atob(blob.contents[0]?.blob ?? ""), /^Resource 5: This is a base64 blob/);
  await rejectsWith(fx.client.readResource("demo://resource/dynamic/text/zero"), McpError);
});

Deno.test("server-everything: listPrompts() and getPrompt() render prompts with arguments", async () => {
  await using fx = await everything();
  const prompts = await fx.client.listPrompts();
  const names = prompts.map((prompt) => prompt.name).sort();
  assert.deepEqual(names, [
    "args-prompt",
    "completable-prompt",
    "resource-prompt",
    "simple-prompt",
  ]);
  const args = prompts.find((prompt) => prompt.name === "args-prompt");
  assert.deepEqual(
    args?.arguments?.map(({ name, required }) => ({ name, required: required ?? false })),
    [{ name: "city", required: true }, { name: "state", required: false }],
  );

  const simple = await fx.client.getPrompt("simple-prompt");
  assert.equal(simple.messages[0]?.content.text, "This is a simple prompt without arguments.");
  const weather = await fx.client.getPrompt("args-prompt", { city: "Lyon", state: "Rhône" });
  assert.equal(weather.messages[0]?.content.text, "What's weather in Lyon, Rhône?");
  const embedded = await fx.client.getPrompt("resource-prompt", {
    resourceType: "Text",
    resourceId: "2",
  });
  assert.equal(embedded.messages[1]?.content.type, "resource");
  assert.equal(embedded.messages[1]?.content.resource?.uri, "demo://resource/dynamic/text/2");
  await rejectsWith(fx.client.getPrompt("args-prompt", {}), McpError);
});

Deno.test("server-everything: complete() completes prompt arguments, with context, and template variables", async () => {
  await using fx = await everything();
  const ref = { type: "ref/prompt", name: "completable-prompt" } as const;
  const departments = await fx.client.complete(ref, { name: "department", value: "S" });
  assert.deepEqual(departments.completion.values.sort(), ["Sales", "Support"]);
  const people = await fx.client.complete(ref, { name: "name", value: "" }, {
    context: { department: "Engineering" },
  });
  assert.deepEqual(people.completion.values, ["Alice", "Bob", "Charlie"]);
  const ids = await fx.client.complete(
    { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
    { name: "resourceId", value: "12" },
  );
  assert.deepEqual(ids.completion.values, ["12"]);
});

Deno.test("server-everything: setLoggingLevel() filters the log messages it sends", async () => {
  await using fx = await everything();
  const logs: LogMessage[] = [];
  fx.client.on("log", (message) => logs.push(message));
  const uri = "demo://resource/static/document/features.md";
  // Its subscribe and unsubscribe handlers log at "info" before they answer, so by the time
  // the answer arrives, any log line the level let through has arrived too.
  await fx.client.setLoggingLevel("error");
  await fx.client.subscribeResource(uri);
  assert.equal(logs.length, 0, `unexpected log: ${JSON.stringify(logs[0])}`);
  await fx.client.setLoggingLevel("info");
  await fx.client.unsubscribeResource(uri);
  assert.equal(logs.length, 1);
  assert.equal(logs[0]?.level, "info");
  assert.match(String(logs[0]?.data), /Received Unsubscribe Resource request/);
});
