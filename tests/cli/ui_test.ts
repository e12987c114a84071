import assert from "node:assert/strict";
// `mcp-inspect ui` as users run it: the address on stdout, the server connected behind it, a clean
// stop on SIGTERM, and usage errors that name the bad flag.

import { cli, cliCommand, readUntil, SERVER } from "../_cli_run.ts";

type State = { servers: { name: string; status: string }[] };

/** The page's state once its first server is no longer connecting. */
async function settled(url: URL): Promise<State> {
  const token = url.searchParams.get("token")!;
  let state: State = { servers: [] };
  for (let attempt = 0; attempt < 300; attempt++) {
    const response = await fetch(new URL("/api/state", url), {
      headers: { authorization: `Bearer ${token}` },
    });
    state = await response.json();
    if (state.servers[0]?.status !== "connecting") break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return state;
}

Deno.test("cli ui: prints the address with its token, serves the server, stops on SIGTERM", async () => {
  const child = cliCommand(["ui", "--no-open", "--name", "fake", ...SERVER]).spawn();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream());
  const errors = stderr.pipeTo(new WritableStream()).catch(() => {});
  try {
    const line = (await readUntil(stdout, /\n/)).trim();
    const url = new URL(line);
    assert.equal(url.hostname, "127.0.0.1");
    const token = url.searchParams.get("token")!;
    assert.ok(token.length >= 32);
    const state = await settled(url);
    assert.deepEqual(state.servers.map(({ name, status }) => ({ name, status })), [
      { name: "fake", status: "connected" },
    ]);
    const refused = await fetch(new URL("/api/state", url));
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
  } finally {
    child.kill("SIGTERM");
    await stdout.cancel();
    await errors;
  }
  assert.equal((await child.status).code, 0);
});

Deno.test("cli ui: usage errors name what is wrong", async () => {
  const cases: [string[], RegExp][] = [
    [["ui", "--port", "http"], /Invalid --port "http"/],
    [
      ["ui", "--url", "http://127.0.0.1:1/mcp", ...SERVER],
      /one of -- <command>, --url and --config/,
    ],
    [["ui", "--server", "x"], /--server needs --config/],
    [["ui", "--bogus"], /--bogus/],
    [["ui", "--"], /Missing the server command/],
    [["ui", "--name", "../etc", ...SERVER], /Invalid --name/],
    [["ui", "--config", "/nonexistent/mcp.json"], /\/nonexistent\/mcp.json/],
  ];
  for (const [args, pattern] of cases) {
    const run = await cli(...args);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, pattern, args.join(" "));
  }
});

Deno.test("cli ui --help describes the page and its token", async () => {
  const run = await cli("ui", "--help");
  assert.equal(run.code, 0);
  assert.match(run.stdout, /127\.0\.0\.1/);
  assert.match(run.stdout, /token/);
});

Deno.test("cli ui --config: a server keeps its config's deny list on the page", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcp-inspect-ui-" });
  const file = `${dir}/mcp.json`;
  const [command, ...args] = SERVER.slice(1);
  await Deno.writeTextFile(
    file,
    JSON.stringify({ mcpServers: { fake: { command, args, deny: ["e*"] } } }),
  );
  const child = cliCommand(["ui", "--no-open", "--config", file]).spawn();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const errors = child.stderr.pipeTo(new WritableStream()).catch(() => {});
  try {
    const url = new URL((await readUntil(stdout, /\n/)).trim());
    assert.equal((await settled(url)).servers[0]?.status, "connected");
    const api = async (operation: string, body: unknown) => {
      const response = await fetch(new URL(`/api/${operation}`, url), {
        method: "POST",
        headers: {
          authorization: `Bearer ${url.searchParams.get("token")}`,
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    const tools = await api("tools/list", { server: "fake" });
    const names = tools.body.result.tools.map((tool: { name: string }) => tool.name);
    assert.ok(names.includes("add") && !names.some((name: string) => name.startsWith("e")), names);
    assert.ok(tools.body.result.hidden > 0, "the page is told how many tools the lists hid");
    const denied = await api("tools/call", {
      server: "fake",
      name: "echo",
      arguments: { text: "hi" },
      callId: "c1",
    });
    assert.equal(denied.status, 403);
    assert.match(denied.body.error.message, /"echo" .* matches the deny list \("e\*"\)/);
  } finally {
    child.kill("SIGTERM");
    await stdout.cancel();
    await errors;
    await Deno.remove(dir, { recursive: true });
  }
  assert.equal((await child.status).code, 0);
});
