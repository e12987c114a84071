// Secrets the user hands us (env values, headers, credentials in URLs) never show in what we print:
// errors quoting a server's stderr, `servers` and `servers --json`, proxy logs, the wire log.

import assert from "node:assert/strict";
import { Client, ConnectionClosedError, Redactor, redactUrl, StdioTransport } from "../../mod.ts";
import { ServerManager } from "../../src/manager/mod.ts";
import { fixture } from "../_helpers.ts";
import { cli, cliCommand, runOf } from "../_cli_run.ts";

const SECRET = "hunter2-s3cr3t-value";
const LEAKY: [string, ...string[]] = [
  Deno.execPath(),
  "run",
  "--allow-env",
  "--no-config",
  fixture("leaky_crash.ts"),
];

/** A temporary folder holding `files`, removed when disposed. */
async function folderWith(files: Record<string, unknown>) {
  const dir = await Deno.makeTempDir({ prefix: "mcp-inspect-redaction-" });
  for (const [name, content] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${name}`, JSON.stringify(content, null, 2));
  }
  return {
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** The leaky server as a config entry with its secret in `env`. */
const leakyEntry = {
  command: LEAKY[0],
  args: LEAKY.slice(1),
  env: { SECRET_TOKEN: SECRET },
};

Deno.test("a server that prints its env secret and crashes fails with *** in the error, not the value", async () => {
  const transport = new StdioTransport({
    command: LEAKY[0],
    args: LEAKY.slice(1),
    env: { SECRET_TOKEN: SECRET },
  });
  await assert.rejects(Client.connect(transport), (error: unknown) => {
    assert.ok(error instanceof ConnectionClosedError, String(error));
    assert.ok(!error.message.includes(SECRET), error.message);
    assert.match(error.message, /SECRET_TOKEN=\*\*\*/);
    assert.ok(error.stderrTail.every((line) => !line.includes(SECRET)));
    return true;
  });
  await transport.close();
});

Deno.test("the CLI quotes the crashed server's stderr with the --env value redacted", async () => {
  const run = await cli("tools", "list", "--env", `SECRET_TOKEN=${SECRET}`, "--", ...LEAKY);
  assert.equal(run.code, 3, run.stderr);
  assert.ok(!run.stderr.includes(SECRET), run.stderr);
  assert.match(run.stderr, /token \*\*\* was refused/);
});

Deno.test("servers --json shows a lastError with the config env value redacted", async () => {
  await using folder = await folderWith({ "mcp.json": { mcpServers: { leaky: leakyEntry } } });
  const run = await cli("servers", "--config", `${folder.dir}/mcp.json`, "--json");
  assert.equal(run.code, 3, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.match(report.servers[0].lastError, /SECRET_TOKEN=\*\*\*/);
  assert.ok(!run.stdout.includes(SECRET) && !run.stderr.includes(SECRET), run.stdout);
});

Deno.test("a manager's lastError hides the env secret a server quotes in its error answer", async () => {
  await using manager = new ServerManager({ healthIntervalMs: 0, maxReconnectAttempts: 0 });
  await manager.setServers({ leaky: { ...leakyEntry, args: [...leakyEntry.args, "answer"] } });
  const [status] = manager.servers();
  assert.equal(status?.state, "failed");
  assert.match(status?.lastError?.message ?? "", /cannot log in with token \*\*\*/);
  assert.ok(!status?.lastError?.message.includes(SECRET), status?.lastError?.message);
  assert.ok(!status?.lastError?.stack?.includes(SECRET), status?.lastError?.stack);
});

Deno.test("the proxy's log of a failed server and of its stderr never shows the env value", async () => {
  await using folder = await folderWith({ "mcp.json": { mcpServers: { leaky: leakyEntry } } });
  const run = runOf(
    await cliCommand(["proxy", "--config", `${folder.dir}/mcp.json`, "--no-watch", "--verbose"])
      .output(),
  );
  assert.match(run.stderr, /server "leaky" failed/);
  assert.match(run.stderr, /leaky: fatal: cannot log in with SECRET_TOKEN=\*\*\*/);
  assert.ok(!run.stderr.includes(SECRET), run.stderr);
});

Deno.test("a config header secret that the server echoes in its error page is shown as ***", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.body?.cancel();
    return new Response(`bad credentials: ${req.headers.get("x-upstream")}`, { status: 500 });
  });
  try {
    await using folder = await folderWith({
      "mcp.json": {
        mcpServers: {
          remote: {
            url: `http://127.0.0.1:${server.addr.port}/mcp`,
            headers: { "X-Upstream": "t0k3n-from-config-header" },
          },
        },
      },
    });
    const run = await cli("ping", "--config", `${folder.dir}/mcp.json`);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /HTTP 500 .*: bad credentials: \*\*\*/);
    assert.ok(!run.stderr.includes("t0k3n-from-config-header"), run.stderr);
    const servers = await cli("servers", "--config", `${folder.dir}/mcp.json`, "--json");
    assert.equal(servers.code, 3, servers.stderr);
    assert.match(JSON.parse(servers.stdout).servers[0].lastError, /bad credentials: \*\*\*/);
    assert.ok(!servers.stdout.includes("t0k3n-from-config-header"), servers.stdout);
  } finally {
    await server.shutdown();
  }
});

Deno.test("servers lists a URL with its user name, password and token query value as ***", async () => {
  await using folder = await folderWith({
    ".mcp.json": {
      mcpServers: {
        remote: { url: "https://alice:pa55w0rd-xyz@example.com/mcp?token=qu3ry-t0k3n&page=2" },
      },
    },
  });
  // A HOME of its own, so that no real user config is listed; Deno's cache stays where it was.
  const env = {
    HOME: folder.dir,
    XDG_CONFIG_HOME: `${folder.dir}/.config`,
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
  };
  for (const json of [false, true]) {
    const run = runOf(
      await cliCommand(["servers", ...(json ? ["--json"] : [])], { cwd: folder.dir, env }).output(),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /https:\/\/\*\*\*:\*\*\*@example\.com\/mcp\?token=\*\*\*&page=2/);
    for (const secret of ["alice", "pa55w0rd-xyz", "qu3ry-t0k3n"]) {
      assert.ok(!run.stdout.includes(secret), run.stdout);
    }
  }
});

Deno.test("Redactor hides every occurrence, longest first, and leaves values under 4 characters", () => {
  const redactor = new Redactor(["abc", "s3cret", "Bearer s3cret-long"])
    .addHeaders([["Authorization", "Token z9z9z9"]])
    .addUrl("http://bob:b0bpass@127.0.0.1/mcp?api_key=k%2By-1&sig=deadbeef&q=plain");
  assert.equal(
    redactor.redact("abc s3cret Bearer s3cret-long z9z9z9 b0bpass k+y-1 k%2By-1 deadbeef plain"),
    "abc *** *** *** *** *** *** *** plain",
  );
  assert.equal(new Redactor().redact("nothing to hide"), "nothing to hide");
});

Deno.test("redactUrl() hides credentials and leaves other URLs as they are", () => {
  assert.equal(
    redactUrl("http://u:p@host:8080/a/b?Password=x&x=1#frag"),
    "http://***:***@host:8080/a/b?Password=***&x=1#frag",
  );
  assert.equal(redactUrl("https://example.com/mcp?page=2"), "https://example.com/mcp?page=2");
  assert.equal(redactUrl("not a url"), "not a url");
});
