// The official schemas shipped in src/spec/: every revision loads offline, unmodified, and a
// validator built from it checks messages.

import assert from "node:assert/strict";
import { loadSpecSchema, SPEC_REVISIONS, SpecValidator } from "../mod.ts";
import { SPEC_DIR } from "./_helpers.ts";

Deno.test("every revision's schema loads with no schemaDir while fetch throws", async () => {
  const realFetch = globalThis.fetch;
  globalThis.fetch = () => Promise.reject(new Error("no network in this test"));
  try {
    for (const revision of SPEC_REVISIONS) {
      const schema = await loadSpecSchema(revision);
      assert.match(String(schema.$schema), /json-schema\.org/, revision);
      const validator = await SpecValidator.load(revision);
      const error = { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Unknown" } } as const;
      assert.deepEqual(validator.checkServerMessage(error), [], revision);
      assert.notDeepEqual(
        validator.checkClientMessage({ jsonrpc: "2.0", id: 1, method: "tools/call", params: {} }),
        [],
      );
    }
  } finally {
    globalThis.fetch = realFetch;
  }
});

Deno.test("the shipped schemas are the official files, byte for byte", {
  ignore: SPEC_DIR === undefined,
}, async () => {
  for (const revision of SPEC_REVISIONS) {
    const shipped = await Deno.readTextFile(
      new URL(`../src/spec/${revision}.json`, import.meta.url),
    );
    const official = await Deno.readTextFile(`${SPEC_DIR}/${revision}/schema.json`);
    assert.equal(shipped, official, revision);
  }
});

Deno.test("a loaded schema is a copy: editing it does not change the next load", async () => {
  const first = await loadSpecSchema("2025-11-25");
  delete (first.$defs as Record<string, unknown>).CallToolResult;
  const second = await loadSpecSchema("2025-11-25");
  assert.ok("CallToolResult" in (second.$defs as Record<string, unknown>));
});

Deno.test("an unknown revision is refused by name", async () => {
  await assert.rejects(
    loadSpecSchema("1999-01-01"),
    /No official schema is known for protocol revision "1999-01-01"/,
  );
});

Deno.test("an issue at the message's root reads with one space, and a nested one names its path", async () => {
  const validator = await SpecValidator.load("2025-11-25");
  const root = validator.checkClientMessage({ jsonrpc: "2.0", id: 1, method: "tools/call" });
  assert.ok(
    root.includes("CallToolRequest: must have required property 'params'"),
    root.join("\n"),
  );
  const nested = validator.checkClientMessage({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: 5 },
  });
  assert.ok(nested.includes("CallToolRequest: /params/name must be string"), nested.join("\n"));
});
