// Proves the fake servers in testdata/servers behave as documented, by speaking raw JSON lines to
// them. No client code is involved, so a failure here points at a fake, not at the client.

import assert from "node:assert/strict";

type Json = Record<string, unknown>;

const INITIALIZE_PARAMS: Json = {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "smoke", version: "0.0.0" },
};

/** A fake server process with line-level access to its stdio. */
class Fake implements AsyncDisposable {
  readonly child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reader: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>>;
  #buffer: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  #stderr = "";
  #stderrDone: Promise<void>;
  #stdinClosed = false;

  constructor(file: string, args: string[] = [], env: Record<string, string> = {}) {
    const path = new URL(`../testdata/servers/${file}`, import.meta.url).pathname;
    this.child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", path, ...args],
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.child.stdin.getWriter();
    this.#reader = this.child.stdout.getReader();
    const stderr = this.child.stderr.pipeThrough(new TextDecoderStream());
    this.#stderrDone = (async () => {
      for await (const text of stderr) this.#stderr += text;
    })();
  }

  get stderr(): string {
    return this.#stderr;
  }

  /** Writes each message as one JSON line, in a single write. */
  async send(...messages: Json[]): Promise<void> {
    const lines = messages.map((message) => JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
    await this.#writer.write(new TextEncoder().encode(lines.join("")));
  }

  /** The next stdout line as raw bytes, or undefined at EOF. Linear even for huge lines. */
  async readLine(): Promise<Uint8Array | undefined> {
    const parts: Uint8Array<ArrayBuffer>[] = [];
    while (true) {
      const index = this.#buffer.indexOf(0x0a);
      if (index >= 0) {
        parts.push(this.#buffer.subarray(0, index));
        this.#buffer = this.#buffer.subarray(index + 1);
        return new Uint8Array(await new Blob(parts).arrayBuffer());
      }
      if (this.#buffer.length > 0) parts.push(this.#buffer);
      const { value, done } = await this.#reader.read();
      if (done) {
        this.#buffer = new Uint8Array(0);
        return parts.length > 0 ? new Uint8Array(await new Blob(parts).arrayBuffer()) : undefined;
      }
      this.#buffer = value;
    }
  }

  async nextText(): Promise<string> {
    const line = await this.readLine();
    assert.ok(line, `Unexpected EOF on stdout; stderr: ${this.#stderr}`);
    return new TextDecoder().decode(line);
  }

  async next(): Promise<Json> {
    return JSON.parse(await this.nextText());
  }

  async initialize(params: Json = INITIALIZE_PARAMS): Promise<Json> {
    await this.send({ id: 0, method: "initialize", params });
    const response = await this.next();
    await this.send({ method: "notifications/initialized" });
    return response;
  }

  /** Sends tools/call; `params` adds fields such as `_meta`. */
  call(id: number | string, name: string, args: Json = {}, params: Json = {}): Promise<void> {
    return this.send({ id, method: "tools/call", params: { name, arguments: args, ...params } });
  }

  async result(): Promise<Json> {
    return (await this.next()).result as Json;
  }

  /** Polls stderr, which arrives asynchronously, until it contains `text`. */
  async waitForStderr(pattern: RegExp): Promise<RegExpMatchArray> {
    for (let i = 0; i < 250; i++) {
      const match = this.#stderr.match(pattern);
      if (match) return match;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`Stderr never matched ${pattern}: ${this.#stderr}`);
  }

  /** True when the process is still running `ms` later. */
  async aliveAfter(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const alive = new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(true), ms));
    const result = await Promise.race([alive, this.child.status.then(() => false)]);
    clearTimeout(timer);
    return result;
  }

  /** Idempotent; the process may be gone already (exit-immediately), leaving a broken pipe. */
  async closeStdin(): Promise<void> {
    if (this.#stdinClosed) return;
    this.#stdinClosed = true;
    await this.#writer.close().catch(() => {});
  }

  /** Closes stdin and waits for the exit, releasing every stream so sanitizers stay quiet. */
  async finish(): Promise<Deno.CommandStatus> {
    await this.closeStdin();
    const status = await this.child.status;
    await this.#reader.cancel();
    await this.#stderrDone;
    return status;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (await this.aliveAfter(0)) {
      try {
        this.child.kill("SIGKILL");
      } catch { /* exited meanwhile */ }
    }
    await this.finish();
  }
}

/** The text of the first content block of a tools/call response. */
function toolText(response: Json): string {
  const result = response.result as { content: { text: string }[] };
  return result.content[0]!.text;
}

Deno.test("everything.ts negotiates the version and echoes ids with their type", async () => {
  await using fake = new Fake("everything.ts");
  await fake.send({
    id: "init-1",
    method: "initialize",
    params: { ...INITIALIZE_PARAMS, protocolVersion: "2025-06-18" },
  });
  const init = await fake.next();
  assert.equal(init.id, "init-1");
  assert.deepEqual((init.result as Json).protocolVersion, "2025-06-18");
  assert.deepEqual((init.result as Json).serverInfo, { name: "fake-everything", version: "1.0.0" });
  // A notification gets no answer, so the next line must be the ping's.
  await fake.send({ method: "notifications/initialized" }, { id: 0, method: "ping" });
  assert.deepEqual(await fake.next(), { jsonrpc: "2.0", id: 0, result: {} });
  await fake.send({ id: "7", method: "nope" });
  assert.deepEqual(await fake.next(), {
    jsonrpc: "2.0",
    id: "7",
    error: { code: -32601, message: "Method not found: nope" },
  });
  assert.equal((await fake.finish()).code, 0);
});

Deno.test("everything.ts pages tools/list and rejects a bad cursor", async () => {
  await using fake = new Fake("everything.ts");
  await fake.initialize();
  const names: string[] = [];
  let cursor: unknown;
  for (let id = 1; id < 50; id++) {
    await fake.send({ id, method: "tools/list", params: cursor === undefined ? {} : { cursor } });
    const result = (await fake.next()).result as { tools: { name: string }[]; nextCursor?: string };
    assert.ok(result.tools.length <= 2);
    names.push(...result.tools.map((tool) => tool.name));
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  assert.equal(names.length, 19);
  assert.ok(names.includes("echo") && names.includes("cwd"));
  await fake.send({ id: 99, method: "tools/list", params: { cursor: "not-a-cursor" } });
  assert.equal(((await fake.next()).error as Json).code, -32602);
});

Deno.test("everything.ts calls tools, reports progress and honours cancellation", async () => {
  await using fake = new Fake("everything.ts");
  await fake.initialize();
  await fake.call(1, "add", { a: 2, b: 3 });
  assert.deepEqual((await fake.result()).structuredContent, { sum: 5 });
  await fake.call(2, "error");
  assert.deepEqual((await fake.next()).error, {
    code: -32001,
    message: "Tool exploded",
    data: { detail: "x" },
  });
  await fake.call(3, "slow", { steps: 2, delayMs: 1 }, { _meta: { progressToken: "t" } });
  for (const progress of [1, 2]) {
    const message = `step ${progress}`;
    assert.deepEqual(await fake.next(), {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "t", progress, total: 2, message },
    });
  }
  assert.equal(toolText(await fake.next()), "done after 2 steps");
  await fake.send(
    { id: 4, method: "tools/call", params: { name: "hang", arguments: {} } },
    { method: "notifications/cancelled", params: { requestId: 4, reason: "Timed out" } },
    { id: 5, method: "ping" },
  );
  assert.equal((await fake.next()).id, 5);
  assert.equal((await fake.finish()).code, 0);
  assert.match(fake.stderr, /cancelled 4 Timed out/);
});

Deno.test("everything.ts sends requests to the client and awaits the answers", async () => {
  await using fake = new Fake("everything.ts");
  await fake.initialize({ ...INITIALIZE_PARAMS, protocolVersion: "2025-06-18" });
  await fake.call(1, "sample", { prompt: "hi" });
  const sampling = await fake.next();
  assert.equal(sampling.id, "s1");
  assert.equal(sampling.method, "sampling/createMessage");
  const reply = { role: "assistant", content: { type: "text", text: "hello" }, model: "m" };
  await fake.send({ id: "s1", result: reply });
  assert.deepEqual(JSON.parse(toolText(await fake.next())), reply);
  // 2025-06-18 predates the elicitation `mode` field.
  await fake.call(2, "elicit");
  const elicitation = await fake.next();
  assert.equal(elicitation.id, "s2");
  assert.equal((elicitation.params as Json).mode, undefined);
  await fake.send({ id: "s2", error: { code: -1, message: "User said no" } });
  const refused = await fake.result();
  assert.equal(refused.isError, true);
  assert.equal(toolText({ result: refused }), "User said no");
});

const GREET_ARGS: Json = { name: "Ada", style: "formal" };
const STYLE_COMPLETION: Json = {
  ref: { type: "ref/prompt", name: "greet" },
  argument: { name: "style", value: "f" },
};

Deno.test("everything.ts serves resources, prompts and completions", async () => {
  await using fake = new Fake("everything.ts", [], { FAKE_PROTOCOL_VERSION: "2024-11-05" });
  assert.equal(((await fake.initialize()).result as Json).protocolVersion, "2024-11-05");
  await fake.send(
    { id: 1, method: "resources/read", params: { uri: "fake://notes/42" } },
    { id: 2, method: "resources/read", params: { uri: "fake://missing" } },
    { id: 3, method: "prompts/get", params: { name: "greet", arguments: GREET_ARGS } },
    { id: 4, method: "completion/complete", params: STYLE_COMPLETION },
  );
  assert.deepEqual(await fake.result(), {
    contents: [{ uri: "fake://notes/42", mimeType: "text/plain", text: "note 42" }],
  });
  assert.deepEqual((await fake.next()).error, {
    code: -32002,
    message: "Resource not found",
    data: { uri: "fake://missing" },
  });
  const prompt = (await fake.next()).result as { messages: { content: { text: string } }[] };
  assert.equal(prompt.messages[0]!.content.text, "Hello Ada, in a formal style");
  assert.deepEqual((await fake.result()).completion, {
    values: ["formal", "friendly", "funny"],
    total: 3,
    hasMore: false,
  });
});

Deno.test("fast.ts answers a batch of calls in order", async () => {
  await using fake = new Fake("fast.ts");
  const serverInfo = ((await fake.initialize()).result as Json).serverInfo;
  assert.deepEqual(serverInfo, { name: "fast", version: "1.0.0" });
  const calls = Array.from({ length: 100 }, (_, id) => ({
    id: id + 1,
    method: "tools/call",
    params: { name: "echo", arguments: { text: `t${id + 1}` } },
  }));
  await fake.send(...calls);
  for (const call of calls) {
    const response = await fake.next();
    assert.equal(response.id, call.id);
    assert.equal(toolText(response), `t${call.id}`);
  }
  assert.equal((await fake.finish()).code, 0);
});

Deno.test("misbehaving.ts crash and exit-immediately exit with codes and stderr", async () => {
  await using crash = new Fake("misbehaving.ts", ["crash"]);
  await crash.initialize();
  await crash.call(1, "echo", { text: "hi" });
  assert.equal(await crash.readLine(), undefined);
  assert.equal((await crash.finish()).code, 3);
  assert.match(crash.stderr, /fatal: line 1\nfatal: line 2\nfatal: line 3/);
  await using early = new Fake("misbehaving.ts", ["exit-immediately"]);
  assert.equal((await early.finish()).code, 7);
  assert.match(early.stderr, /error: missing API_KEY/);
});

Deno.test("misbehaving.ts silent answers nothing after initialize", async () => {
  await using fake = new Fake("misbehaving.ts", ["silent"]);
  assert.ok((await fake.initialize()).result);
  await fake.send({ id: 1, method: "ping" });
  await fake.closeStdin();
  assert.equal(await fake.readLine(), undefined);
  assert.equal((await fake.finish()).code, 0);
});

Deno.test("misbehaving.ts garbage prints noise before each response", async () => {
  await using fake = new Fake("misbehaving.ts", ["garbage"]);
  await fake.send({ id: 1, method: "initialize", params: INITIALIZE_PARAMS });
  for (const noise of ["Starting server...", "{not json", `{"hello":1}`, "[1,2]"]) {
    assert.equal(await fake.nextText(), noise);
  }
  assert.equal((await fake.next()).id, 1);
});

Deno.test("misbehaving.ts huge writes a 50 MiB line", async () => {
  await using fake = new Fake("misbehaving.ts", ["huge"]);
  await fake.initialize();
  await fake.call(1, "echo", { text: "hi" });
  const line = await fake.readLine();
  assert.ok(line);
  assert.ok(line.length > 50 * 1024 * 1024);
  assert.equal(toolText(JSON.parse(new TextDecoder().decode(line))).length, 50 * 1024 * 1024);
  assert.equal(await fake.aliveAfter(100), true);
});

Deno.test("misbehaving.ts invalid-utf8 writes raw invalid bytes", async () => {
  await using fake = new Fake("misbehaving.ts", ["invalid-utf8"]);
  await fake.initialize();
  await fake.call(1, "echo", { text: "hi" });
  const line = await fake.readLine();
  assert.ok(line?.includes(0xff) && line.includes(0xfe));
  assert.throws(() => new TextDecoder("utf-8", { fatal: true }).decode(line));
});

Deno.test("misbehaving.ts bad-ids sends unknown, wrong-type, right and duplicate ids", async () => {
  await using fake = new Fake("misbehaving.ts", ["bad-ids"]);
  await fake.initialize();
  await fake.call(5, "echo", { text: "hi" });
  const expected = [[9999, "unknown-id"], ["5", "wrong-type"], [5, "right"], [5, "duplicate"]];
  for (const [id, text] of expected) {
    const response = await fake.next();
    assert.deepEqual([response.id, toolText(response)], [id, text]);
  }
});

Deno.test("misbehaving.ts early-notify notifies before the initialize response", async () => {
  await using fake = new Fake("misbehaving.ts", ["early-notify"]);
  await fake.send({ id: 1, method: "initialize", params: INITIALIZE_PARAMS });
  assert.deepEqual((await fake.next()).params, { level: "info", data: "early" });
  assert.equal((await fake.next()).method, "notifications/tools/list_changed");
  assert.equal((await fake.next()).id, 1);
});

Deno.test("misbehaving.ts answers initialize badly in two modes", async () => {
  await using unsupported = new Fake("misbehaving.ts", ["unsupported-version"]);
  assert.equal(((await unsupported.initialize()).result as Json).protocolVersion, "1999-01-01");
  await using failing = new Fake("misbehaving.ts", ["initialize-error"]);
  assert.deepEqual((await failing.initialize()).error, {
    code: -32603,
    message: "Initialization failed",
  });
});

Deno.test("misbehaving.ts ignore-sigterm survives SIGTERM and stdin EOF", async () => {
  await using fake = new Fake("misbehaving.ts", ["ignore-sigterm"]);
  await fake.waitForStderr(/pid \d+/);
  await fake.initialize();
  fake.child.kill("SIGTERM");
  await fake.send({ id: 1, method: "ping" });
  assert.equal((await fake.next()).id, 1);
  await fake.closeStdin();
  assert.equal(await fake.aliveAfter(300), true);
  fake.child.kill("SIGKILL");
  assert.equal((await fake.finish()).signal, "SIGKILL");
});

Deno.test("misbehaving.ts spawn-child exits 0 and leaves its grandchild running", async () => {
  await using fake = new Fake("misbehaving.ts", ["spawn-child"]);
  const pid = Number((await fake.waitForStderr(/child (\d+)/))[1]);
  await fake.initialize();
  await fake.call(1, "child_pid");
  assert.equal(toolText(await fake.next()), String(pid));
  assert.equal((await fake.finish()).code, 0);
  // Killing succeeds only if the grandchild outlived its parent; it also cleans up.
  Deno.kill(pid, "SIGKILL");
});

Deno.test("misbehaving.ts stdout-closes closes stdout but keeps running", async () => {
  await using fake = new Fake("misbehaving.ts", ["stdout-closes"]);
  await fake.initialize();
  await fake.call(1, "echo", { text: "hi" });
  assert.equal(await fake.readLine(), undefined);
  assert.equal(await fake.aliveAfter(300), true);
});
