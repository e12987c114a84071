// `check` validates against the official schemas shipped in the package: no network, no
// --schema-dir.

import assert from "node:assert/strict";
import { MODERN, ROOT, runOf, SERVER } from "../_cli_run.ts";

/** The CLI with the network denied, so any fetch it tried would throw. */
async function offlineCli(...args: string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--deny-net", `${ROOT}cli.ts`, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return runOf(output);
}

Deno.test("check validates every server message with no --schema-dir and no network", async () => {
  const legacy = await offlineCli("check", ...SERVER);
  assert.equal(legacy.code, 0, legacy.stdout + legacy.stderr);
  assert.match(
    legacy.stdout,
    /✓ schema: (\d+) of \1 message\(s\) from the server are valid against the 2025-11-25 schema/,
  );
  assert.match(legacy.stdout, /^0 problem\(s\), 0 warning\(s\)$/m);
  const modern = await offlineCli("check", "--json", ...MODERN);
  const schema = (JSON.parse(modern.stdout).findings as { check: string; detail: string }[])
    .filter((f) => f.check === "schema");
  assert.match(schema.map((f) => f.detail).join("\n"), /valid against the 2026-07-28 schema/);
});

Deno.test("check with a --schema-dir that holds no schema is a usage error naming the flag and file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = await offlineCli("check", "--schema-dir", dir, ...SERVER);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      new RegExp(
        `^error: Cannot use --schema-dir "${dir}": Cannot read the schema of revision 2025-11-25 from ${dir}/2025-11-25/schema\\.json`,
      ),
    );
    assert.equal(run.stdout, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
