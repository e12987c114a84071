import assert from "node:assert/strict";
import {
  Client,
  ConnectionClosedError,
  type Diagnostic,
  type LogMessage,
  ProtocolError,
  StdioTransport,
  TimeoutError,
  TransportError,
} from "../../mod.ts";
import { connectFake, fakeServer, rejectsWith } from "../_helpers.ts";

/** Whether a process is running (a zombie is not: it has exited but was not reaped). */
function isRunning(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((c) => c.text ?? "").join("");
}

Deno.test("start() fails with a clear error when the command is not on PATH", async () => {
  const transport = new StdioTransport({ command: "mcp-inspect-no-such-command", name: "ghost" });
  const error = await rejectsWith(Client.connect(transport), TransportError);
  assert.match(
    error.message,
    /Cannot start server "ghost": command "mcp-inspect-no-such-command" not found on PATH/,
  );
});

Deno.test("a server that exits at start fails connect() with its exit code and stderr", async () => {
  const error = await rejectsWith(
    Client.connect(new StdioTransport(fakeServer("misbehaving.ts", ["exit-immediately"]))),
    ConnectionClosedError,
  );
  assert.equal(error.exitCode, 7);
  assert.ok(error.stderrTail.some((line) => line.includes("missing API_KEY")));
  assert.match(error.message, /exit code 7/);
  assert.match(error.message, /missing API_KEY/);
});

Deno.test("the server sees only allowlisted variables plus its configured env", async () => {
  Deno.env.set("MCP_INSPECT_TEST_SECRET", "hunter2");
  try {
    await using fx = await connectFake("everything.ts", [], {
      transport: { env: { GIVEN: "yes" } },
    });
    const get = async (name: string) =>
      JSON.parse(textOf(await fx.client.callTool("env", { name }))).value;
    assert.equal(await get("MCP_INSPECT_TEST_SECRET"), null);
    assert.equal(await get("GIVEN"), "yes");
    assert.equal(await get("PATH"), Deno.env.get("PATH"));
  } finally {
    Deno.env.delete("MCP_INSPECT_TEST_SECRET");
  }
});

Deno.test("inheritEnv passes the whole environment", async () => {
  Deno.env.set("MCP_INSPECT_TEST_SECRET", "hunter2");
  try {
    await using fx = await connectFake("everything.ts", [], { transport: { inheritEnv: true } });
    const result = await fx.client.callTool("env", { name: "MCP_INSPECT_TEST_SECRET" });
    assert.equal(JSON.parse(textOf(result)).value, "hunter2");
  } finally {
    Deno.env.delete("MCP_INSPECT_TEST_SECRET");
  }
});

Deno.test("cwd sets the server's working directory", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    await using fx = await connectFake("everything.ts", [], { transport: { cwd: dir } });
    assert.equal(textOf(await fx.client.callTool("cwd", {})), dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("callTool() rejects at once with exit code and stderr when the server crashes mid-call", async () => {
  const lines: string[] = [];
  await using fx = await connectFake("misbehaving.ts", ["crash"], {
    transport: { stderr: (line) => lines.push(line) },
  });
  const error = await rejectsWith(fx.client.callTool("echo", { text: "x" }), ConnectionClosedError);
  assert.equal(error.exitCode, 3);
  assert.deepStrictEqual(error.stderrTail.slice(-3), [
    "fatal: line 1",
    "fatal: line 2",
    "fatal: line 3",
  ]);
  assert.ok(lines.includes("fatal: line 3"));
  await rejectsWith(fx.client.ping(), ConnectionClosedError);
});

Deno.test("stderr: ignore keeps no tail", async () => {
  await using fx = await connectFake("misbehaving.ts", ["crash"], {
    transport: { stderr: "ignore" },
  });
  const error = await rejectsWith(fx.client.callTool("echo", { text: "x" }), ConnectionClosedError);
  assert.deepStrictEqual(error.stderrTail, []);
});

Deno.test("non-JSON lines on stdout are skipped and reported, not fatal", async () => {
  const diagnostics: Diagnostic[] = [];
  await using fx = await connectFake("misbehaving.ts", ["garbage"], {
    transport: { onDiagnostic: (d) => diagnostics.push(d) },
  });
  assert.equal(textOf(await fx.client.callTool("echo", { text: "still works" })), "still works");
  assert.ok(diagnostics.some((d) => d.kind === "non-json-line" && d.data === "Starting server..."));
  assert.ok(diagnostics.some((d) => d.kind === "invalid-message" && d.data === '{"hello":1}'));
});

Deno.test("a line over the size limit fails the connection without buffering it", async () => {
  await using fx = await connectFake("misbehaving.ts", ["huge"], {
    transport: { maxMessageBytes: 1024 * 1024 },
  });
  const before = Deno.memoryUsage().rss;
  const error = await rejectsWith(fx.client.callTool("echo", { text: "x" }), ConnectionClosedError);
  assert.ok(error.cause instanceof ProtocolError, String(error.cause));
  assert.match(error.message, /exceeds the 1 MiB limit/);
  const grown = Deno.memoryUsage().rss - before;
  assert.ok(grown < 40 * 1024 * 1024, `memory grew by ${grown} bytes reading a 50 MiB line`);
});

Deno.test("invalid UTF-8 from the server is replaced, not a hang", async () => {
  await using fx = await connectFake("misbehaving.ts", ["invalid-utf8"]);
  const text = textOf(await fx.client.callTool("echo", { text: "x" }));
  assert.match(text, /a\uFFFD+b/);
});

Deno.test("unknown, wrongly typed and duplicate response ids are dropped and reported", async () => {
  const diagnostics: Diagnostic[] = [];
  await using fx = await connectFake("misbehaving.ts", ["bad-ids"], {
    onDiagnostic: (d) => diagnostics.push(d),
  });
  assert.equal(textOf(await fx.client.callTool("echo", { text: "x" })), "right");
  await fx.client.ping().catch(() => {}); // let the trailing duplicate arrive
  const unknown = diagnostics.filter((d) => d.kind === "unknown-response");
  assert.ok(unknown.length >= 2, JSON.stringify(diagnostics));
});

Deno.test("notifications sent before the initialize response reach listeners given at connect", async () => {
  const logs: LogMessage[] = [];
  let listChanged = 0;
  await using fx = await connectFake("misbehaving.ts", ["early-notify"], {
    listeners: { log: (m) => logs.push(m), toolsListChanged: () => listChanged++ },
  });
  assert.ok(fx.client.serverInfo.name.length > 0);
  assert.deepStrictEqual(logs.map((m) => m.data), ["early"]);
  assert.equal(listChanged, 1);
});

Deno.test("a server that never answers times out, and close() still ends it", async () => {
  await using fx = await connectFake("misbehaving.ts", ["silent"]);
  const error = await rejectsWith(
    fx.client.callTool("echo", { text: "x" }, { timeoutMs: 100 }),
    TimeoutError,
  );
  assert.equal(error.method, "tools/call");
});

Deno.test("a server that closes stdout but keeps running fails pending calls promptly", async () => {
  await using fx = await connectFake("misbehaving.ts", ["stdout-closes"], {
    transport: { closeStepMs: 200 },
  });
  await rejectsWith(fx.client.callTool("echo", { text: "x" }), ConnectionClosedError);
});

Deno.test("close() escalates to SIGKILL for a server that ignores stdin EOF and SIGTERM", async () => {
  const transport = new StdioTransport(
    fakeServer("misbehaving.ts", ["ignore-sigterm"], { closeStepMs: 200 }),
  );
  const client = await Client.connect(transport);
  const pid = transport.pid!;
  assert.ok(isRunning(pid));
  await client.close();
  assert.equal(isRunning(pid), false);
  await client.close(); // idempotent
});

Deno.test("close() ends the processes a server started, not only the server", async () => {
  const transport = new StdioTransport(
    fakeServer("misbehaving.ts", ["spawn-child"], { closeStepMs: 500 }),
  );
  const client = await Client.connect(transport);
  const child = Number(textOf(await client.callTool("child_pid", {})));
  assert.ok(Number.isInteger(child) && isRunning(child), `grandchild ${child} should run`);
  await client.close();
  assert.equal(isRunning(child), false, `grandchild ${child} survived close()`);
});

Deno.test("requests after close() reject with ConnectionClosedError", async () => {
  const fx = await connectFake("everything.ts");
  await fx[Symbol.asyncDispose]();
  await rejectsWith(fx.client.callTool("echo", { text: "x" }), ConnectionClosedError);
});
