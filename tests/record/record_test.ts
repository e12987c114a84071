// Record, replay and verify: a session recorded with --record is served back by `replay` to our
// client and to the official SDK client with the same answers, a request it never saw fails at
// once, and `verify` finds drift in a changed server.

import assert from "node:assert/strict";
import { Client as SdkClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as SdkStdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client, HttpTransport, McpError, StdioTransport } from "../../mod.ts";
import { parseRecording, Recorder, replayTransport } from "../../src/testing/testing.ts";
import { fixture, RECORDING_HEADER_KEYS } from "../_helpers.ts";
import { npmServer } from "../_npm_servers.ts";
import { cli, cliCommand, readUntil, ROOT, SERVER } from "../_cli_run.ts";

const fake = (name: string, ...args: string[]) => [
  "--",
  Deno.execPath(),
  "run",
  "--allow-all",
  "--no-config",
  fixture(name),
  ...args,
];

async function inTemp(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const replayCommand = (file: string) => ({
  command: Deno.execPath(),
  args: ["run", "--allow-all", `${ROOT}cli.ts`, "replay", file],
});

Deno.test("--record writes a header, then every message both ways, with secrets redacted", async () => {
  await inTemp(async (dir) => {
    const file = `${dir}/session.jsonl`;
    const run = await cli("tools", "call", "echo", "text=hi", "--record", file, ...SERVER);
    assert.equal(run.code, 0, run.stderr);
    const recording = parseRecording(await Deno.readTextFile(file));
    assert.equal(recording.header.format, "mcp-inspect-recording");
    assert.equal(recording.header.protocolVersion, "2025-11-25");
    assert.equal(recording.header.era, "legacy");
    assert.match(recording.header.server, /everything\.ts$/);
    // The order the web page's wire export writes too (both use recordingHeader).
    const keys = Object.keys(JSON.parse((await Deno.readTextFile(file)).split("\n")[0]!));
    assert.deepEqual(keys, RECORDING_HEADER_KEYS);
    const methods = recording.messages.filter((m) => m.dir === "send" && "method" in m.msg)
      .map((m) => (m.msg as { method: string }).method);
    assert.ok(methods.includes("initialize") && methods.includes("tools/call"), methods.join());
    assert.ok(recording.messages.some((m) => m.dir === "recv"));
    assert.ok(recording.messages.every((m, i, all) => i === 0 || all[i - 1]!.t <= m.t));

    // A server that quotes its secret in an answer: the file shows *** instead.
    const leaky = `${dir}/leaky.jsonl`;
    await cli(
      "tools",
      "list",
      "--record",
      leaky,
      "--env",
      "SECRET_TOKEN=tok-4f9a1c7e",
      "-H",
      "X-Api-Key: never-shown-123",
      ...fake("leaky_crash.ts", "answer"),
    );
    const text = await Deno.readTextFile(leaky);
    assert.match(text, /cannot log in with token \*\*\*/);
    assert.doesNotMatch(text, /tok-4f9a1c7e/);
  });
});

Deno.test("replay serves a recording of server-everything to our client and the official SDK client", async () => {
  const server = await npmServer("everything", ["stdio"]);
  const env = Object.entries(server.env ?? {}).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
  await inTemp(async (dir) => {
    const file = `${dir}/everything.jsonl`;
    const real = ["--", server.command, ...(server.args ?? [])];
    const recorded = await cli(
      "tools",
      "call",
      "echo",
      "message=replayed",
      "--json",
      "--protocol",
      "legacy",
      "--record",
      file,
      ...env,
      ...real,
    );
    assert.equal(recorded.code, 0, recorded.stderr);

    // Our CLI against the replay: the same answer.
    const replay = replayCommand(file);
    const again = await cli(
      "tools",
      "call",
      "echo",
      "message=replayed",
      "--json",
      "--protocol",
      "legacy",
      "--",
      replay.command,
      ...replay.args,
    );
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), JSON.parse(recorded.stdout));

    // The official SDK client against the replay.
    const sdk = new SdkClient({ name: "sdk-test", version: "1.0.0" });
    await sdk.connect(new SdkStdioTransport({ ...replay, stderr: "ignore" }));
    try {
      const result = await sdk.callTool({ name: "echo", arguments: { message: "replayed" } });
      assert.deepEqual(result.content, JSON.parse(recorded.stdout).content);
      const tools = await sdk.listTools();
      assert.ok(tools.tools.some((t) => t.name === "echo"));
    } finally {
      await sdk.close();
    }
  });
});

Deno.test("a request missing from the recording fails at once, naming the nearest recorded one", async () => {
  await inTemp(async (dir) => {
    const file = `${dir}/session.jsonl`;
    await cli("tools", "call", "echo", "text=hi", "--record", file, ...SERVER);
    const recording = parseRecording(await Deno.readTextFile(file));
    await using client = await Client.connect(replayTransport(recording), { protocol: "legacy" });
    assert.equal((await client.callTool("echo", { text: "hi" })).content[0]?.text, "hi");
    const error = await client.callTool("echo", { text: "bye" }).then(
      () => assert.fail("answered"),
      (e) => e,
    );
    assert.ok(error instanceof McpError);
    assert.equal(error.code, -32602);
    assert.match(error.message, /nearest recorded: \{"arguments":\{"text":"hi"\},"name":"echo"\}/);
    await assert.rejects(client.listPrompts(), /No prompts\/list request in the recording/);
  });
});

Deno.test("verify passes against the recorded server and reports drift in a changed one", async () => {
  await inTemp(async (dir) => {
    const file = `${dir}/surface.jsonl`;
    const made = await cli("tools", "list", "--record", file, ...fake("surface.ts", "1"));
    assert.equal(made.code, 0, made.stderr);
    const same = await cli("verify", file, ...fake("surface.ts", "1"));
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.match(same.stdout, /✓ (\d+) of \1 answer\(s\) match/);
    const drift = await cli("verify", file, "--json", ...fake("surface.ts", "2"));
    assert.equal(drift.code, 1, drift.stderr);
    const report = JSON.parse(drift.stdout);
    assert.ok(report.mismatches.length > 0);
    assert.equal(report.mismatches[0].method, "tools/list");
    assert.match(report.mismatches[0].path, /^\/tools\//);
    // The drifting path can be ignored.
    const ignored = await cli(
      "verify",
      file,
      "--ignore",
      "/tools",
      ...fake("surface.ts", "2"),
    );
    assert.equal(ignored.code, 0, ignored.stdout);
  });
});

Deno.test("replay refuses a file that is not a recording, naming it", async () => {
  await inTemp(async (dir) => {
    await Deno.writeTextFile(`${dir}/x.jsonl`, '{"hello": 1}\n');
    const run = await cli("replay", `${dir}/x.jsonl`);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /x\.jsonl", line 1: not an mcp-inspect recording header/);
  });
});

Deno.test("a session recorded with the library's Recorder replays in-process with replayTransport", async () => {
  await inTemp(async (dir) => {
    const file = `${dir}/lib.jsonl`;
    {
      await using recorder = await Recorder.open(file, { server: "fast.ts" });
      await using client = await Client.connect(
        recorder.wrap(
          new StdioTransport({
            command: Deno.execPath(),
            args: ["run", "-A", "--no-config", fixture("fast.ts")],
          }),
        ),
        { protocol: "legacy" },
      );
      recorder.ready(client);
      await client.callTool("echo", { text: "lib" });
    }
    const recording = parseRecording(await Deno.readTextFile(file));
    await using replayed = await Client.connect(replayTransport(recording), { protocol: "legacy" });
    assert.equal((await replayed.callTool("echo", { text: "lib" })).content[0]?.text, "lib");
  });
});

Deno.test("replay --http serves a recording over Streamable HTTP, behind the proxy's guard", async () => {
  await inTemp(async (dir) => {
    const file = `${dir}/session.jsonl`;
    await cli("tools", "call", "echo", "text=hi", "--record", file, ...SERVER);
    const child = cliCommand(["replay", file, "--http", "--token", "t0ken-for-tests"]).spawn();
    const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    try {
      const url = new URL((await readUntil(stdout, /\n/)).trim());
      assert.equal(url.hostname, "127.0.0.1");
      const refused = await fetch(url, { method: "POST", body: "{}" });
      await refused.body?.cancel();
      assert.equal(refused.status, 401);
      await using client = await Client.connect(
        new HttpTransport({ url, headers: { authorization: "Bearer t0ken-for-tests" } }),
        { protocol: "legacy" },
      );
      assert.equal((await client.callTool("echo", { text: "hi" })).content[0]?.text, "hi");
    } finally {
      child.kill("SIGTERM");
      await child.status;
      await stdout.cancel();
      await child.stderr.cancel();
    }
  });
});

Deno.test("proxy --record records the session with its client, and replay serves it back", async () => {
  await inTemp(async (dir) => {
    const config = `${dir}/mcp.json`;
    const command = Deno.execPath();
    const args = ["run", "--allow-all", "--no-config", fixture("fast.ts")];
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: { fast: { command, args, env: { FAST_TOKEN: "zq-secret-77" } } },
      }),
    );
    const file = `${dir}/proxy.jsonl`;
    {
      await using client = await Client.connect(
        new StdioTransport({
          command: Deno.execPath(),
          args: [
            "run",
            "--allow-all",
            `${ROOT}cli.ts`,
            "proxy",
            "--config",
            config,
            "--record",
            file,
          ],
        }),
        { protocol: "legacy" },
      );
      const result = await client.callTool("mcp__fast__echo", { text: "via proxy" });
      assert.equal(result.content[0]?.text, "via proxy");
    }
    const recording = parseRecording(await Deno.readTextFile(file));
    assert.equal(recording.header.era, "legacy");
    assert.ok(recording.messages.some((m) => m.dir === "send"));
    await using replayed = await Client.connect(replayTransport(recording), { protocol: "legacy" });
    const again = await replayed.callTool("mcp__fast__echo", { text: "via proxy" });
    assert.equal(again.content[0]?.text, "via proxy");
    const refused = await cli("proxy", "--config", config, "--http", "--record", file);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--record records one session: it needs stdio/);
  });
});
