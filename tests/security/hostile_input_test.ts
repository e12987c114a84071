// Hostile sizes in config files and --args: a file nested 200 000 levels deep is a clear error
// naming the file and the place, never a RangeError from a parser's recursion.

import assert from "node:assert/strict";
import { ConfigError, loadConfig, parseConfig } from "../../src/manager/mod.ts";
import { cli, SERVER } from "../_cli_run.ts";
import { fixture } from "../_helpers.ts";

const DEPTH = 200_000;

function deepJson(): string {
  return `{"mcpServers":{"a":{"command":"x","env":${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}}}}`;
}

function deepYaml(): string {
  return `mcp:\n  servers:\n    - name: a\n      command: x\n      args: ${"[".repeat(DEPTH)}${
    "]".repeat(DEPTH)
  }\n`;
}

/** YAML nesting without a bracket: compact sequences (`- - - x`) or ever deeper indentation. */
function deepBlockYaml(kind: "compact" | "indented"): string {
  const head = "mcp:\n  servers:\n    - id: a\n      command: x\n      env:\n";
  if (kind === "compact") return `${head}        A:\n          ${"- ".repeat(DEPTH)}x\n`;
  // 2 000 levels of indentation: enough to overflow yaml's composer, still a small file (2 MB).
  const lines = Array.from({ length: 2000 }, (_, i) => `${" ".repeat(8 + i)}k${i}:`);
  return `${head}${lines.join("\n")} 1\n`;
}

async function withFile(name: string, text: string, run: (file: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    await run(`${dir}/${name}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a JSON config nested 200 000 levels deep is a ConfigError naming file and place", () => {
  assert.throws(() => parseConfig(deepJson(), { file: "deep.json", env: {} }), (error) => {
    assert.ok(error instanceof ConfigError, String(error));
    assert.match(error.message, /"deep\.json" at line 1, column \d+: nested more than 256 levels/);
    return true;
  });
});

Deno.test("a YAML config nested 200 000 levels deep is a ConfigError naming file and place", async () => {
  await withFile("deep.yaml", deepYaml(), async (file) => {
    await assert.rejects(loadConfig(file), (error) => {
      assert.ok(error instanceof ConfigError, String(error));
      assert.match(error.message, /deep\.yaml" at line 5, column \d+: nested more than 256 levels/);
      return true;
    });
  });
});

Deno.test("YAML nested deeply without brackets is a ConfigError naming file and place", async () => {
  for (const [kind, line] of [["compact", 7], ["indented", 258]] as const) {
    await withFile("deep.yaml", deepBlockYaml(kind), async (file) => {
      await assert.rejects(loadConfig(file), (error) => {
        assert.ok(error instanceof ConfigError, String(error));
        assert.match(
          error.message,
          new RegExp(`deep\\.yaml" at line ${line}, column \\d+: nested more than 256 levels`),
        );
        return true;
      }, kind);
    });
  }
});

Deno.test("brackets inside strings and comments do not count as nesting", async () => {
  const brackets = "[".repeat(1000);
  const text = `{
    // ${brackets}
    /* ${"{".repeat(1000)} */
    "mcpServers": { "a": { "command": "x", "args": ["${brackets}", "\\"${brackets}"] } }
  }`;
  const { servers } = parseConfig(text, { file: "ok.jsonc", env: {} });
  assert.equal((servers.a as { args: string[] }).args[0], brackets);
  const yaml = `# ${brackets}\nmcp:\n  servers:\n    - id: a\n      command: x\n      args:\n` +
    `        - '${brackets}'\n        - "${brackets}"\n        - |\n          ${
      "- ".repeat(1000)
    }\n`;
  await withFile("ok.yaml", yaml, async (file) => {
    const loaded = await loadConfig(file);
    assert.deepEqual((loaded.servers.a as { args: string[] }).args.slice(0, 2), [
      brackets,
      brackets,
    ]);
  });
});

Deno.test("the CLI reports a deeply nested config in one line with exit 2", async () => {
  for (
    const [name, text] of [
      ["deep.json", deepJson()],
      ["deep.yaml", deepYaml()],
      ["deep-block.yaml", deepBlockYaml("compact")],
    ]
  ) {
    await withFile(name!, text!, async (file) => {
      const run = await cli("tools", "list", "--config", file, "--server", "a");
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /nested more than 256 levels deep/);
      assert.doesNotMatch(run.stderr, /RangeError|\n\s+at /);
    });
  }
});

// JSON.parse and JSON.stringify do not recurse in V8, and nothing between them walks the value, so
// deep --args are the server's to judge: sent exactly as written, never a RangeError of ours.
Deno.test("--args nested 200 000 levels deep is sent as written, from a file or inline", async () => {
  const deep = (depth: number) => `{"text":"hi","deep":${"[".repeat(depth)}${"]".repeat(depth)}}`;
  await withFile("args.json", deep(DEPTH), async (file) => {
    const record = `${file}.jsonl`;
    // Linux caps one command-line argument at 128 KiB: inline, 60 000 levels is as deep as it gets.
    for (const [args, depth] of [[`@${file}`, DEPTH], [deep(60_000), 60_000]] as const) {
      await Deno.remove(record).catch(() => {});
      const run = await cli("tools", "call", "echo", "--args", args, "--record", record, ...SERVER);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout.trim(), "hi");
      const sent = (await Deno.readTextFile(record)).split("\n").find((l) =>
        l.includes("tools/call")
      );
      assert.ok(sent?.includes(`"deep":${"[".repeat(depth)}]`), `depth ${depth} not sent whole`);
    }
  });
});

Deno.test("a result nested 200 000 levels deep prints with --json, on one line", async () => {
  const server = [
    "--",
    Deno.execPath(),
    "run",
    "--allow-all",
    "--no-config",
    fixture("deep_result.ts"),
  ];
  const run = await cli("tools", "call", "deep", "--json", ...server);
  assert.equal(run.code, 0, run.stderr);
  const printed = JSON.parse(run.stdout) as { structuredContent: { deep: unknown[] } };
  let depth = 0;
  for (
    let level: unknown = printed.structuredContent.deep;
    Array.isArray(level);
    level = level[0]
  ) {
    depth++;
  }
  assert.equal(depth, DEPTH);
});
