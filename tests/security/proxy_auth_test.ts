// `mcp-inspect proxy --http` is secure by default: a token is always required unless the user
// says otherwise, and never off loopback without one the user chose.

import assert from "node:assert/strict";
import { Client, HttpTransport } from "../../mod.ts";
import { fakeServer } from "../_helpers.ts";
import { cli, cliCommand, readUntil } from "../_cli_run.ts";

async function withConfig(run: (file: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/mcp.json`;
  const { command, args } = fakeServer("fast.ts");
  await Deno.writeTextFile(file, JSON.stringify({ mcpServers: { fast: { command, args } } }));
  try {
    await run(file);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Starts the HTTP proxy; returns its URL, the stderr read so far, and a stop function. */
async function startProxy(file: string, ...more: string[]) {
  const child = cliCommand(["proxy", "--config", file, "--http", "--port", "0", ...more]).spawn();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const url = new URL((await readUntil(stdout, /\n/)).trim());
  const logged = await readUntil(stderr, /serving \d+ tools/);
  return {
    url,
    logged,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await stdout.cancel();
      await stderr.cancel();
    },
  };
}

async function status(url: URL, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }),
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test("without --token the HTTP proxy requires a random token, printed once as a header", async () => {
  await withConfig(async (file) => {
    await using proxy = await startProxy(file);
    const token = /Authorization: Bearer ([A-Za-z0-9_-]{40,})/.exec(proxy.logged)?.[1];
    assert.ok(token, proxy.logged);
    assert.equal(proxy.logged.split(token).length, 2, "the token is shown exactly once");
    assert.equal(await status(proxy.url), 401);
    assert.equal(await status(proxy.url, { authorization: "Bearer wrong" }), 401);
    await using client = await Client.connect(
      new HttpTransport({ url: proxy.url, headers: { authorization: `Bearer ${token}` } }),
    );
    assert.ok((await client.listTools()).some((t) => t.name === "mcp__fast__echo"));
  });
});

Deno.test("two proxies started without --token get different tokens", async () => {
  await withConfig(async (file) => {
    await using a = await startProxy(file);
    await using b = await startProxy(file);
    const tokenOf = (text: string) => /Bearer (\S+)/.exec(text)?.[1];
    assert.notEqual(tokenOf(a.logged), tokenOf(b.logged));
  });
});

Deno.test("--no-auth serves without a token and says so loudly", async () => {
  await withConfig(async (file) => {
    await using proxy = await startProxy(file, "--no-auth");
    assert.match(proxy.logged, /WARNING: --no-auth/);
    assert.doesNotMatch(proxy.logged, /Bearer/);
    assert.equal(await status(proxy.url), 200);
  });
});

Deno.test("binding a non-loopback address without a chosen token is refused, saying how to proceed", async () => {
  await withConfig(async (file) => {
    for (const extra of [[], ["--no-auth"]]) {
      const run = await cli("proxy", "--config", file, "--http", "--host", "0.0.0.0", ...extra);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /Refusing to serve 0\.0\.0\.0 without a token/);
      assert.match(run.stderr, /--token <t>/);
    }
  });
});

Deno.test("--token and --no-auth together are a usage error", async () => {
  await withConfig(async (file) => {
    const run = await cli("proxy", "--config", file, "--http", "--token", "x", "--no-auth");
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--token and --no-auth contradict/);
  });
});

Deno.test("a busy port is one line naming --port, and exit code 3", async () => {
  using busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = String((busy.addr as Deno.NetAddr).port);
  await withConfig(async (file) => {
    const run = await cli("proxy", "--config", file, "--http", "--port", port);
    assert.equal(run.code, 3, run.stderr);
    const errors = run.stderr.split("\n").filter((line) => line.startsWith("error:"));
    assert.deepEqual(errors, [`error: port ${port} is in use; pick another with --port`]);
    assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
  });
});
