import assert from "node:assert/strict";
import { Client, type Progress, StdioTransport } from "../../mod.ts";
import { fakeServer } from "../_helpers.ts";

const CLI = new URL("../../cli.ts", import.meta.url).pathname;
const TOOLS = new URL("../../testdata/tools/", import.meta.url).pathname;

function textOf(result: { content: unknown }): string {
  return ((result.content as { text: string }[])[0]!).text;
}

async function withYamlConfig(run: (file: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/mcp.yaml`;
  const { command, args } = fakeServer("fast.ts");
  await Deno.writeTextFile(
    file,
    `mcp:\n  servers:\n    - id: fast\n      command: ${JSON.stringify(command)}\n      args: ${
      JSON.stringify(args)
    }\n`,
  );
  try {
    await run(file);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A client of `mcp-inspect proxy <args>` over stdio; its stderr lines are collected. */
async function proxy(
  args: string[],
  stderr: string[] = [],
): Promise<Client> {
  return await Client.connect(
    new StdioTransport({
      command: Deno.execPath(),
      args: ["run", "--allow-all", CLI, "proxy", ...args],
      name: "proxy",
      stderr: (line) => stderr.push(line),
    }),
  );
}

Deno.test("mcp-inspect proxy --tools serves local tools beside a YAML config's servers", async () => {
  await withYamlConfig(async (file) => {
    const stderr: string[] = [];
    await using client = await proxy(
      ["--config", file, "--tools", `${TOOLS}greetings.ts`, "--tools", `${TOOLS}as_array.ts`],
      stderr,
    );
    const tools = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), [
      "greet",
      "count",
      "shout",
      "mcp__fast__echo",
    ]);
    assert.deepEqual(tools[0]!.annotations, { readOnlyHint: true, title: "Greet" });
    assert.equal(textOf(await client.callTool("greet", { name: "Ada" })), "Hello, Ada!");
    assert.equal(textOf(await client.callTool("shout", { text: "hey" })), "HEY");
    assert.equal(textOf(await client.callTool("mcp__fast__echo", { text: "x" })), "x");

    const updates: Progress[] = [];
    const counted = await client.callTool("count", { n: 3 }, {
      onProgress: (update) => updates.push(update),
    });
    assert.equal(textOf(counted), "counted to 3");
    assert.deepEqual(updates.map((update) => update.progress), [1, 2, 3]);

    // Invalid arguments are a tool execution error the model can read.
    const invalid = await client.callTool("greet", { name: 7 });
    assert.equal(invalid.isError, true);
    assert.match(textOf(invalid), /^Invalid arguments for tool "greet": \/name must be string/);
    assert.ok(
      stderr.some((line) =>
        /loaded 2 local tool\(s\) from .*greetings\.ts: greet, count/.test(line)
      ),
    );
  });
});

Deno.test("mcp-inspect proxy --tools alone serves only local tools", async () => {
  await using client = await proxy(["--tools", `${TOOLS}greetings.ts`]);
  assert.deepEqual((await client.listTools()).map((tool) => tool.name), ["greet", "count"]);
  assert.equal(client.serverCapabilities.resources, undefined);
  assert.equal(client.serverCapabilities.prompts, undefined);
});

Deno.test("mcp-inspect proxy --stats prints call statistics to stderr periodically", async () => {
  await withYamlConfig(async (file) => {
    const stderr: string[] = [];
    await using client = await proxy(
      ["--config", file, "--tools", `${TOOLS}greetings.ts`, "--stats", "0.1"],
      stderr,
    );
    await client.callTool("mcp__fast__echo", { text: "a" });
    await client.callTool("mcp__fast__echo", { text: "b" });
    await client.callTool("greet", { name: "Ada" });
    const wanted = [
      /^\[stats\] server fast \(ready, up \d+s, 0 reconnects\): 2 calls, 0 errors, 0 timeouts, p50 [\d.]+ ms, p95 [\d.]+ ms, p99 [\d.]+ ms \(2 in window\)$/,
      /^\[stats\] {3}mcp__fast__echo: 2 calls, 0 errors/,
      /^\[stats\] local greet: 1 calls, 0 errors/,
    ];
    for (let i = 0; i < 100; i++) {
      if (wanted.every((pattern) => stderr.some((line) => pattern.test(line)))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const pattern of wanted) {
      assert.ok(stderr.some((line) => pattern.test(line)), `${pattern}\n${stderr.join("\n")}`);
    }
  });
});

Deno.test("mcp-inspect proxy refuses a bad --stats, a module without tools, and no source", async () => {
  const run = async (...args: string[]) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", CLI, "proxy", ...args],
      stdin: "null",
    }).output();
    return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
  };
  const none = await run();
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^error: Missing --config <file> or --tools <module>/);
  const stats = await run("--tools", `${TOOLS}greetings.ts`, "--stats", "soon");
  assert.equal(stats.code, 2);
  assert.match(stats.stderr, /^error: Invalid --stats "soon"/);
  const empty = await run("--tools", `${TOOLS}no_tools.ts`);
  assert.equal(empty.code, 2);
  assert.match(
    empty.stderr,
    /^error: Cannot load tools from ".*no_tools\.ts": export a default function/,
  );
  const missing = await run("--tools", `${TOOLS}missing.ts`);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^error: Cannot load tools from ".*missing\.ts": /);
});
