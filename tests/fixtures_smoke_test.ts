// Proves the fake servers everything.ts and fast.ts in testdata/servers behave as documented, by
// speaking raw JSON lines to them. No client code is involved, so a failure here points at a fake.

import assert from "node:assert/strict";
import { Fake, INITIALIZE_PARAMS, type Json, toolText } from "./_smoke_fake.ts";

Deno.test("everything.ts negotiates the version and echoes ids with their type", async () => {
  await using fake = new Fake("everything.ts");
  await fake.send({
    id: "init-1",
    method: "initialize",
    params: { ...INITIALIZE_PARAMS, protocolVersion: "2025-06-18" },
  });
  const init = await fake.next();
  assert.equal(init.id, "init-1");
  assert.deepEqual((init.result as Json).protocolVersion, "2025-06-18");
  assert.deepEqual((init.result as Json).serverInfo, { name: "fake-everything", version: "1.0.0" });
  // A notification gets no answer, so the next line must be the ping's.
  await fake.send({ method: "notifications/initialized" }, { id: 0, method: "ping" });
  assert.deepEqual(await fake.next(), { jsonrpc: "2.0", id: 0, result: {} });
  await fake.send({ id: "7", method: "nope" });
  assert.deepEqual(await fake.next(), {
    jsonrpc: "2.0",
    id: "7",
    error: { code: -32601, message: "Method not found: nope" },
  });
  assert.equal((await fake.finish()).code, 0);
});

Deno.test("everything.ts pages tools/list and rejects a bad cursor", async () => {
  await using fake = new Fake("everything.ts");
  await fake.initialize();
  const names: string[] = [];
  let cursor: unknown;
  for (let id = 1; id < 50; id++) {
    await fake.send({ id, method: "tools/list", params: cursor === undefined ? {} : { cursor } });
    const result = (await fake.next()).result as { tools: { name: string }[]; nextCursor?: string };
    assert.ok(result.tools.length <= 2);
    names.push(...result.tools.map((tool) => tool.name));
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  assert.equal(names.length, 19);
  assert.ok(names.includes("echo") && names.includes("cwd"));
  await fake.send({ id: 99, method: "tools/list", params: { cursor: "not-a-cursor" } });
  assert.equal(((await fake.next()).error as Json).code, -32602);
});

Deno.test("everything.ts calls tools, reports progress and honours cancellation", async () => {
  await using fake = new Fake("everything.ts");
  await fake.initialize();
  await fake.call(1, "add", { a: 2, b: 3 });
  assert.deepEqual((await fake.result()).structuredContent, { sum: 5 });
  await fake.call(2, "error");
  assert.deepEqual((await fake.next()).error, {
    code: -32001,
    message: "Tool exploded",
    data: { detail: "x" },
  });
  await fake.call(3, "slow", { steps: 2, delayMs: 1 }, { _meta: { progressToken: "t" } });
  for (const progress of [1, 2]) {
    const message = `step ${progress}`;
    assert.deepEqual(await fake.next(), {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "t", progress, total: 2, message },
    });
  }
  assert.equal(toolText(await fake.next()), "done after 2 steps");
  await fake.send(
    { id: 4, method: "tools/call", params: { name: "hang", arguments: {} } },
    { method: "notifications/cancelled", params: { requestId: 4, reason: "Timed out" } },
    { id: 5, method: "ping" },
  );
  assert.equal((await fake.next()).id, 5);
  assert.equal((await fake.finish()).code, 0);
  assert.match(fake.stderr, /cancelled 4 Timed out/);
});

Deno.test("everything.ts sends requests to the client and awaits the answers", async () => {
  await using fake = new Fake("everything.ts");
  await fake.initialize({ ...INITIALIZE_PARAMS, protocolVersion: "2025-06-18" });
  await fake.call(1, "sample", { prompt: "hi" });
  const sampling = await fake.next();
  assert.equal(sampling.id, "s1");
  assert.equal(sampling.method, "sampling/createMessage");
  const reply = { role: "assistant", content: { type: "text", text: "hello" }, model: "m" };
  await fake.send({ id: "s1", result: reply });
  assert.deepEqual(JSON.parse(toolText(await fake.next())), reply);
  // 2025-06-18 predates the elicitation `mode` field.
  await fake.call(2, "elicit");
  const elicitation = await fake.next();
  assert.equal(elicitation.id, "s2");
  assert.equal((elicitation.params as Json).mode, undefined);
  await fake.send({ id: "s2", error: { code: -1, message: "User said no" } });
  const refused = await fake.result();
  assert.equal(refused.isError, true);
  assert.equal(toolText({ result: refused }), "User said no");
});

const GREET_ARGS: Json = { name: "Ada", style: "formal" };
const STYLE_COMPLETION: Json = {
  ref: { type: "ref/prompt", name: "greet" },
  argument: { name: "style", value: "f" },
};

Deno.test("everything.ts serves resources, prompts and completions", async () => {
  await using fake = new Fake("everything.ts", [], { FAKE_PROTOCOL_VERSION: "2024-11-05" });
  assert.equal(((await fake.initialize()).result as Json).protocolVersion, "2024-11-05");
  await fake.send(
    { id: 1, method: "resources/read", params: { uri: "fake://notes/42" } },
    { id: 2, method: "resources/read", params: { uri: "fake://missing" } },
    { id: 3, method: "prompts/get", params: { name: "greet", arguments: GREET_ARGS } },
    { id: 4, method: "completion/complete", params: STYLE_COMPLETION },
  );
  assert.deepEqual(await fake.result(), {
    contents: [{ uri: "fake://notes/42", mimeType: "text/plain", text: "note 42" }],
  });
  assert.deepEqual((await fake.next()).error, {
    code: -32002,
    message: "Resource not found",
    data: { uri: "fake://missing" },
  });
  const prompt = (await fake.next()).result as { messages: { content: { text: string } }[] };
  assert.equal(prompt.messages[0]!.content.text, "Hello Ada, in a formal style");
  assert.deepEqual((await fake.result()).completion, {
    values: ["formal", "friendly", "funny"],
    total: 3,
    hasMore: false,
  });
});

Deno.test("fast.ts answers a batch of calls in order", async () => {
  await using fake = new Fake("fast.ts");
  const serverInfo = ((await fake.initialize()).result as Json).serverInfo;
  assert.deepEqual(serverInfo, { name: "fast", version: "1.0.0" });
  const calls = Array.from({ length: 100 }, (_, id) => ({
    id: id + 1,
    method: "tools/call",
    params: { name: "echo", arguments: { text: `t${id + 1}` } },
  }));
  await fake.send(...calls);
  for (const call of calls) {
    const response = await fake.next();
    assert.equal(response.id, call.id);
    assert.equal(toolText(response), `t${call.id}`);
  }
  assert.equal((await fake.finish()).code, 0);
});
