// The inspector shows every fault a server commits: check reports each as a problem, one-shot
// commands warn on stderr and carry them in --json, and --timeout bounds the whole command.

import assert from "node:assert/strict";
import { fixture } from "../_helpers.ts";
import { cli, cliCommand, runOf } from "../_cli_run.ts";

const faulty = (fault: string) => [
  "--",
  Deno.execPath(),
  "run",
  "--allow-all",
  "--no-config",
  fixture("faults.ts"),
  fault,
];

for (
  const [fault, kind] of [
    ["error-without-code", "invalid-message"],
    ["jsonrpc-1.0", "invalid-message"],
    ["result-not-object", "invalid-message"],
    ["null-id-error", "unattributed-error"],
    ["unknown-id", "unknown-response"],
    ["duplicate", "duplicate-response"],
    ["garbage", "non-json-line"],
  ] as const
) {
  Deno.test(`check reports a server that commits ${fault} as a problem, exit 1`, async () => {
    const run = await cli("check", "--timeout", "30000", ...faulty(fault));
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`✗ protocol \\(${kind}\\)`));
    assert.doesNotMatch(run.stdout, /^0 problem/m);
  });
}

Deno.test("check reports the faults of a modern-era server (2026-07-28) as problems too", async () => {
  const run = await cli("check", "--protocol", "modern", ...faulty("duplicate"), "--modern");
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /✗ protocol \(duplicate-response\).*tools\/list\) a second time/);
});

Deno.test("a one-shot command warns of the server's faults in one line, and --json carries them", async () => {
  // A stray answer sent before the real one (a fault after the answer may come too late for a
  // one-shot command, which exits as soon as it has its answer).
  const plain = await cli("tools", "list", ...faulty("unknown-id"));
  assert.equal(plain.code, 0, plain.stderr);
  const warnings = plain.stderr.split("\n").filter((l) => l.startsWith("warning:"));
  assert.equal(warnings.length, 1, plain.stderr);
  assert.match(warnings[0]!, /broke the protocol: The server answered request id 9999/);
  const json = await cli("tools", "list", "--json", ...faulty("garbage"));
  const document = JSON.parse(json.stdout);
  assert.deepEqual(document.tools.map((t: { name: string }) => t.name), ["echo"]);
  assert.equal(document.diagnostics[0].kind, "non-json-line");
  assert.match(document.diagnostics[0].data, /Server starting/);
  const verbose = await cli("tools", "list", "--verbose", ...faulty("garbage"));
  assert.match(verbose.stderr, /\[diagnostic\] non-json-line: .*Server starting/);
});

Deno.test("a malformed answer fails the command at once, not at its timeout", async () => {
  const run = await cli("tools", "list", "--timeout", "600000", ...faulty("result-not-object"));
  assert.equal(run.code, 3, run.stderr);
  assert.match(
    run.stderr,
    /answer to tools\/list \(id \d+\) is invalid: .*"result" must be an object/,
  );
});

Deno.test("--timeout bounds the whole command, the era probe and the handshake included", async () => {
  const mute = ["--", Deno.execPath(), "run", "--allow-all", "--no-config", fixture("mute.ts")];
  const signal = AbortSignal.timeout(60_000); // a regression fails instead of hanging
  const run = runOf(
    await cliCommand(["tools", "list", "--timeout", "1500", ...mute], { signal }).output(),
  );
  assert.equal(run.code, 4, run.stderr);
  assert.match(run.stderr, /The command timed out after 1500 ms \(--timeout\)/);
});

Deno.test("a fault before the handshake is shown even when the command then times out", async () => {
  // Bounded, so that a regression fails instead of hanging; --timeout must end it long before.
  const signal = AbortSignal.timeout(60_000);
  const args = ["tools", "list", "--timeout", "1000", ...faulty("garbage-then-silence")];
  const run = runOf(await cliCommand(args, { signal }).output());
  assert.equal(run.code, 4, run.stderr);
  const lines = run.stderr.trim().split("\n");
  assert.match(lines.at(-2) ?? "", /^warning: the server broke the protocol: .*not JSON/);
  assert.match(lines.at(-1) ?? "", /^error: The command timed out after 1000 ms \(--timeout\)/);
});
