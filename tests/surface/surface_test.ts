// Snapshots and diffs of a server's surface: a server diffed with itself is equal, and two
// versions of a fixture give each kind of change, classified.

import assert from "node:assert/strict";
import {
  diffSurfaces,
  parseSurface,
  type Surface,
  SURFACE_FORMAT,
} from "../../src/testing/testing.ts";
import { fixture } from "../_helpers.ts";
import { cli } from "../_cli_run.ts";

const server = (version: number) => [
  "--",
  Deno.execPath(),
  "run",
  "--allow-all",
  "--no-config",
  fixture("surface.ts"),
  String(version),
];

async function withSnapshot(version: number, run: (file: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/surface.json`;
    const made = await cli("snapshot", "--out", file, ...server(version));
    assert.equal(made.code, 0, made.stderr);
    await run(file);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("snapshot writes stable, sorted JSON: two snapshots of one server are identical", async () => {
  await withSnapshot(1, async (file) => {
    const again = await cli("snapshot", ...server(1));
    assert.equal(again.code, 0, again.stderr);
    assert.equal(`${again.stdout.trimEnd()}\n`, await Deno.readTextFile(file));
    const surface = parseSurface(JSON.parse(again.stdout));
    assert.equal(surface.format, SURFACE_FORMAT);
    assert.deepEqual(surface.tools.map((t) => t.name), ["purge", "search", "stats"]);
    assert.equal(surface.serverInfo.name, "fake-surface");
  });
});

Deno.test("a server diffed with its own snapshot, live or as a file, has no differences", async () => {
  await withSnapshot(1, async (file) => {
    const live = await cli("diff", file, ...server(1));
    assert.equal(live.code, 0, live.stderr);
    assert.equal(live.stdout.trim(), "No differences.");
    const files = await cli("diff", file, file, "--json");
    assert.equal(files.code, 0);
    assert.deepEqual(JSON.parse(files.stdout), {
      equal: true,
      breaking: 0,
      compatible: 0,
      changes: [],
    });
  });
});

Deno.test("diff finds each kind of change between two versions and classifies it", async () => {
  await withSnapshot(1, async (file) => {
    const run = await cli("diff", file, "--json", ...server(2));
    assert.equal(run.code, 1, run.stderr);
    const { changes } = JSON.parse(run.stdout) as { changes: Record<string, string>[] };
    const seen = changes.map((c) => `${c.severity} ${c.kind} ${c.name}: ${c.detail}`);
    for (
      const expected of [
        "breaking tool purge: tool removed",
        "compatible tool reindex: tool added",
        "breaking tool search: input.limit: type narrowed from integer|string to integer",
        'breaking tool search: input.order: enum lost "relevance"',
        "breaking tool search: input.index: required property added",
        "compatible tool search: input.highlight: optional property added",
        "compatible tool search: description changed",
        "breaking resource index://log: resource removed",
        'breaking prompt summarize: required argument "style" added',
      ]
    ) assert.ok(seen.includes(expected), `${expected}\nin:\n${seen.join("\n")}`);
    assert.equal(changes.length, 9, seen.join("\n"));
  });
});

Deno.test("--fail-on breaking exits 0 when every change is compatible, 1 otherwise", async () => {
  await withSnapshot(1, async (file) => {
    const compatible = await cli("diff", file, "--fail-on", "breaking", ...server(3));
    assert.equal(compatible.code, 0, compatible.stdout + compatible.stderr);
    assert.match(compatible.stdout, /0 breaking, 3 compatible change\(s\)/);
    const any = await cli("diff", file, ...server(3));
    assert.equal(any.code, 1);
    const breaking = await cli("diff", file, "--fail-on", "breaking", ...server(2));
    assert.equal(breaking.code, 1);
  });
});

Deno.test("diff refuses a file that is not a snapshot, naming it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/x.json`, '{"tools": []}');
    const run = await cli("diff", `${dir}/x.json`, `${dir}/x.json`);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /x\.json" is not an mcp-inspect surface snapshot/);
    const bad = await cli("diff", `${dir}/x.json`, `${dir}/x.json`, "--fail-on", "some");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid --fail-on "some"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

function surface(tool: Record<string, unknown>): Surface {
  return {
    format: SURFACE_FORMAT,
    serverInfo: { name: "s", version: "1" },
    protocolVersion: "2025-11-25",
    capabilities: { tools: {} },
    tools: [{ name: "t", inputSchema: { type: "object" }, ...tool }],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };
}

Deno.test("output schemas break callers when they widen: a property that may be missing, a new enum value", () => {
  const before = surface({
    outputSchema: {
      type: "object",
      properties: { n: { type: "integer" }, s: { type: "string", enum: ["a"] } },
      required: ["n"],
    },
  });
  const after = surface({
    outputSchema: {
      type: "object",
      properties: { n: { type: "integer" }, s: { type: "string", enum: ["a", "b"] }, x: {} },
    },
  });
  const seen = diffSurfaces(before, after).map((c) => `${c.severity} ${c.detail}`);
  assert.deepEqual(seen.sort(), [
    "breaking output.n: became optional",
    'breaking output.s: enum gained "b"',
    "compatible output.x: optional property added",
  ]);
});
