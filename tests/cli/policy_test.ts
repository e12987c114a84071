// A server taken from a config file keeps its allow and deny lists on the command line, as it
// does in the manager, the proxy and the web page: `tools list` hides what they refuse, and a
// refused call fails before the server is even started. The server is the everything fake behind
// a script that leaves a mark when it starts, so "never contacted" is seen, not assumed.

import assert from "node:assert/strict";
import { escapeRegExp, fixture } from "../_helpers.ts";
import { cli, cliWithInput, SERVER } from "../_cli_run.ts";

const EVERYTHING = ["run", "--allow-all", "--no-config", fixture("everything.ts")];

/** Allows echo, error and add (elicit* and env are denied; whoami and the rest not allowed). */
const LISTS = { allow: ["e*", "add"], deny: ["elicit*", "env"] };

/** A folder with a config of the fake under lists, one disabled entry, and the start mark. */
async function configured() {
  const dir = await Deno.makeTempDir({ prefix: "mcp-inspect-policy-" });
  const quoted = [Deno.execPath(), ...EVERYTHING].map((word) => `"${word}"`).join(" ");
  await Deno.writeTextFile(
    `${dir}/server.sh`,
    `#!/bin/sh\ntouch "${dir}/started"\nexec ${quoted}\n`,
  );
  await Deno.chmod(`${dir}/server.sh`, 0o755);
  const file = `${dir}/.mcp.json`;
  await Deno.writeTextFile(
    file,
    JSON.stringify({
      mcpServers: {
        rich: { command: "./server.sh", ...LISTS },
        off: { command: "./server.sh", disabled: true },
      },
    }),
  );
  const started = async () => {
    try {
      await Deno.stat(`${dir}/started`);
      return true;
    } catch {
      return false;
    }
  };
  return {
    file,
    started,
    rich: ["--config", file, "--server", "rich"],
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** The CLI's error line for a refusal, as a pattern (`file` is matched literally). */
function refusal(tool: string, why: string, file: string): RegExp {
  return new RegExp(
    `error: Tool "${tool}" of server "rich" is refused: ${why} of ${escapeRegExp(file)}\\n`,
  );
}

Deno.test("tools list hides what the config's deny and allow lists refuse, and says how many once", async () => {
  await using config = await configured();
  const run = await cli("tools", "list", ...config.rich);
  assert.equal(run.code, 0, run.stderr);
  const names = run.stdout.trim().split("\n").slice(1).map((line) => line.split(/\s+/)[0]);
  assert.deepEqual(names, ["echo", "add", "error"]);
  const notes = run.stderr.match(/tool\(s\) hidden by the allow\/deny lists/g) ?? [];
  assert.equal(notes.length, 1, run.stderr);
  assert.ok(
    run.stderr.includes(
      `16 tool(s) hidden by the allow/deny lists of server "rich" in ${config.file}`,
    ),
    run.stderr,
  );
  const json = await cli("tools", "list", "--json", ...config.rich);
  assert.equal(json.code, 0, json.stderr);
  const listed = JSON.parse(json.stdout).tools.map((tool: { name: string }) => tool.name);
  assert.deepEqual(listed, ["echo", "add", "error"]);
});

Deno.test("tools call of a refused tool fails before the server starts, naming the tool, rule, pattern, server and file", async () => {
  await using config = await configured();
  const denied = await cli("tools", "call", "elicit_url", "--verbose", ...config.rich);
  assert.equal(denied.code, 1, denied.stderr);
  assert.match(
    denied.stderr,
    refusal("elicit_url", `it matches the deny list \\("elicit\\*"\\)`, config.file),
  );
  assert.doesNotMatch(denied.stderr, /→/, "nothing was sent"); // --verbose shows every message
  assert.equal(denied.stdout, "");
  const unlisted = await cli("tools", "call", "whoami", ...config.rich);
  assert.equal(unlisted.code, 1, unlisted.stderr);
  assert.match(unlisted.stderr, refusal("whoami", "it is not in the allow list", config.file));
  assert.equal(await config.started(), false, "the server was started for a refused call");
  // A misspelt name (allowed by "e*", listed by no one) is not answered with a refused one.
  const typo = await cli("tools", "call", "envv", ...config.rich);
  assert.equal(typo.code, 2, typo.stderr);
  assert.match(typo.stderr, /Unknown tool "envv"/);
  assert.doesNotMatch(typo.stderr, /did you mean "env"/);
  const allowed = await cli("tools", "call", "echo", "text=hi", ...config.rich);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(allowed.stdout, "hi\n");
  assert.equal(await config.started(), true);
});

Deno.test("with --json a refused call prints no document and says why on stderr, like any failed command", async () => {
  await using config = await configured();
  const run = await cli("tools", "call", "env", "name=HOME", "--json", ...config.rich);
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, refusal("env", `it matches the deny list \\("env"\\)`, config.file));
  // The same as a call the server itself fails, which --json does not print either.
  const failed = await cli("tools", "call", "error", "--json", ...SERVER);
  assert.equal(failed.code, run.code);
  assert.equal(failed.stdout, "");
});

Deno.test("a disabled config entry is a usage error naming the server and the file", async () => {
  await using config = await configured();
  const run = await cli("tools", "list", "--config", config.file, "--server", "off");
  assert.equal(run.code, 2, run.stderr);
  assert.ok(
    run.stderr.includes(`error: Server "off" is disabled in ${config.file}; enable it there`),
    run.stderr,
  );
  assert.equal(await config.started(), false);
});

Deno.test("the shell refuses what the lists refuse on its open connection, and sends the rest", async () => {
  await using config = await configured();
  const input = "tools call env name=HOME\ntools call echo text=hi\n";
  const run = await cliWithInput(input, "shell", "--verbose", ...config.rich);
  assert.match(run.stderr, refusal("env", `it matches the deny list \\("env"\\)`, config.file));
  assert.doesNotMatch(run.stderr, /"method":"tools\/call","params":\{"name":"env"/);
  assert.match(run.stderr, /"method":"tools\/call","params":\{"name":"echo"/);
  assert.match(run.stdout, /^hi$/m);
});

Deno.test("check inspects every tool, says which the lists refuse, and does not --call them", async () => {
  await using config = await configured();
  const args = ["check", "--call", "env", "--call", "echo", "--json", "--verbose"];
  const run = await cli(...args, ...config.rich);
  assert.equal(run.code, 1, run.stderr);
  const { findings } = JSON.parse(run.stdout) as {
    findings: { level: string; check: string; detail: string }[];
  };
  const finding = (check: string) => findings.find((f) => f.check === check);
  assert.equal(finding("tools/list")?.detail, "19 tool(s)");
  assert.equal(finding("policy")?.level, "ok");
  assert.match(finding("policy")!.detail, /^16 of 19 tool\(s\) refused by the allow\/deny lists/);
  assert.equal(finding("call env")?.level, "problem");
  assert.match(finding("call env")!.detail, /matches the deny list \("env"\).*; not called$/);
  assert.equal(finding("call echo")?.level, "ok");
  assert.doesNotMatch(run.stderr, /"method":"tools\/call","params":\{"name":"env"/);
});

Deno.test("verify does not send again a recorded call the lists refuse", async () => {
  await using config = await configured();
  const recording = `${config.file}.jsonl`;
  const recorded = await cli("tools", "call", "env", "name=HOME", "--record", recording, ...SERVER);
  assert.equal(recorded.code, 0, recorded.stderr);
  const run = await cli("verify", recording, ...config.rich);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, refusal("env", `it matches the deny list \\("env"\\)`, config.file));
  assert.equal(await config.started(), false);
});
