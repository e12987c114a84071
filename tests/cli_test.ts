// The CLI end to end, as a subprocess: stdout, stderr and exit code.

import assert from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };
import { legacySseHandler } from "../testdata/http/legacy_sse.ts";
import { fixture } from "./_helpers.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const SERVER = [
  "--",
  Deno.execPath(),
  "run",
  "--allow-all",
  "--no-config",
  fixture("everything.ts"),
];
const MISBEHAVING = (mode: string) => [
  "--",
  Deno.execPath(),
  "run",
  "--allow-all",
  "--no-config",
  fixture("misbehaving.ts"),
  mode,
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(...args: string[]): Promise<Run> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "cli.ts", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

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

Deno.test("resources and prompts commands print readable content", async () => {
  const read = await cli("resources", "read", "fake://notes/7", ...SERVER);
  assert.equal(read.code, 0, read.stderr);
  assert.equal(read.stdout.trim(), "note 7");
  const logo = await cli("resources", "read", "fake://images/logo", ...SERVER);
  assert.match(logo.stdout, /^\[image\/png fake:\/\/images\/logo, \d+ B\]$/m);
  const prompt = await cli("prompts", "get", "greet", "name=Ada", ...SERVER);
  assert.equal(prompt.stdout.trim(), "user: Hello Ada, in a neutral style");
  const info = await cli("info", "--json", ...SERVER);
  assert.equal(JSON.parse(info.stdout).protocolVersion, "2025-11-25");
});

Deno.test("demo lists and calls tools of the shipped server", async () => {
  const run = await cli("demo");
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /Which tools does it offer\?/);
  assert.match(run.stdout, /^echo\s+text\*: string/m);
  assert.match(run.stdout, /^hello$/m);
  const json = await cli("demo", "--json");
  assert.equal(JSON.parse(json.stdout)["tools call echo text=hello"].content[0].text, "hello");
});

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

Deno.test("logs streams log messages until Ctrl-C, then exits 0", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "cli.ts", "logs", ...MISBEHAVING("chatty")],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!/tick 2/.test(seen)) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  child.kill("SIGINT");
  for (let r = await reader.read(); !r.done; r = await reader.read()) seen += r.value;
  const status = await child.status;
  const stderr = await new Response(child.stderr).text();
  assert.match(seen, /^\[info\] chatty: tick 1$/m);
  assert.equal(status.code, 0);
  assert.match(stderr, /\[server\] /); // the server's stderr is streamed too
});

Deno.test("complete suggests prompt arguments and template variables", async () => {
  const prompt = await cli("complete", "greet", "style", "f", ...SERVER);
  assert.equal(prompt.code, 0, prompt.stderr);
  assert.deepStrictEqual(prompt.stdout.trim().split("\n"), ["formal", "friendly", "funny"]);
  const template = await cli("complete", "fake://notes/{id}", "id", "4", "--json", ...SERVER);
  assert.deepStrictEqual(JSON.parse(template.stdout).completion.values, ["42"]);
});

Deno.test("--verbose shows the wire traffic with secrets redacted", async () => {
  const run = await cli("ping", "--verbose", "--env", "API_KEY=sup3r-s3cret", ...SERVER);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /→ \{"jsonrpc":"2\.0","id":\d+,"method":"initialize"/);
  assert.match(run.stderr, /← \{"jsonrpc":"2\.0","id":\d+,"result":\{"protocolVersion"/);
  assert.ok(!run.stderr.includes("sup3r-s3cret"));
  const echoed = await cli(
    "tools",
    "call",
    "echo",
    "text=sup3r-s3cret",
    "--verbose",
    "--env",
    "API_KEY=sup3r-s3cret",
    ...SERVER,
  );
  assert.ok(!echoed.stderr.includes("sup3r-s3cret"), echoed.stderr);
  assert.match(echoed.stderr, /"text":"\*\*\*"/);
});

Deno.test("--elicit, --sampling-reply and --root answer the server's requests", async () => {
  const declined = await cli("tools", "call", "elicit", "--json", ...SERVER);
  assert.equal(JSON.parse(JSON.parse(declined.stdout).content[0].text).action, "decline");
  assert.match(declined.stderr, /not a terminal; pass --elicit accept-defaults/);
  const accepted = await cli(
    "tools",
    "call",
    "elicit",
    "--elicit",
    "accept-defaults",
    "--json",
    ...SERVER,
  );
  assert.deepStrictEqual(JSON.parse(JSON.parse(accepted.stdout).content[0].text), {
    action: "accept",
    content: { name: "Ada", age: 36 },
  });
  const sampled = await cli(
    "tools",
    "call",
    "sample",
    "prompt=hi",
    "--sampling-reply",
    "hello there",
    "--json",
    ...SERVER,
  );
  assert.equal(JSON.parse(JSON.parse(sampled.stdout).content[0].text).content.text, "hello there");
  const refused = await cli("tools", "call", "sample", "prompt=hi", ...SERVER);
  assert.equal(refused.code, 1);
  assert.match(refused.stdout, /Sampling declined by mcp-inspect/);
  const roots = await cli("tools", "call", "roots", "--root", "/tmp", "--json", ...SERVER);
  assert.deepStrictEqual(JSON.parse(JSON.parse(roots.stdout).content[0].text).roots, [{
    uri: "file:///tmp",
    name: "tmp",
  }]);
});

Deno.test("--protocol pins the era, and info reports it", async () => {
  const legacy = await cli("info", "--json", "--protocol", "legacy", ...SERVER);
  assert.equal(JSON.parse(legacy.stdout).era, "legacy");
  const modern = await cli(
    "info",
    "--json",
    "--",
    Deno.execPath(),
    "run",
    "--allow-all",
    "--no-config",
    fixture("modern.ts"),
  );
  assert.equal(JSON.parse(modern.stdout).era, "modern");
  const bad = await cli("info", "--protocol", "newest", ...SERVER);
  assert.equal(bad.code, 2);
});

const SPEC = new URL("../../shared/spec", import.meta.url).pathname;

Deno.test("check reports a healthy server and exits 0", async () => {
  const run = await cli("check", "--schema-dir", SPEC, "--call", "echo", ...SERVER);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(
    run.stdout,
    /✓ schema: (\d+) of \1 message\(s\) from the server are valid against the 2025-11-25 schema/,
  );
  assert.match(run.stdout, /^0 problem\(s\), 0 warning\(s\)$/m);
  const modern = await cli(
    "check",
    "--schema-dir",
    SPEC,
    "--json",
    "--",
    Deno.execPath(),
    "run",
    "--allow-all",
    "--no-config",
    fixture("modern.ts"),
  );
  const report = JSON.parse(modern.stdout);
  assert.equal(modern.code, 0, JSON.stringify(report.findings));
  assert.equal(report.era, "modern");
  assert.ok(report.latenciesMs["tools/list"] >= 0);
});

Deno.test("check flags bad tool names, schemas that do not compile and off-spec messages", async () => {
  const run = await cli("check", "--schema-dir", SPEC, "--json", ...MISBEHAVING("sloppy"));
  assert.equal(run.code, 1);
  const details = (JSON.parse(run.stdout).findings as { level: string; detail: string }[])
    .filter((f) => f.level !== "ok").map((f) => f.detail).join("\n");
  assert.match(details, /"bad name!" breaks the naming guidance/);
  assert.match(details, /inputSchema of "broken" does not compile/);
  assert.match(details, /response to tools\/list: .*inputSchema/);
});

/** Runs the CLI with `input` on stdin. */
async function cliWithInput(input: string, ...args: string[]): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "cli.ts", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(input));
  await writer.close();
  const output = await child.output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test("shell runs many commands on one connection, read from stdin", async () => {
  const run = await cliWithInput(
    'tools call echo text="hello world"\n# a comment\ntools call ecko\nresources read fake://notes/3 --json\nexit\n',
    "shell",
    ...SERVER,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^hello world$/m);
  assert.match(run.stderr, /Unknown tool "ecko"; did you mean "echo"\?/);
  assert.match(run.stdout, /"text": "note 3"/);
  const piped = await cliWithInput("tools call echo text=a | cat\n", "shell", ...SERVER);
  assert.match(piped.stderr, /Operators such as \| > & ; are not supported/);
});

Deno.test("Ctrl-C cancels the call on the server and exits 130", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "cli.ts", "tools", "call", "hang", "--verbose", ...SERVER],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!/"method":"tools\/call","params":\{"name":"hang"/.test(seen)) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  child.kill("SIGINT");
  for (let r = await reader.read(); !r.done; r = await reader.read()) seen += r.value;
  const status = await child.status;
  await child.stdout.cancel();
  assert.equal(status.code, 130);
  assert.match(
    seen,
    /→ \{"jsonrpc":"2\.0","method":"notifications\/cancelled","params":\{"requestId":\d+/,
  );
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
    const found = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", `${ROOT}cli.ts`, "ping", "--server", "fake"],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(found.stderr);
    assert.equal(found.code, 0, stderr);
    assert.match(stderr, new RegExp(`Using server "fake" from ${dir}/\\.mcp\\.json`));
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
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", `${ROOT}cli.ts`, "servers", "--json"],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdin: "null",
    }).output();
    const stdout = new TextDecoder().decode(run.stdout);
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
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
