// One-shot commands end promptly: the answer is printed, the server is closed by the shutdown
// ladder with the CLI's short grace, and nothing of the server's process group is left; and what
// needs no server loads no more than it needs.

import assert from "node:assert/strict";
import { groupAlive } from "../../src/transport/_process.ts";
import { cliCommand, MISBEHAVING, ROOT, runOf } from "../_cli_run.ts";

Deno.test("tools list --grace 100 prints, exits, and ends a server that ignores stdin EOF and SIGTERM", async () => {
  // The test's own bound: a CLI still running by then gets SIGTERM and the test fails, not hangs.
  const bound = AbortSignal.timeout(20_000);
  const args = ["tools", "list", "--grace", "100", "--verbose", ...MISBEHAVING("ignore-sigterm")];
  const run = runOf(await cliCommand(args, { signal: bound }).output());
  // The fake logs its pid on stderr, which --verbose passes on as "[server] pid N".
  const pid = Number(run.stderr.match(/\[server\] pid (\d+)/)?.[1]);
  try {
    assert.equal(bound.aborted, false, "the CLI did not exit on its own");
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^echo\s/m);
    assert.ok(Number.isInteger(pid), `no server pid in: ${run.stderr}`);
    assert.equal(groupAlive(pid), false, `the server's process group ${pid} outlived the CLI`);
  } finally {
    if (Number.isInteger(pid) && groupAlive(pid)) Deno.kill(-pid, "SIGKILL");
  }
});

Deno.test("a --grace that is not a number of milliseconds is a usage error", async () => {
  const run = runOf(
    await cliCommand(["tools", "list", "--grace", "soon", ...MISBEHAVING("silent")]).output(),
  );
  assert.equal(run.code, 2);
  assert.match(run.stderr, /Invalid --grace "soon": expected a number of milliseconds/);
});

Deno.test("--version and --help load no npm package: they run from an empty Deno cache, offline", async () => {
  const denoDir = await Deno.makeTempDir({ prefix: "mcp-inspect-deno-dir-" });
  try {
    for (const flag of ["--version", "--help"]) {
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", "--cached-only", `${ROOT}cli.ts`, flag],
        cwd: ROOT,
        env: { DENO_DIR: denoDir, NO_COLOR: "1" },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const run = runOf(output);
      assert.equal(run.code, 0, `${flag}: ${run.stderr}`);
      assert.match(run.stdout, /^mcp-inspect \d+\.\d+\.\d+/);
    }
  } finally {
    await Deno.remove(denoDir, { recursive: true });
  }
});
