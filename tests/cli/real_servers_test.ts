// The CLI against real servers from npm, as a subprocess.

import assert from "node:assert/strict";
import { SPEC_DIR } from "../_helpers.ts";
import { everythingOverHttp, npmServer } from "../_npm_servers.ts";
import { cli } from "../_cli_run.ts";

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
