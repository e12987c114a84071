// `mcp-inspect auth` end to end, as subprocesses against a fake authorization server and a
// protected MCP server: login through the loopback listener, stored tokens used by the other
// commands, status, logout, exit code 5, and no secret in any output, --verbose included.

import assert from "node:assert/strict";
import { cliCommand, type Run, runOf } from "../_cli_run.ts";
import { setup } from "./_setup.ts";

const CANARY = `CANARY-${crypto.randomUUID()}`;

function command(home: string, args: string[]): Deno.Command {
  return cliCommand(args, {
    env: { MCP_INSPECT_CREDENTIALS: `${home}/mcp-inspect/credentials.json` },
  });
}

async function cli(home: string, ...args: string[]): Promise<Run> {
  return runOf(await command(home, args).output());
}

/** Runs `auth login --no-browser` and plays the browser with the URL it prints. */
async function login(home: string, url: string): Promise<Run> {
  const child = command(home, ["auth", "login", "--url", url, "--no-browser", "-v"]).spawn();
  const stdout = new Response(child.stdout).text();
  let stderr = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let authorizeUrl: string | undefined;
  while (!authorizeUrl) {
    const { value, done } = await reader.read();
    if (done) break;
    stderr += value;
    authorizeUrl = stderr.match(/^\s+(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m)?.[1];
  }
  assert.ok(authorizeUrl, `no authorization URL printed:\n${stderr}`);
  const redirect = await fetch(authorizeUrl, { redirect: "manual" });
  await redirect.body?.cancel();
  const page = await fetch(redirect.headers.get("location")!);
  assert.match(await page.text(), /Authorization finished/);
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    stderr += value;
  }
  const { code } = await child.status;
  return { code, stdout: await stdout, stderr };
}

Deno.test("auth login stores tokens that other commands use; nothing secret is ever printed", async () => {
  await using env = setup({
    as: {
      accessToken: (n) => `${CANARY}-access-${n}`,
      secrets: true,
      clientSecret: `${CANARY}-secret`,
    },
  });
  const home = await Deno.makeTempDir();
  try {
    const outputs: Run[] = [];
    const loggedIn = await login(home, env.url);
    outputs.push(loggedIn);
    assert.equal(loggedIn.code, 0, loggedIn.stderr);
    assert.match(loggedIn.stdout, /^Authorized: .* by http:\/\/127\.0\.0\.1:\d+ \(bearer token/);

    const file = `${home}/mcp-inspect/credentials.json`;
    if (Deno.build.os !== "windows") assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    const stored = await Deno.readTextFile(file);
    assert.ok(stored.includes(`${CANARY}-access-1`), "the token is in the credentials file");
    const refreshToken = stored.match(/"refreshToken": "([^"]+)"/)![1]!;

    const tools = await cli(home, "tools", "list", "--url", env.url, "--verbose");
    outputs.push(tools);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /whoami/);
    assert.ok(env.mcp.log.some((r) => r.authorization === `Bearer ${CANARY}-access-1`));

    const status = await cli(home, "auth", "status", "--url", env.url);
    outputs.push(status, await cli(home, "auth", "status", "--json"));
    assert.equal(status.code, 0);
    assert.match(status.stdout, /bearer token, expires in \d+ min, refreshable/);

    // The stored token dies: the next command refreshes it on the 401, without a login.
    env.as.expireAll();
    const refreshed = await cli(home, "tools", "call", "whoami", "--url", env.url, "-v");
    outputs.push(refreshed);
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.match(refreshed.stderr, /Refreshed the access token/);

    for (const run of outputs) {
      for (const secret of [CANARY, refreshToken]) {
        assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), "a secret leaked");
      }
    }

    const logout = await cli(home, "auth", "logout", "--url", env.url);
    assert.equal(logout.code, 0);
    const denied = await cli(home, "tools", "list", "--url", env.url);
    assert.equal(denied.code, 5);
    assert.match(denied.stderr, /requires authorization: run mcp-inspect auth login --url /);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("auth usage errors exit 2", async () => {
  const home = await Deno.makeTempDir();
  try {
    assert.equal((await cli(home, "auth", "login")).code, 2);
    assert.equal((await cli(home, "auth", "logout")).code, 2);
    assert.equal((await cli(home, "auth", "frobnicate")).code, 2);
    assert.equal((await cli(home, "auth", "status", "--url", "not a url")).code, 2);
    const empty = await cli(home, "auth", "status");
    assert.equal(empty.code, 0);
    assert.match(empty.stdout, /No stored authorizations/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
