// Interop over stdio with the real server-everything from npm: its requests to the client (sampling,
// form and URL elicitation, roots) answered by the client's handlers, every message schema-checked.

import assert from "node:assert/strict";
import {
  type CallToolResult,
  type ElicitationRequest,
  type ElicitationResult,
  ErrorCode,
  McpError,
  type SamplingRequest,
} from "../../mod.ts";
import { rejectsWith } from "../_helpers.ts";
import { everything, nextEvent, textOf } from "./_stdio.ts";

/** The JSON that server-everything appends to a tool's text after "Raw result: ". */
function rawResultOf(result: CallToolResult): Record<string, unknown> {
  const text = textOf(result);
  const marker = "Raw result: ";
  assert.ok(text.includes(marker), `no raw result in ${text}`);
  return JSON.parse(text.slice(text.indexOf(marker) + marker.length));
}

// ---------------------------------------------------------------------------------------------
// @modelcontextprotocol/server-everything

Deno.test("server-everything: onSampling answers its sampling request", async () => {
  const requests: SamplingRequest[] = [];
  await using fx = await everything({
    onSampling: (request) => {
      requests.push(request);
      return {
        role: "assistant",
        content: { type: "text", text: "Bonjour" },
        model: "interop-test-model",
        stopReason: "endTurn",
      };
    },
  });
  const tools = (await fx.client.listTools()).map((tool) => tool.name);
  assert.ok(tools.includes("trigger-sampling-request"));
  const result = await fx.client.callTool("trigger-sampling-request", {
    prompt: "Say hello in French",
    maxTokens: 17,
  });
  assert.equal(requests.length, 1);
  assert.equal(requests[0]?.maxTokens, 17);
  assert.equal(requests[0]?.systemPrompt, "You are a helpful test server.");
  const first = requests[0]?.messages[0]?.content;
  assert.match(Array.isArray(first) ? "" : first?.text ?? "", /Say hello in French/);
  const text = textOf(result);
  const sampled = JSON.parse(text.slice(text.indexOf("{")));
  assert.deepEqual(sampled, {
    role: "assistant",
    content: { type: "text", text: "Bonjour" },
    model: "interop-test-model",
    stopReason: "endTurn",
  });
});

Deno.test("server-everything: onElicitation answers a form, and the form's defaults fill the gaps", async () => {
  const requests: ElicitationRequest[] = [];
  let answer: ElicitationResult = { action: "accept", content: { name: "Ada", check: true } };
  await using fx = await everything({
    onElicitation: (request) => {
      requests.push(request);
      return answer;
    },
  });
  const accepted = await fx.client.callTool("trigger-elicitation-request");
  assert.equal(requests[0]?.mode ?? "form", "form");
  assert.deepEqual(requests[0]?.requestedSchema?.required, ["name"]);
  assert.match(textOf(accepted), /- Name: Ada/);
  assert.deepEqual(rawResultOf(accepted), {
    action: "accept",
    content: {
      name: "Ada",
      check: true,
      firstLine: "It was a dark and stormy night.",
      integer: 42,
      number: 3.14,
      untitledSingleSelectEnum: "Monica",
      untitledMultipleSelectEnum: ["Guitar"],
      titledSingleSelectEnum: "hero-1",
      titledMultipleSelectEnum: ["fish-1"],
      legacyTitledEnum: "pet-1",
    },
  });

  answer = { action: "decline" };
  const declined = await fx.client.callTool("trigger-elicitation-request");
  assert.match(textOf(declined), /User declined/);
  assert.deepEqual(rawResultOf(declined), { action: "decline" });
});

Deno.test("server-everything: URL elicitation works by request and by the -32042 error", async () => {
  const requests: ElicitationRequest[] = [];
  await using fx = await everything({
    elicitationModes: ["form", "url"],
    onElicitation: (request) => {
      requests.push(request);
      return { action: "accept" };
    },
  });
  const args = { url: "https://example.com/consent", elicitationId: "consent-1" };
  const result = await fx.client.callTool("trigger-url-elicitation", args);
  assert.match(textOf(result), /User completed the URL elicitation flow/);
  assert.equal(requests[0]?.mode, "url");
  assert.equal(requests[0]?.url, args.url);
  assert.equal(requests[0]?.elicitationId, "consent-1");

  // The error path: the call fails with the elicitations the user must complete first, and a
  // retry with the same arguments then proceeds by the request path.
  const error = await rejectsWith(
    fx.client.callTool("trigger-url-elicitation", { ...args, errorPath: true }),
    McpError,
  );
  assert.equal(error.code, ErrorCode.UrlElicitationRequired);
  const data = error.data as { elicitations?: { mode?: string; url?: string }[] };
  assert.equal(data.elicitations?.[0]?.mode, "url");
  assert.equal(data.elicitations?.[0]?.url, "https://modelcontextprotocol.io");
  const retried = await fx.client.callTool("trigger-url-elicitation", { ...args, errorPath: true });
  assert.match(textOf(retried), /User completed the URL elicitation flow/);
  assert.equal(requests.length, 2);
});

Deno.test("server-everything: it lists the client's roots and follows setRoots()", async () => {
  await using fx = await everything({ roots: [{ uri: "file:///srv/alpha", name: "alpha" }] });
  const first = await fx.client.callTool("get-roots-list");
  assert.match(textOf(first), /Current MCP Roots \(1 total\)/);
  assert.match(textOf(first), /1\. alpha\n\s+URI: file:\/\/\/srv\/alpha/);

  const updated = nextEvent(fx, "log", (log) => /Roots updated: 2 root/.test(String(log.data)));
  await fx.client.setRoots([
    { uri: "file:///srv/alpha", name: "alpha" },
    { uri: "file:///srv/beta", name: "beta" },
  ]);
  await updated;
  const second = await fx.client.callTool("get-roots-list");
  assert.match(textOf(second), /Current MCP Roots \(2 total\)/);
  assert.match(textOf(second), /2\. beta\n\s+URI: file:\/\/\/srv\/beta/);
});
