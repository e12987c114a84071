// `mcp-inspect skills` against the fake skills server, as a subprocess.

import assert from "node:assert/strict";
import { fixture } from "../_helpers.ts";
import { cli } from "../_cli_run.ts";

const SKILLS = ["--", Deno.execPath(), "run", "--allow-all", "--no-config", fixture("skills.ts")];

Deno.test("skills list and show read the listing, with --json", async () => {
  const list = await cli("skills", "list", ...SKILLS);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /pdf-processing\s+2\s+The pdf-processing skill/);
  const json = await cli("skills", "list", "--json", ...SKILLS);
  const listing = JSON.parse(json.stdout);
  assert.equal(listing.skills.length, 4);
  assert.equal(listing.ttlMs, 30_000);
  const show = await cli("skills", "show", "pdf-processing", ...SKILLS);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /uri: skill:\/\/pdf-processing\/SKILL\.md/);
  assert.match(
    show.stdout,
    /skill:\/\/pdf-processing\/references\/FORMS\.md {2}\d+ bytes {2}sha256:/,
  );
  const typo = await cli("skills", "show", "pdf-procesing", ...SKILLS);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /Unknown skill "pdf-procesing"; did you mean "pdf-processing"\?/);
});

Deno.test("skills load --out writes the verified files under <dir>/<name>, keeping their paths", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = await cli("skills", "load", "pdf-processing", "--out", dir, "--json", ...SKILLS);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(report.files.map((f: { path: string }) => f.path), [
      "SKILL.md",
      "references/FORMS.md",
    ]);
    const md = await Deno.readTextFile(`${dir}/pdf-processing/SKILL.md`);
    assert.match(md, /^---\nname: pdf-processing/);
    const forms = await Deno.readTextFile(`${dir}/pdf-processing/references/FORMS.md`);
    assert.match(forms, /^# Forms/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a skill that fails verification exits 1 with the reason and writes nothing", async () => {
  for (
    const [name, reason] of [
      ["tampered", /references\/FORMS\.md failed verification: its digest is sha256:/],
      ["wrong-size", /its size is \d+ bytes, the listing says \d+ bytes/],
      ["lying-frontmatter", /SKILL\.md failed verification: its frontmatter differs/],
    ] as const
  ) {
    const dir = await Deno.makeTempDir();
    try {
      const run = await cli("skills", "load", name, "--out", dir, ...SKILLS);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, reason);
      assert.deepEqual([...Deno.readDirSync(dir)], [], `${name}: nothing is written`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("skills against a server without the extension is a clear usage error", async () => {
  const run = await cli(
    "skills",
    "list",
    "--",
    Deno.execPath(),
    "run",
    "--allow-all",
    "--no-config",
    fixture("fast.ts"),
  );
  assert.equal(run.code, 2);
  assert.match(run.stderr, /does not declare the skills extension/);
});

Deno.test("check loads every skill: an honest server passes, each tampered skill is a problem", async () => {
  const honest = await cli("check", ...SKILLS, "--honest");
  assert.equal(honest.code, 0, honest.stdout + honest.stderr);
  assert.match(honest.stdout, /✓ skill pdf-processing: 2 file\(s\) verified/);
  const all = await cli("check", ...SKILLS);
  assert.equal(all.code, 1, all.stdout + all.stderr);
  assert.match(all.stdout, /✗ skill tampered: .*its digest is/);
  assert.match(all.stdout, /✗ skill wrong-size: .*its size is/);
  assert.match(all.stdout, /✗ skill lying-frontmatter: .*frontmatter differs/);
  assert.match(all.stdout, /3 problem\(s\)/);
});

Deno.test("check names a server that declares skills without resources once, instead of failing each skill", async () => {
  const run = await cli("check", ...SKILLS, "--honest", "--no-resources");
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(
    run.stdout,
    /✗ skills: the server declares the skills extension but not the resources capability/,
  );
  assert.doesNotMatch(run.stdout, /✗ skill pdf-processing/);
  assert.match(run.stdout, /1 problem\(s\)/);
});
