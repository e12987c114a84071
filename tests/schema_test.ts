import assert from "node:assert/strict";
import { SchemaValidator } from "../mod.ts";

const INVALID = { type: "object", properties: { a: { type: "string", minLength: "2" } } };
const MESSAGE =
  "Invalid JSON Schema: schema is invalid: data/properties/a/minLength must be integer";

Deno.test("compile() needs the engine, which importing the client does not load", async () => {
  // Run first in this file: until ready(), compile() says what to do instead of loading Ajv.
  if (!SchemaValidator.isReady) {
    assert.throws(
      () => new SchemaValidator().compile({ type: "string" }),
      /SchemaValidator\.ready\(\)/,
    );
  }
  await SchemaValidator.ready();
  assert.ok(SchemaValidator.isReady);
  assert.deepEqual(new SchemaValidator().compile({ type: "string" })(1), ["(root) must be string"]);
});

Deno.test("compile() refuses an invalid schema with the same reason every time it is asked", async () => {
  await SchemaValidator.ready();
  const validator = new SchemaValidator();
  assert.throws(() => validator.compile(INVALID), { message: MESSAGE });
  assert.throws(() => validator.compile(INVALID), { message: MESSAGE });
});

Deno.test("every validator checks schemas against the meta-schema of their draft", async () => {
  await SchemaValidator.ready();
  for (let i = 0; i < 2; i++) {
    const validator = new SchemaValidator();
    assert.throws(() => validator.compile(structuredClone(INVALID)), { message: MESSAGE });
    // draft-07 has no prefixItems: ignored there, so the second item may be anything.
    const draft07 = validator.compile({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "array",
      prefixItems: [{ type: "number" }],
    });
    assert.deepEqual(draft07(["x"]), []);
    const modern = validator.compile({ type: "array", prefixItems: [{ type: "number" }] });
    assert.deepEqual(modern(["x"]), ["/0 must be number"]);
  }
});
