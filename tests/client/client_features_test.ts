// What the client offers the server: the capabilities its handlers justify, sampling, elicitation
// (form and URL), roots, and answering the server's ping.

import assert from "node:assert/strict";
import { CapabilityError, type ElicitationRequest } from "../../mod.ts";
import { connectFake, rejectsWith } from "../_helpers.ts";
import { textOf } from "./_fixtures.ts";

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

Deno.test("setRoots() on a client that declared no roots says the client lacks them, not the server", async () => {
  await using fx = await connectFake("everything.ts");
  const sent = fx.transport.sent.length;
  const error = await rejectsWith(fx.client.setRoots([{ uri: "file:///two" }]), CapabilityError);
  assert.equal(error.side, "client");
  assert.equal(
    error.message,
    'Cannot send notifications/roots/list_changed: this client did not declare the "roots" capability when it connected',
  );
  assert.equal(fx.transport.sent.length, sent); // nothing was sent
});
