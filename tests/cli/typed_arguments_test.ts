// key=value arguments are typed by the tool's input schema; a value that fits none of the
// property's types is a usage error naming the argument and its type, never sent as another.

import assert from "node:assert/strict";
import { UsageError } from "../../src/cli/args.ts";
import {
  promptArguments,
  typedArguments,
  undeclaredArguments,
} from "../../src/cli/typed_arguments.ts";
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
  refused("n=1e-400", /Argument "n" must be a number, got "1e-400": it is too small .*sent as 0/);
  assert.deepEqual(typedArguments(["n=0e5", "i=-0", "maybe=1e3"], SCHEMA), {
    n: 0,
    i: -0,
    maybe: 1000,
  });
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

Deno.test("enum, const, allOf and $ref to the schema's own definitions say the type", () => {
  const schema = {
    type: "object",
    properties: {
      level: { enum: [1, 2, 3] },
      mode: { const: true },
      color: { $ref: "#/$defs/Color" },
      size: { allOf: [{ $ref: "#/$defs/Size" }, { type: "integer" }] },
      maybe: { anyOf: [{ $ref: "#/$defs/Size" }, { type: "null" }] },
      loop: { $ref: "#/properties/loop" },
    },
    $defs: { Color: { type: "string", enum: ["red"] }, Size: { type: "number" } },
  };
  assert.deepEqual(
    typedArguments(["level=2", "mode=true", "color=007", "size=3", "maybe=null", "loop=x"], schema),
    { level: 2, mode: true, color: "007", size: 3, maybe: null, loop: "x" },
  );
  for (
    const [pair, pattern] of [
      ["level=one", /Argument "level" must be an integer/],
      ["level=1.5", /it is not a whole number/],
      ["mode=yes", /Argument "mode" must be a boolean/],
      ["size=2.5", /Argument "size" must be an integer/],
      ["maybe=x", /Argument "maybe" must be a number or null/],
    ] as const
  ) {
    assert.throws(() => typedArguments([pair], schema), pattern, pair);
  }
});

Deno.test("a key given twice is refused, and __proto__ stays an argument", () => {
  for (const list of [typedArguments, promptArguments]) {
    assert.throws(() => list(["name=a", "name=b"], SCHEMA), /Argument "name" is given twice/);
  }
  const args = typedArguments(['__proto__={"polluted":1}', "constructor=x"], SCHEMA);
  assert.equal(JSON.stringify(args), '{"__proto__":{"polluted":1},"constructor":"x"}');
  assert.equal(Object.getPrototypeOf(args), Object.prototype);
});

Deno.test("prompt arguments are strings, sent exactly as written", () => {
  assert.deepEqual(promptArguments(['json={"a": 1}', "n=007", "empty="]), {
    json: '{"a": 1}',
    n: "007",
    empty: "",
  });
  assert.throws(
    () => promptArguments(["novalue"]),
    /Invalid argument "novalue": expected key=value/,
  );
});

Deno.test("an argument the schema forbids is refused with the closest declared name", async () => {
  const tool = (additionalProperties?: boolean) => ({
    name: "echo",
    inputSchema: {
      type: "object" as const,
      properties: { message: { type: "string" } },
      ...(additionalProperties === undefined ? {} : { additionalProperties }),
    },
  });
  await assert.rejects(
    undeclaredArguments(tool(false), { mesage: "hi" }),
    /Tool "echo" has no argument "mesage"; did you mean "message"\?/,
  );
  await assert.rejects(
    undeclaredArguments(tool(false), { text: "hi" }),
    /Tool "echo" has no argument "text" \(its arguments: message\)/,
  );
  assert.deepEqual(await undeclaredArguments(tool(), { mesage: "hi", unrelated: 1 }), [
    'tool "echo" declares no argument "mesage"; did you mean "message"? (sent as given)',
  ]);
  assert.deepEqual(await undeclaredArguments(tool(false), { message: "hi" }), []);
});

Deno.test("a prompt argument it does not declare gets a warning when it is a likely typo", async () => {
  const prompt = { name: "greet", arguments: [{ name: "name" }, { name: "style" }] };
  assert.deepEqual(await undeclaredArguments(prompt, { nmae: "Ada", style: "x", other: "y" }), [
    'prompt "greet" declares no argument "nmae"; did you mean "name"? (sent as given)',
  ]);
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

Deno.test("the CLI warns of a likely misspelt argument and sends it as given", async () => {
  const run = await cli("tools", "call", "echo", "text=hi", "txt=2", ...SERVER);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /warning: tool "echo" declares no argument "txt"; did you mean "text"\?/,
  );
  assert.equal(run.stdout.trim(), "hi");
});

Deno.test("the CLI sends prompt arguments as written, JSON-looking text too", async () => {
  const run = await cli("prompts", "get", "greet", 'name={"a":  1}', "stlye=x", ...SERVER);
  assert.match(
    run.stderr,
    /warning: prompt "greet" declares no argument "stlye"; did you mean "style"\?/,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.ok(run.stdout.includes(`Hello {"a":  1}`), run.stdout);
});
