// `deno task conformance`: the official conformance suite against tests/conformance/client.ts,
// in three legs, each with a baseline of what is not built yet. A regression, a baseline entry
// that now passes, or a scenario that ran zero checks fails the run.

const SUITE = "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12";
const here = new URL(".", import.meta.url).pathname;
const LEGS: { name: string; args: string[]; baseline: string }[] = [
  { name: "suite all", args: ["--suite", "all"], baseline: "expected-failures-all.yml" },
  {
    name: "requirements 2025-11-25",
    args: ["--requirements", "2025-11-25"],
    baseline: "expected-failures-2025-11-25.yml",
  },
  {
    name: "requirements 2026-07-28",
    args: ["--requirements", "2026-07-28"],
    baseline: "expected-failures-2026-07-28.yml",
  },
];

let failed = 0;
for (const leg of LEGS) {
  console.log(`\n=== conformance: ${leg.name}`);
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "--no-config",
      "--no-lock",
      "--quiet",
      SUITE,
      "client",
      "--command",
      `${Deno.execPath()} run --allow-all ${here}client.ts`,
      ...leg.args,
      "--expected-failures",
      `${here}${leg.baseline}`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const text = new TextDecoder().decode(stdout);
  console.log(text);
  // A scenario whose checks all went unrun "passes" with 0/0 (the client never did what it
  // tests): that is a gap, not a pass.
  const empty = [...text.matchAll(/^\S+ (\S+): 0 passed, 0 failed/gm)].map((m) => m[1]);
  const ran = [...text.matchAll(/^\S+ \S+: \d+ passed, \d+ failed/gm)].length;
  if (empty.length > 0) {
    console.log(`=== ${leg.name}: scenarios with zero checks: ${empty.join(", ")}`);
  }
  if (ran === 0) console.log(`=== ${leg.name}: no scenario summary found in the suite's output`);
  const ok = code === 0 && empty.length === 0 && ran > 0;
  if (!ok) failed++;
  console.log(
    `=== ${leg.name}: ${ok ? `as expected (${ran} scenarios)` : `FAILED (exit ${code})`}`,
  );
}
console.log(`\nconformance: ${LEGS.length - failed} passed, ${failed} failed`);
Deno.exit(failed === 0 ? 0 : 1);
