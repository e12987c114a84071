// Entry points by audience: each exports exactly the names pinned in
// testdata/entry_points.json (so nothing leaks by accident), and the client's entry point loads
// no module of the manager, server, registry, auth or CLI.

import assert from "node:assert/strict";

const ROOT = new URL("..", import.meta.url).pathname;
const ENTRIES: Record<string, string> = {
  ".": "mod.ts",
  "./manager": "src/manager/mod.ts",
  "./server": "src/server/mod.ts",
  "./auth": "src/auth/mod.ts",
  "./testing": "src/testing/testing.ts",
};

async function denoJson(args: string[]): Promise<unknown> {
  const output = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT, stderr: "inherit" })
    .output();
  assert.equal(output.code, 0, `deno ${args.join(" ")}`);
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

/** Every name an entry exports, types included, sorted. */
async function exported(file: string): Promise<string[]> {
  const doc = await denoJson(["doc", "--json", file]) as {
    nodes: Record<string, { symbols?: { name: string }[] }>;
  };
  const node = Object.values(doc.nodes)[0]!;
  return [...new Set((node.symbols ?? []).map((s) => s.name))].sort();
}

Deno.test("each entry point exports exactly its pinned names", async () => {
  const pinned = JSON.parse(
    await Deno.readTextFile(`${ROOT}testdata/entry_points.json`),
  ) as Record<string, string[]>;
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  for (const [entry, file] of Object.entries(ENTRIES)) {
    assert.equal(config.exports[entry], `./${file}`, `deno.json exports ${entry}`);
    const names = await exported(file);
    const added = names.filter((n) => !pinned[entry]!.includes(n));
    const removed = pinned[entry]!.filter((n) => !names.includes(n));
    assert.deepEqual({ entry, added, removed }, { entry, added: [], removed: [] });
  }
  assert.ok(pinned["."]!.length <= 125, `the root exports ${pinned["."]!.length} names`);
});

Deno.test("importing the client's entry point loads no manager, server, registry, auth or CLI module", async () => {
  const info = await denoJson(["info", "--json", "mod.ts"]) as { modules: { specifier: string }[] };
  const loaded = info.modules.map((m) => m.specifier);
  const foreign = loaded.filter((s) =>
    /\/src\/(manager|server|registry|auth|cli|config|record|surface|testing)[./]|\/src\/stats\.ts/
      .test(s)
  );
  assert.deepEqual(foreign, []);
  assert.ok(loaded.some((s) => s.endsWith("/src/client/client.ts")));
});
