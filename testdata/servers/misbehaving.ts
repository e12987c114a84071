// A fake MCP server that breaks the protocol in one chosen way, to test the client's defences.
// Usage: deno run --allow-all testdata/servers/misbehaving.ts <mode>
// Every mode answers `initialize` and offers the tool `echo` unless its description below says
// otherwise. Unknown modes exit 2.

import {
  closeStdout,
  exit,
  type Id,
  type Incoming,
  log,
  negotiate,
  NO_RESPONSE,
  type Params,
  RpcError,
  send,
  serve,
  text,
  writeBytes,
  writeLine,
} from "./_wire.ts";

const MODES: Record<string, string> = {
  "crash": "exits with code 3 and three stderr lines on tools/call",
  "silent": "never answers a request after initialize",
  "garbage": "prints non-JSON and non-message lines before every response",
  "huge": "answers tools/call with one 50 MiB line",
  "invalid-utf8": "answers tools/call with invalid UTF-8 bytes in a string",
  "bad-ids": "answers tools/call with an unknown id, a wrong-type id, then twice",
  "early-notify": "sends notifications before the initialize response",
  "ignore-sigterm": "ignores SIGTERM and stdin EOF",
  "spawn-child": "leaves a grandchild process running after it exits",
  "unsupported-version": "answers initialize with protocolVersion 1999-01-01",
  "initialize-error": "answers initialize with a JSON-RPC error",
  "exit-immediately": "exits with code 7 before reading anything",
  "stdout-closes": "closes stdout on tools/call and lingers for 10 s",
  "chatty": "logs a message every 50 ms once initialized, with the logging capability",
  "sloppy":
    "lists a badly named tool, a schema that does not compile, one off the spec, and a tool, a prompt and a resource twice",
};

const mode = Deno.args[0] ?? "";
if (!Object.hasOwn(MODES, mode)) {
  log(`Unknown mode "${mode}": expected one of ${Object.keys(MODES).join(", ")}`);
  Deno.exit(2);
}

if (mode === "exit-immediately") {
  // Imitates a launcher that fails on missing configuration before speaking the protocol.
  log("error: missing API_KEY");
  Deno.exit(7);
}

const encoder = new TextEncoder();
const MIB = 1024 * 1024;
let childPid: number | undefined;
let initialized = false;
let stdoutClosed = false;

if (mode === "ignore-sigterm") {
  Deno.addSignalListener("SIGTERM", () => log("ignoring SIGTERM"));
  log(`pid ${Deno.pid}`);
}

if (mode === "spawn-child") {
  // Like `npx` starting the real server: a descendant the client never spawned itself. Its stdio
  // is detached by default so it cannot hold the client's pipes open; set
  // FAKE_CHILD_INHERITS_STDIO=1 to make it keep stdout and stderr like a careless wrapper.
  const inherit = Deno.env.get("FAKE_CHILD_INHERITS_STDIO") === "1";
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", "setInterval(() => {}, 1000)"],
    stdin: "null",
    stdout: inherit ? "inherit" : "null",
    stderr: inherit ? "inherit" : "null",
  }).spawn();
  child.unref();
  childPid = child.pid;
  log(`child ${child.pid}`);
}

function tools(): Params[] {
  const list: Params[] = [{
    name: "echo",
    description: "Echoes the text back.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  }];
  if (mode === "sloppy") {
    list.push(
      {
        name: "bad name!",
        description: "Breaks the naming guidance.",
        inputSchema: { type: "object" },
      },
      { name: "broken", inputSchema: { type: "object", properties: { n: { type: 12 } } } },
      { name: "schemaless", description: "Has no inputSchema, which the spec requires." },
      { name: "echo", description: "Listed again.", inputSchema: { type: "object" } },
    );
  }
  if (mode === "spawn-child") {
    list.push({
      name: "child_pid",
      description: "Returns the grandchild's pid.",
      inputSchema: { type: "object", properties: {} },
    });
  }
  return list;
}

function initialize(params: Params): Params {
  if (mode === "initialize-error") throw new RpcError(-32603, "Initialization failed");
  if (mode === "early-notify") {
    // Spec lifecycle: servers should not send anything but pings and logging before the
    // initialized notification; this mode sends even before the initialize response.
    void send({ method: "notifications/message", params: { level: "info", data: "early" } });
    void send({ method: "notifications/tools/list_changed" });
  }
  const protocolVersion = mode === "unsupported-version"
    ? "1999-01-01"
    : Deno.env.get("FAKE_PROTOCOL_VERSION") ?? negotiate(params.protocolVersion);
  initialized = true;
  return {
    protocolVersion,
    capabilities: mode === "chatty"
      ? { tools: {}, logging: {} }
      : mode === "sloppy"
      ? { tools: {}, prompts: {}, resources: {} }
      : { tools: {} },
    serverInfo: { name: `fake-${mode}`, version: "1.0.0" },
  };
}

/** A response line whose text is written around raw bytes we must not build as one string. */
function head(id: Id): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
}
const TAIL = `"}]}}`;

async function hugeResponse(id: Id): Promise<typeof NO_RESPONSE> {
  // 50 MiB as 1 MiB chunks of one reused buffer, so memory stays flat as with a real server that
  // dumps a large file. Queued without awaiting in between, so no other reply can land mid-line.
  const chunk = new Uint8Array(MIB).fill("x".charCodeAt(0));
  void writeBytes(encoder.encode(head(id)));
  for (let i = 0; i < 50; i++) void writeBytes(chunk);
  await writeBytes(encoder.encode(TAIL + "\n"));
  return NO_RESPONSE;
}

async function invalidUtf8Response(id: Id): Promise<typeof NO_RESPONSE> {
  const bytes = [
    ...encoder.encode(head(id) + "a"),
    0xff,
    0xfe,
    ...encoder.encode("b" + TAIL + "\n"),
  ];
  await writeBytes(new Uint8Array(bytes));
  return NO_RESPONSE;
}

async function badIdResponses(id: Id): Promise<typeof NO_RESPONSE> {
  // A string id that is not numeric has no natural number twin; -1 is as wrong as any.
  const numeric = Number(id);
  const otherType = typeof id === "number" ? String(id) : Number.isFinite(numeric) ? numeric : -1;
  void send({ id: 9999, result: text("unknown-id") });
  void send({ id: otherType, result: text("wrong-type") });
  void send({ id, result: text("right") });
  await send({ id, result: text("duplicate") });
  return NO_RESPONSE;
}

function fdTarget(fd: number): string | undefined {
  try {
    return Deno.readLinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Closing Deno.stdout (or its writer) leaves fd 1 open, and Deno's stdout resource holds a
 * duplicate of it (fd 19 on Linux), so the client would see EOF only at exit. Close every
 * descriptor of the stdout pipe through libc instead; /proc/self/fd finds the duplicates.
 */
function closeStdoutDescriptors(): void {
  const libc = Deno.dlopen(Deno.build.os === "darwin" ? "libSystem.B.dylib" : "libc.so.6", {
    close: { parameters: ["i32"], result: "i32" },
  });
  const target = fdTarget(1);
  const fds = [1];
  if (target === undefined) log("Cannot list descriptors: only fd 1 is closed");
  else {
    for (const entry of Deno.readDirSync("/proc/self/fd")) {
      const fd = Number(entry.name);
      if (fd > 2 && fdTarget(fd) === target) fds.push(fd);
    }
  }
  for (const fd of fds) libc.symbols.close(fd);
  libc.close();
  log(`closed stdout descriptors ${fds.join(", ")}`);
}

async function callTool(id: Id, params: Params): Promise<Params | typeof NO_RESPONSE> {
  switch (mode) {
    case "crash":
      for (let line = 1; line <= 3; line++) log(`fatal: line ${line}`);
      return Deno.exit(3);
    case "huge":
      return await hugeResponse(id);
    case "invalid-utf8":
      return await invalidUtf8Response(id);
    case "bad-ids":
      return await badIdResponses(id);
    case "stdout-closes":
      // The process lives on with its stdout gone, so the client sees EOF on stdout while the
      // process is still running; it must not wait for an exit that comes only 10 s later.
      stdoutClosed = true;
      await closeStdout();
      closeStdoutDescriptors();
      setTimeout(() => Deno.exit(0), 10_000);
      return NO_RESPONSE;
  }
  const args = (params.arguments ?? {}) as Params;
  if (params.name === "echo") return text(String(args.text ?? ""));
  if (params.name === "child_pid" && childPid !== undefined) return text(String(childPid));
  throw new RpcError(-32602, `Unknown tool: ${params.name}`);
}

function handle(
  message: Incoming & { id: Id; method: string },
): Promise<Params | typeof NO_RESPONSE> | Params | typeof NO_RESPONSE {
  const params = message.params ?? {};
  if (mode === "silent" && initialized) return NO_RESPONSE;
  switch (message.method) {
    case "initialize":
      return initialize(params);
    case "ping":
      return {};
    case "logging/setLevel":
      if (mode === "chatty") return {};
      throw new RpcError(-32601, "Method not found: logging/setLevel");
    case "tools/list":
      return { tools: tools() };
    case "tools/call":
      return callTool(message.id, params);
    case "prompts/list":
      if (mode !== "sloppy") break;
      return { prompts: [{ name: "greet" }, { name: "greet", description: "Listed again." }] };
    case "resources/list":
      if (mode !== "sloppy") break;
      return {
        resources: [{ uri: "file:///a.txt", name: "a" }, { uri: "file:///a.txt", name: "again" }],
      };
    case "resources/templates/list":
      if (mode !== "sloppy") break;
      return { resourceTemplates: [] };
  }
  throw new RpcError(-32601, `Method not found: ${message.method}`);
}

/** Noise that npm scripts and careless servers print on stdout. */
async function garbage(): Promise<void> {
  for (const line of ["Starting server...", "{not json", `{"hello":1}`, "[1,2]"]) {
    await writeLine(line);
  }
}

let chatter: ReturnType<typeof setInterval> | undefined;
await serve({
  onRequest: async (message) => await handle(message),
  onNotification: (note) => {
    if (mode !== "chatty" || note.method !== "notifications/initialized") return;
    log("chatty: started ticking");
    let count = 0;
    chatter = setInterval(() => {
      void send({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", logger: "chatty", data: `tick ${++count}` },
      });
    }, 50);
  },
  ...(mode === "garbage" ? { beforeResponse: garbage } : {}),
});

clearInterval(chatter);
if (mode === "ignore-sigterm") {
  // Stdin EOF is ignored too: only SIGKILL ends this process.
  setInterval(() => {}, 60_000);
} else if (!stdoutClosed) {
  await exit(0);
} // else the 10 s timer of stdout-closes ends the process, whatever the client does.
