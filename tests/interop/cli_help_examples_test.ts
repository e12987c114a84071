// Every example in the CLI's --help and the README that runs server-everything works as written,
// against the real server (pinned, from npm) instead of `npx -y` (which would reach the registry).

import assert from "node:assert/strict";
import { parse } from "shell-quote";
import { HELP } from "../../src/cli/cli.ts";
import { npmServer } from "../_npm_servers.ts";
import { cli, ROOT } from "../_cli_run.ts";

const NPX = "-- npx -y @modelcontextprotocol/server-everything";

/** The command lines, after `mcp-inspect` or `deno task inspect`, that run server-everything. */
async function examples(): Promise<string[]> {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  return [...HELP.split("\n"), ...readme.split("\n")]
    .map((line) => line.trim())
    .filter((line) => line.endsWith(NPX))
    .map((line) => line.replace(/^(mcp-inspect|deno task inspect) /, "").slice(0, -NPX.length));
}

Deno.test("every --help and README example against server-everything works as written", async () => {
  const found = await examples();
  assert.ok(found.length >= 3, `examples found: ${found.join(" | ")}`);
  const server = await npmServer("everything", ["stdio"]);
  const env = Object.entries(server.env ?? {}).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
  for (const example of found) {
    const words = parse(example).map(String);
    const run = await cli(...words, ...env, "--", server.command, ...(server.args ?? []));
    assert.equal(run.code, 0, `${example}\n${run.stderr}`);
    assert.notEqual(run.stdout.trim(), "", example);
  }
});

Deno.test("a server error reads with one layer of text, and prompts get suggests a name", async () => {
  const server = await npmServer("everything", ["stdio"]);
  const env = Object.entries(server.env ?? {}).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
  const against = (...args: string[]) =>
    cli(...args, ...env, "--", server.command, ...(server.args ?? []));
  const missing = await against("resources", "read", "bogus://x");
  assert.equal(missing.code, 1, missing.stderr);
  assert.match(missing.stderr, /error: server error -32602: Resource bogus:\/\/x not found/);
  assert.doesNotMatch(missing.stderr, /MCP error/);
  const typo = await against("prompts", "get", "simple-promt");
  assert.equal(typo.code, 2, typo.stderr);
  assert.match(typo.stderr, /Unknown prompt "simple-promt"; did you mean "simple-prompt"\?/);
  const needs = await against("prompts", "get", "args-prompt");
  assert.equal(needs.code, 2, needs.stderr);
  assert.match(needs.stderr, /Prompt "args-prompt" needs argument city/);
});
