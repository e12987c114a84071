// The CLI's commands beyond tools, as a subprocess: resources, prompts, info, demo, complete,
// --protocol, and check against the spec's schema.

import assert from "node:assert/strict";
import { cli, MISBEHAVING, MODERN, SERVER } from "../_cli_run.ts";

Deno.test("resources and prompts commands print readable content", async () => {
  const read = await cli("resources", "read", "fake://notes/7", ...SERVER);
  assert.equal(read.code, 0, read.stderr);
  assert.equal(read.stdout.trim(), "note 7");
  const logo = await cli("resources", "read", "fake://images/logo", ...SERVER);
  assert.match(logo.stdout, /^\[image\/png fake:\/\/images\/logo, \d+ B\]$/m);
  const prompt = await cli("prompts", "get", "greet", "name=Ada", ...SERVER);
  assert.equal(prompt.stdout.trim(), "user: Hello Ada, in a neutral style");
  const info = await cli("info", "--json", ...SERVER);
  assert.equal(JSON.parse(info.stdout).protocolVersion, "2025-11-25");
});

Deno.test("demo lists and calls tools of the shipped server", async () => {
  const run = await cli("demo");
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /Which tools does it offer\?/);
  assert.match(run.stdout, /^echo\s+text\*: string/m);
  assert.match(run.stdout, /^hello$/m);
  const json = await cli("demo", "--json");
  assert.equal(JSON.parse(json.stdout)["tools call echo text=hello"].content[0].text, "hello");
});

Deno.test("complete suggests prompt arguments and template variables", async () => {
  const prompt = await cli("complete", "greet", "style", "f", ...SERVER);
  assert.equal(prompt.code, 0, prompt.stderr);
  assert.deepStrictEqual(prompt.stdout.trim().split("\n"), ["formal", "friendly", "funny"]);
  const template = await cli("complete", "fake://notes/{id}", "id", "4", "--json", ...SERVER);
  assert.deepStrictEqual(JSON.parse(template.stdout).completion.values, ["42"]);
});

Deno.test("--protocol pins the era, and info reports it", async () => {
  const legacy = await cli("info", "--json", "--protocol", "legacy", ...SERVER);
  assert.equal(JSON.parse(legacy.stdout).era, "legacy");
  const modern = await cli("info", "--json", ...MODERN);
  assert.equal(JSON.parse(modern.stdout).era, "modern");
  const bad = await cli("info", "--protocol", "newest", ...SERVER);
  assert.equal(bad.code, 2);
});

const SPEC = new URL("../../../shared/spec", import.meta.url).pathname;

Deno.test("check reports a healthy server and exits 0", async () => {
  const run = await cli("check", "--schema-dir", SPEC, "--call", "echo", ...SERVER);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(
    run.stdout,
    /✓ schema: (\d+) of \1 message\(s\) from the server are valid against the 2025-11-25 schema/,
  );
  assert.match(run.stdout, /^0 problem\(s\), 0 warning\(s\)$/m);
  const modern = await cli("check", "--schema-dir", SPEC, "--json", ...MODERN);
  const report = JSON.parse(modern.stdout);
  assert.equal(modern.code, 0, JSON.stringify(report.findings));
  assert.equal(report.era, "modern");
  assert.ok(report.latenciesMs["tools/list"] >= 0);
});

Deno.test("check flags bad tool names, schemas that do not compile, off-spec messages and names listed twice", async () => {
  const run = await cli("check", "--schema-dir", SPEC, "--json", ...MISBEHAVING("sloppy"));
  assert.equal(run.code, 1);
  const details = (JSON.parse(run.stdout).findings as { level: string; detail: string }[])
    .filter((f) => f.level !== "ok").map((f) => f.detail).join("\n");
  assert.match(details, /"bad name!" breaks the naming guidance/);
  assert.match(details, /inputSchema of "broken" does not compile/);
  assert.match(details, /response to tools\/list: .*inputSchema/);
  assert.match(details, /tool "echo" is listed 2 times/);
  assert.match(details, /prompt "greet" is listed 2 times/);
  assert.match(details, /resource "file:\/\/\/a\.txt" is listed 2 times/);
});
