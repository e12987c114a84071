// A server taken from a config file keeps its allow and deny lists for skills too, as the manager
// applies them to skill names: `skills list` hides what they refuse, and `skills show` or
// `skills load` of a refused skill fails, naming the rule and the file, before any file is read.

import assert from "node:assert/strict";
import { escapeRegExp, fixture } from "../_helpers.ts";
import { cli } from "../_cli_run.ts";

/**
 * Allows pdf-processing and tampered; wrong-size matches the deny list, lying-frontmatter is in
 * no allow pattern.
 */
const LISTS = { allow: ["pdf-*", "tampered", "wrong-size"], deny: ["wrong-*"] };

/** A folder with a config of the skills fake under the lists. */
async function configured() {
  const dir = await Deno.makeTempDir({ prefix: "mcp-inspect-skills-policy-" });
  const file = `${dir}/.mcp.json`;
  const args = ["run", "--allow-all", "--no-config", fixture("skills.ts")];
  await Deno.writeTextFile(
    file,
    JSON.stringify({ mcpServers: { skilled: { command: Deno.execPath(), args, ...LISTS } } }),
  );
  return {
    dir,
    file,
    skilled: ["--config", file, "--server", "skilled"],
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** The CLI's error line for a refused skill, as a pattern (`file` is matched literally). */
function refusal(skill: string, why: string, file: string): RegExp {
  return new RegExp(
    `error: Skill "${escapeRegExp(skill)}" of server "skilled" is refused: ${why} of ${
      escapeRegExp(file)
    }\\n`,
  );
}

Deno.test("skills list hides what the config's lists refuse, and says how many once", async () => {
  await using config = await configured();
  const run = await cli("skills", "list", ...config.skilled);
  assert.equal(run.code, 0, run.stderr);
  const names = run.stdout.trim().split("\n").slice(1).map((line) => line.split(/\s+/)[0]);
  assert.deepEqual(names, ["pdf-processing", "tampered"]);
  const notes = run.stderr.match(/skill\(s\) hidden by the allow\/deny lists/g) ?? [];
  assert.equal(notes.length, 1, run.stderr);
  assert.ok(
    run.stderr.includes(
      `2 skill(s) hidden by the allow/deny lists of server "skilled" in ${config.file}`,
    ),
    run.stderr,
  );
  const json = await cli("skills", "list", "--json", ...config.skilled);
  assert.equal(json.code, 0, json.stderr);
  const listing = JSON.parse(json.stdout);
  assert.deepEqual(listing.skills.map((s: { uri: string }) => s.uri), [
    "skill://pdf-processing/SKILL.md",
    "skill://tampered/SKILL.md",
  ]);
  assert.equal(listing.ttlMs, 30_000, "the rest of the listing is kept");
});

Deno.test("skills show of a refused skill fails with exit 1, naming the skill, rule, pattern, server and file", async () => {
  await using config = await configured();
  const denied = await cli("skills", "show", "wrong-size", ...config.skilled);
  assert.equal(denied.code, 1, denied.stderr);
  assert.match(
    denied.stderr,
    refusal("wrong-size", `it matches the deny list \\("wrong-\\*"\\)`, config.file),
  );
  assert.equal(denied.stdout, "");
  // By URI too: the skill's name, not how it was asked for, is what the lists match.
  const byUri = await cli(
    "skills",
    "show",
    "skill://lying-frontmatter/SKILL.md",
    ...config.skilled,
  );
  assert.equal(byUri.code, 1, byUri.stderr);
  assert.match(
    byUri.stderr,
    refusal("lying-frontmatter", "it is not in the allow list", config.file),
  );
  // A misspelt name is not answered with a refused one.
  const typo = await cli("skills", "show", "wrong-sise", ...config.skilled);
  assert.equal(typo.code, 2, typo.stderr);
  assert.match(typo.stderr, /Unknown skill "wrong-sise"/);
  assert.doesNotMatch(typo.stderr, /did you mean "wrong-size"/);
  const allowed = await cli("skills", "show", "pdf-processing", ...config.skilled);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(allowed.stdout, /uri: skill:\/\/pdf-processing\/SKILL\.md/);
});

Deno.test("skills load of a refused skill reads no file and writes nothing; an allowed one loads", async () => {
  await using config = await configured();
  const out = `${config.dir}/out`;
  await Deno.mkdir(out);
  const denied = await cli(
    "skills",
    "load",
    "wrong-size",
    "--out",
    out,
    "--verbose",
    ...config.skilled,
  );
  assert.equal(denied.code, 1, denied.stderr);
  assert.match(
    denied.stderr,
    refusal("wrong-size", `it matches the deny list \\("wrong-\\*"\\)`, config.file),
  );
  assert.doesNotMatch(denied.stderr, /"method":"resources\/read"/, "a file was read");
  assert.deepEqual([...Deno.readDirSync(out)], [], "a file was written");
  const allowed = await cli("skills", "load", "pdf-processing", "--out", out, ...config.skilled);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(await Deno.readTextFile(`${out}/pdf-processing/SKILL.md`), /^---\nname: pdf/);
});
