// Interop with servers built on the official SDK v2 (`@modelcontextprotocol/server` 2.4.0): the
// same checks for every way of reaching it, modern-only and dual-era, over stdio and Streamable HTTP,
// in every era it offers. Every message the client sends is checked against the official schema.

import assert from "node:assert/strict";
import {
  type ElicitationRequest,
  HttpTransport,
  type LogMessage,
  type Progress,
  ValidationError,
} from "../../mod.ts";
import { rejectsWith } from "../_helpers.ts";
import { INSTRUCTIONS, methods, sentParams, SERVER_INFO, TARGETS, textOf, TOOLS } from "./_sdk.ts";

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
