// The server's other features: resources and their subscriptions, prompts, completion and
// logging, and the capability gate in front of them.

import assert from "node:assert/strict";
import { CapabilityError, type LogMessage, McpError } from "../../mod.ts";
import { connectFake, rejectsWith } from "../_helpers.ts";
import { textOf } from "./_fixtures.ts";

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
