// key=value arguments are typed by the tool's input schema; a value that fits none of the
// property's types is a usage error naming the argument and its type, never sent as another.

import assert from "node:assert/strict";
import { typedArguments, UsageError } from "../../src/cli/args.ts";
import { cli, SERVER } from "../_cli_run.ts";

const SCHEMA = {
  type: "object",
  properties: {
    n: { type: "number" },
    i: { type: "integer" },
    flag: { type: "boolean" },
    name: { type: "string" },
    maybe: { type: ["integer", "null"] },
    either: { anyOf: [{ type: "boolean" }, { type: "array" }] },
    config: { type: "object" },
    list: { type: "array" },
  },
};

function refused(pair: string, pattern: RegExp): void {
  assert.throws(() => typedArguments([pair], SCHEMA), (error: unknown) => {
    assert.ok(error instanceof UsageError, String(error));
    assert.match(error.message, pattern);
    return true;
  }, pair);
}

Deno.test("numbers that overflow, hex, and non-decimal forms are refused, naming the type", () => {
  refused("n=1e400", /Argument "n" must be a number, got "1e400": it is too large/);
  refused("n=-1e400", /too large/);
  refused("n=Infinity", /must be a number.*a decimal number/);
  refused("n=NaN", /must be a number/);
  refused("n=", /must be a number/);
  refused("n= 1", /must be a number/);
  refused("i=0x10", /Argument "i" must be an integer, got "0x10": expected a whole number/);
  refused("i=1_000", /must be an integer/);
  refused("i=1.5", /it is not a whole number/);
  refused("i=9007199254740993", /beyond ±2\^53/);
});

Deno.test("a boolean is true or false, nothing else", () => {
  refused("flag=yes", /Argument "flag" must be a boolean, got "yes": expected true or false/);
  refused("flag=1", /must be a boolean/);
  refused("flag=TRUE", /must be a boolean/);
  assert.deepEqual(typedArguments(["flag=true", "name=false"], SCHEMA), {
    flag: true,
    name: "false",
  });
});

Deno.test("union types accept each of their members and refuse the rest", () => {
  assert.deepEqual(typedArguments(["maybe=null"], SCHEMA), { maybe: null });
  assert.deepEqual(typedArguments(["maybe=7"], SCHEMA), { maybe: 7 });
  refused("maybe=x", /must be an integer or null/);
  assert.deepEqual(typedArguments(["either=[1]", "n=-2.5e3"], SCHEMA), { either: [1], n: -2500 });
  refused("either={}", /it is JSON of type object/);
});

Deno.test("objects and arrays must be valid JSON of that kind", () => {
  assert.deepEqual(typedArguments(['config={"a":1}', "list=[]"], SCHEMA), {
    config: { a: 1 },
    list: [],
  });
  refused("config={a:1}", /must be an object, got "\{a:1\}": it is not valid JSON/);
  refused("list={}", /it is JSON of type object/);
  refused("config=x", /expected JSON object/);
});

Deno.test("strings and properties without a schema keep their text", () => {
  assert.deepEqual(typedArguments(["name=007", "other=1e400", 'o={"k":1}'], SCHEMA), {
    name: "007",
    other: "1e400",
    o: { k: 1 },
  });
});

Deno.test("the CLI exits 2 for a mistyped argument, before calling the tool", async () => {
  const run = await cli("tools", "call", "add", "a=1e400", "b=2", ...SERVER);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /Argument "a" must be a number, got "1e400"/);
  assert.equal(run.stdout, "");
});
