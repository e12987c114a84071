// `deno task conformance`: the official conformance suite against tests/conformance/client.ts,
// in three legs, each with a baseline of what is not built yet. A regression, or a baseline
// entry that now passes, fails the run.

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
  const { code } = await new Deno.Command(Deno.execPath(), {
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
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) failed++;
  console.log(`=== ${leg.name}: ${code === 0 ? "as expected" : `FAILED (exit ${code})`}`);
}
console.log(`\nconformance: ${LEGS.length - failed} passed, ${failed} failed`);
Deno.exit(failed === 0 ? 0 : 1);
