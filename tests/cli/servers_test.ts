// How the CLI reaches a server, as a subprocess: --url over HTTP with the legacy SSE fallback and
// authorization, bad connection flags, config files with --config and --server, and servers.

import assert from "node:assert/strict";
import { legacySseHandler } from "../../testdata/http/legacy_sse.ts";
import { fixture } from "../_helpers.ts";
import { cli, cliCommand, runOf, SERVER } from "../_cli_run.ts";

Deno.test("--url connects over HTTP, falling back to legacy SSE", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, legacySseHandler());
  try {
    const url = `http://127.0.0.1:${server.addr.port}/sse`;
    const run = await cli(
      "tools",
      "call",
      "echo",
      "text=web",
      "--url",
      url,
      "--header",
      "X-Trace: 1",
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "web");
    const forced = await cli("ping", "--url", url, "--transport", "http");
    assert.equal(forced.code, 3);
    assert.match(forced.stderr, /HTTP 405/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("an HTTP server demanding authorization exits 5", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.body?.cancel();
    return new Response("Unauthorized", {
      status: 401,
      headers: {
        "www-authenticate":
          'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
      },
    });
  });
  try {
    const run = await cli("ping", "--url", `http://127.0.0.1:${server.addr.port}/mcp`);
    assert.equal(run.code, 5);
    assert.match(run.stderr, /requires authorization: run mcp-inspect auth login --url http:/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("bad --url, --transport and --header values are usage errors", async () => {
  const scheme = await cli("ping", "--url", "ftp://example.com/mcp");
  assert.equal(scheme.code, 2);
  assert.match(scheme.stderr, /must use http: or https:/);
  const transport = await cli(
    "ping",
    "--url",
    "http://127.0.0.1:1/mcp",
    "--transport",
    "carrier-pigeon",
  );
  assert.equal(transport.code, 2);
  const header = await cli("ping", "--url", "http://127.0.0.1:1/mcp", "--header", "no-colon");
  assert.equal(header.code, 2);
  assert.match(header.stderr, /expected "Name: Value"/);
  const both = await cli("ping", "--url", "http://127.0.0.1:1/mcp", ...SERVER);
  assert.equal(both.code, 2);
});

Deno.test("--config and --server pick a server from a config file, or from the usual places", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = {
      mcpServers: {
        fake: {
          command: Deno.execPath(),
          args: ["run", "--allow-all", "--no-config", fixture("everything.ts")],
        },
        other: { command: "mcp-inspect-not-started" },
      },
    };
    await Deno.writeTextFile(`${dir}/.mcp.json`, `// JSONC is fine\n${JSON.stringify(config)}`);
    const given = await cli(
      "tools",
      "call",
      "echo",
      "text=configured",
      "--config",
      `${dir}/.mcp.json`,
      "--server",
      "fake",
    );
    assert.equal(given.code, 0, given.stderr);
    assert.equal(given.stdout.trim(), "configured");
    const found = runOf(await cliCommand(["ping", "--server", "fake"], { cwd: dir }).output());
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stderr, new RegExp(`Using server "fake" from ${dir}/\\.mcp\\.json`));
    const ambiguous = await cli("ping", "--config", `${dir}/.mcp.json`);
    assert.equal(ambiguous.code, 2);
    assert.match(ambiguous.stderr, /has 2 servers; choose one with --server \(fake, other\)/);
    const missing = await cli("ping", "--config", `${dir}/.mcp.json`, "--server", "nope");
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /No server "nope"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("servers lists the servers of the usual config files with secrets hidden", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/.vscode`);
    await Deno.writeTextFile(
      `${dir}/.mcp.json`,
      JSON.stringify({
        mcpServers: {
          local: { command: "npx", args: ["-y", "some-server"], env: { API_KEY: "sk-secret-1" } },
        },
      }),
    );
    await Deno.writeTextFile(
      `${dir}/.vscode/mcp.json`,
      JSON.stringify({
        servers: {
          remote: {
            type: "http",
            url: "https://example.com/mcp",
            headers: { Authorization: "Bearer tok-2" },
          },
        },
      }),
    );
    const run = runOf(await cliCommand(["servers", "--json"], { cwd: dir }).output());
    const stdout = run.stdout;
    assert.equal(run.code, 0, run.stderr);
    const servers = JSON.parse(stdout).servers as Record<string, unknown>[];
    const local = servers.find((s) => s.name === "local")!;
    const remote = servers.find((s) => s.name === "remote")!;
    assert.deepStrictEqual([local.transport, local.target, local.env], [
      "stdio",
      "npx -y some-server",
      { API_KEY: "***" },
    ]);
    assert.deepStrictEqual([remote.transport, remote.headers], ["http", { Authorization: "***" }]);
    assert.match(String(remote.file), /\.vscode\/mcp\.json$/);
    assert.ok(!stdout.includes("sk-secret-1") && !stdout.includes("tok-2"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
