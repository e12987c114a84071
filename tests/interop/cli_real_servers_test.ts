// The CLI against real servers from npm, as a subprocess.

import assert from "node:assert/strict";
import { SPEC_DIR } from "../_helpers.ts";
import { everythingOverHttp, npmServer } from "../_npm_servers.ts";
import { cli, cliCommand, runOf } from "../_cli_run.ts";

function cliAgainst(server: Awaited<ReturnType<typeof npmServer>>, ...args: string[]) {
  const env = Object.entries(server.env ?? {}).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
  return cli(...args, ...env, "--", server.command, ...(server.args ?? []));
}

Deno.test("the CLI lists and calls the tools of server-everything", async () => {
  const server = await npmServer("everything", ["stdio"]);
  const list = await cliAgainst(server, "tools", "list", "--json");
  assert.equal(list.code, 0, list.stderr);
  const names = (JSON.parse(list.stdout).tools as { name: string }[]).map((t) => t.name);
  assert.ok(names.includes("echo"), names.join(", "));
  const echo = await cliAgainst(server, "tools", "call", "echo", "message=007");
  assert.equal(echo.code, 0, echo.stderr);
  assert.match(echo.stdout, /007/);
  const check = await cliAgainst(server, "check", ...(SPEC_DIR ? ["--schema-dir", SPEC_DIR] : []));
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.match(check.stdout, /✓ schema: (\d+) of \1 message\(s\)/);
});

Deno.test("the CLI reads a directory through server-filesystem, rooted where it is told", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.writeTextFile(`${dir}/hello.txt`, "hello from disk");
    const server = await npmServer("filesystem", [dir]);
    const run = await cliAgainst(
      server,
      "tools",
      "call",
      "read_text_file",
      `path=${dir}/hello.txt`,
      "--root",
      dir,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /hello from disk/);
    const outside = await cliAgainst(
      server,
      "tools",
      "call",
      "read_text_file",
      "path=/etc/hostname",
      "--root",
      dir,
    );
    assert.equal(outside.code, 1); // the tool refuses: a result with isError
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("without --root, server-filesystem keeps the folder it was started with, for every read", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const elsewhere = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.writeTextFile(`${dir}/hello.txt`, "hello from disk");
    const server = await npmServer("filesystem", [dir]);
    const env = Object.entries(server.env ?? {}).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
    // One connection, many reads: a client offering its working directory as a root would have
    // the server swap its folder for that one a moment after the handshake.
    const child = cliCommand(["shell", ...env, "--", server.command, ...(server.args ?? [])], {
      cwd: elsewhere,
      stdin: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    const reads = Array.from(
      { length: 8 },
      () => `tools call read_text_file path=${dir}/hello.txt`,
    );
    const slow = `tools call list_allowed_directories\n`.repeat(8);
    await writer.write(new TextEncoder().encode(`${slow}${reads.join("\n")}\nexit\n`));
    await writer.close();
    const run = runOf(await child.output());
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.doesNotMatch(run.stdout + run.stderr, /Access denied/);
    assert.equal(run.stdout.match(/hello from disk/g)?.length, reads.length, run.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("the CLI calls server-everything over Streamable HTTP and over legacy SSE", async () => {
  {
    await using server = await everythingOverHttp("streamableHttp");
    const run = await cli(
      "tools",
      "call",
      "echo",
      "message=over-http",
      "--url",
      `${server.base}/mcp`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /over-http/);
  }
  {
    await using server = await everythingOverHttp("sse");
    const run = await cli(
      "tools",
      "call",
      "echo",
      "message=over-sse",
      "--url",
      `${server.base}/sse`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /over-sse/);
  }
});
