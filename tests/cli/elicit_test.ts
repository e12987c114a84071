import assert from "node:assert/strict";
import { elicitationHandler } from "../../src/cli/elicit.ts";
import type { Output } from "../../src/cli/command.ts";

function output() {
  const lines: string[] = [];
  const plain = {
    bold: (t: string) => t,
    dim: (t: string) => t,
    red: (t: string) => t,
    green: (t: string) => t,
  };
  const out: Output = {
    stdout: (t) => lines.push(t),
    stderr: (t) => lines.push(t),
    style: plain,
    errStyle: plain,
  };
  return { out, lines };
}

const FORM = {
  message: "Who are you?",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", default: "Ada" },
      age: { type: "integer" },
      role: { type: "string", enum: ["admin", "user"] },
      ok: { type: "boolean" },
    },
    required: ["age"],
  },
};

Deno.test("on a terminal the form is asked field by field, typed by the schema", async () => {
  const { out, lines } = output();
  const answers = ["", "", "thirty", "30", "root", "user", "yes"];
  const questions: string[] = [];
  const handler = elicitationHandler("ask", out, (question) => {
    questions.push(question);
    return answers.shift() ?? null;
  }, () => true);
  const result = await handler(FORM, { signal: new AbortController().signal });
  assert.deepStrictEqual(result, {
    action: "accept",
    content: { age: 30, role: "user", ok: true },
  });
  assert.equal(questions[0], 'name (string, default "Ada"):');
  assert.ok(lines.includes("  age is required"));
  assert.ok(lines.includes("  expected integer"));
  assert.ok(lines.includes("  expected one of admin, user"));
});

Deno.test("end of input cancels the form, and the policies answer without asking", async () => {
  const { out } = output();
  const signal = new AbortController().signal;
  const cancelled = await elicitationHandler("ask", out, () => null, () => true)(FORM, { signal });
  assert.deepStrictEqual(cancelled, { action: "cancel" });
  assert.deepStrictEqual(await elicitationHandler("decline", out)(FORM, { signal }), {
    action: "decline",
  });
  assert.deepStrictEqual(await elicitationHandler("accept-defaults", out)(FORM, { signal }), {
    action: "accept",
    content: {},
  });
});
