// The CLI end to end, as a subprocess: stdout, stderr and exit code for --version, --help, usage
// errors, and the tools commands with every exit code they can end in.

import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { cli, MISBEHAVING, SERVER } from "../_cli_run.ts";

Deno.test("--version prints the version from deno.json", async () => {
  const run = await cli("--version");
  assert.equal(run.code, 0);
  assert.equal(run.stdout.trim(), `mcp-inspect ${denoJson.version}`);
});

Deno.test("--help documents commands and exit codes; no command is a usage error", async () => {
  const help = await cli("--help");
  assert.equal(help.code, 0);
  assert.match(help.stdout, /tools call <name>/);
  assert.match(help.stdout, /4 timeout/);
  const none = await cli();
  assert.equal(none.code, 2);
});

Deno.test("a wrong flag exits 2 with one helpful line", async () => {
  const run = await cli("tools", "list", "--jsn", ...SERVER);
  assert.equal(run.code, 2);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /^error: Unknown option --jsn\nRun mcp-inspect --help for usage\.\n$/);
  // The commands that parse their own options say it the same way.
  for (const command of ["servers", "proxy", "auth"]) {
    const own = await cli(command, "--jsn");
    assert.equal(own.code, 2);
    assert.match(
      own.stderr,
      new RegExp(`^error: Unknown option --jsn\nRun mcp-inspect ${command} --help for usage\.\n$`),
    );
  }
});

Deno.test("a command without a server exits 2", async () => {
  const run = await cli("tools", "list");
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /No server given: use --url <URL>, --config <file> --server <name>, or a command after --/,
  );
});

Deno.test("tools list --json prints exactly the protocol result", async () => {
  const run = await cli("tools", "list", "--json", ...SERVER);
  assert.equal(run.code, 0, run.stderr);
  const { tools } = JSON.parse(run.stdout);
  assert.ok(tools.some((t: { name: string }) => t.name === "echo"));
});

Deno.test("tools list prints an aligned table with required marks", async () => {
  const run = await cli("tools", "list", ...SERVER);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^NAME\s+ARGUMENTS\s+DESCRIPTION$/m);
  assert.match(run.stdout, /^add\s+a\*: number, b\*: number\s+Adds two numbers\.$/m);
});

Deno.test("tools call types key=value by the input schema", async () => {
  const text = await cli("tools", "call", "echo", "text=007", "--json", ...SERVER);
  assert.equal(text.code, 0, text.stderr);
  assert.equal(JSON.parse(text.stdout).content[0].text, "007");
  const sum = await cli("tools", "call", "add", "a=2", "b=3", "--json", ...SERVER);
  assert.deepStrictEqual(JSON.parse(sum.stdout).structuredContent, { sum: 5 });
  const fromJson = await cli(
    "tools",
    "call",
    "add",
    "--args",
    '{"a":1,"b":1.5}',
    "--json",
    ...SERVER,
  );
  assert.deepStrictEqual(JSON.parse(fromJson.stdout).structuredContent, { sum: 2.5 });
});

Deno.test("an unknown tool or a missing argument is a usage error before the call", async () => {
  const unknown = await cli("tools", "call", "ecko", "text=x", ...SERVER);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown tool "ecko"; did you mean "echo"\?/);
  const missing = await cli("tools", "call", "add", "a=1", ...SERVER);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Tool "add" needs argument b/);
  const badNumber = await cli("tools", "call", "add", "a=one", "b=2", ...SERVER);
  assert.equal(badNumber.code, 2);
  assert.match(badNumber.stderr, /Argument "a" must be a number, got "one"/);
});

Deno.test("a tool result with isError or a server error exits 1", async () => {
  const failed = await cli("tools", "call", "fail", ...SERVER);
  assert.equal(failed.code, 1);
  assert.equal(failed.stdout.trim(), "boom");
  const error = await cli("tools", "call", "error", ...SERVER);
  assert.equal(error.code, 1);
  assert.match(error.stderr, /server error -32001: Tool exploded \{"detail":"x"\}/);
});

Deno.test("a timeout exits 4", async () => {
  const run = await cli("tools", "call", "hang", "--timeout", "300", ...SERVER);
  assert.equal(run.code, 4);
  assert.match(run.stderr, /timed out after 300 ms/);
});

Deno.test("a server that cannot start or crashes exits 3 and says why", async () => {
  const missing = await cli("ping", "--", "mcp-inspect-no-such-server");
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /command "mcp-inspect-no-such-server" not found on PATH/);
  const crash = await cli("tools", "call", "echo", "text=x", ...MISBEHAVING("crash"));
  assert.equal(crash.code, 3);
  assert.match(crash.stderr, /exit code 3/);
  assert.match(crash.stderr, /fatal: line 3/);
});
