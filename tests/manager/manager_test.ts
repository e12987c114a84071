import assert from "node:assert/strict";
import { StdioTransport } from "../../mod.ts";
import {
  type ManagerEvents,
  type ServerConfig,
  ServerManager,
  type ServerStatus,
  ServerUnavailableError,
  SkillDeniedError,
  ToolDeniedError,
  UnknownToolError,
} from "../../src/manager/mod.ts";
import { fakeServer, rejectsWith } from "../_helpers.ts";

function fake(name: string, extra: Partial<ServerConfig> = {}): ServerConfig {
  const { command, args } = fakeServer(name);
  return { command, args: [...args!], ...extra } as ServerConfig;
}

const BROKEN: ServerConfig = { command: "/nonexistent/mcp-inspect-test-server" };

/** Options that keep tests quick: fast retries, no background pings unless a test wants them. */
const QUICK = {
  healthIntervalMs: 0,
  reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
  waitTimeoutMs: 10_000,
} as const;

function status(manager: ServerManager, name: string): ServerStatus {
  const found = manager.servers().find((s) => s.name === name);
  assert.ok(found, `no server ${name}`);
  return found;
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    return !Deno.readTextFileSync(`/proc/${pid}/stat`).split(" ")[2]!.startsWith("Z");
  } catch {
    return false;
  }
}

/** Resolves with the first event of a kind that satisfies `test`. */
function next<K extends keyof ManagerEvents>(
  manager: ServerManager,
  event: K,
  test: (payload: ManagerEvents[K]) => boolean = () => true,
): Promise<ManagerEvents[K]> {
  return new Promise((resolve) => {
    const off = manager.on(event, (payload) => {
      if (!test(payload)) return;
      off();
      resolve(payload);
    });
  });
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

Deno.test("setServers() readies every good server even when one fails to start", async () => {
  await using manager = new ServerManager(QUICK);
  const result = await manager.setServers({
    rich: fake("everything.ts"),
    fast: fake("fast.ts"),
    broken: BROKEN,
  });
  assert.deepEqual(result.started.sort(), ["broken", "fast", "rich"]);
  assert.deepEqual(Object.keys(result.failed), ["broken"]);
  assert.equal(status(manager, "rich").state, "ready");
  assert.equal(status(manager, "fast").state, "ready");
  assert.equal(status(manager, "rich").era, "legacy");
  assert.equal(status(manager, "rich").protocolVersion, "2025-11-25");
  const broken = status(manager, "broken");
  assert.ok(broken.state === "failed" || broken.state === "connecting");
  assert.match(broken.lastError!.message, /nonexistent/);

  const names = manager.allTools().map((t) => t.qualifiedName);
  assert.ok(names.includes("mcp__rich__echo") && names.includes("mcp__fast__echo"));
  assert.equal(names.filter((n) => n.startsWith("mcp__broken__")).length, 0);
  assert.equal(manager.findTool("mcp__fast__echo")?.server, "fast");
  assert.equal(textOf(await manager.callTool("mcp__fast__echo", { text: "hi" })), "hi");
  assert.equal(textOf(await manager.callTool("rich", "echo", { text: "yo" })), "yo");
  const add = await manager.callTool("mcp__rich__add", { a: 2, b: 3 });
  assert.deepEqual(add.structuredContent, { sum: 5 });
  assert.ok(manager.allResources().some((r) => r.server === "rich"));
  assert.ok(manager.allPrompts().some((p) => p.qualifiedName === "mcp__rich__greet"));
  const prompt = await manager.getPrompt("mcp__rich__greet", { name: "Ada" });
  assert.ok(prompt.messages.length > 0);
  const read = await manager.readResource("fake://docs/readme");
  assert.ok(read.contents.length > 0);

  const error = await rejectsWith(
    manager.callTool("broken", "anything", {}, { whileReconnecting: "fail" }),
    ServerUnavailableError,
  );
  assert.equal(error.server, "broken");
  await rejectsWith(manager.callTool("mcp__nobody__echo"), UnknownToolError);
  await rejectsWith(manager.callTool("nobody", "echo"), ServerUnavailableError);
  // A server that never listed its tools: its state answers, whichever way the tool is named.
  const qualified = await rejectsWith(
    manager.callTool("mcp__broken__anything", {}, { whileReconnecting: "fail" }),
    ServerUnavailableError,
  );
  assert.equal(qualified.server, "broken");
  const unlisted = await rejectsWith(
    manager.getPrompt("mcp__broken__greet", {}, { whileReconnecting: "fail" }),
    ServerUnavailableError,
  );
  assert.equal(unlisted.server, "broken");
  // A ready server answers for its own names: a tool it does not have is unknown.
  await rejectsWith(manager.callTool("mcp__fast__nothing"), UnknownToolError);
});

Deno.test("a qualified name waits for its server's first connection, then calls the tool", async () => {
  await using manager = new ServerManager(QUICK);
  const connecting = manager.connect("late", fake("fast.ts"));
  const result = await manager.callTool("mcp__late__echo", { text: "after" });
  assert.equal(textOf(result), "after");
  await connecting;
});

Deno.test("a disabled server's qualified names say it is disabled, not unknown", async () => {
  await using manager = new ServerManager(QUICK);
  await manager.connect("off", { ...fake("fast.ts"), disabled: true });
  const error = await rejectsWith(manager.callTool("mcp__off__echo", {}), ServerUnavailableError);
  assert.equal(error.state, "disabled");
});

Deno.test("setServers() keeps unchanged servers, restarts changed ones and stops removed ones", async () => {
  await using manager = new ServerManager(QUICK);
  await manager.setServers({ a: fake("fast.ts"), b: fake("fast.ts"), c: fake("fast.ts") });
  const before = Object.fromEntries(manager.servers().map((s) => [s.name, s.pid]));
  assert.ok(Object.values(before).every(alive));

  const result = await manager.setServers({
    a: fake("fast.ts"),
    b: fake("fast.ts", { env: { CHANGED: "1" } }),
    d: fake("fast.ts", { deny: ["nothing"] }),
  });
  assert.deepEqual(result, {
    started: ["d"],
    restarted: ["b"],
    stopped: ["c"],
    updated: [],
    unchanged: ["a"],
    failed: {},
  });
  assert.equal(status(manager, "a").pid, before.a);
  assert.notEqual(status(manager, "b").pid, before.b);
  assert.ok(alive(status(manager, "b").pid));
  assert.ok(!alive(before.b), "the old process of b is gone");
  assert.ok(!alive(before.c), "the process of c is gone");
  assert.deepEqual(manager.servers().map((s) => s.name).sort(), ["a", "b", "d"]);

  // A policy change applies in place: same process.
  const dPid = status(manager, "d").pid;
  const update = await manager.setServers({
    a: fake("fast.ts"),
    b: fake("fast.ts", { env: { CHANGED: "1" } }),
    d: fake("fast.ts", { deny: ["echo"] }),
  });
  assert.deepEqual(update.updated, ["d"]);
  assert.equal(status(manager, "d").pid, dPid);
  assert.equal(manager.findTool("mcp__d__echo"), undefined);

  const pids = manager.servers().map((s) => s.pid);
  await manager.close();
  assert.ok(pids.every((pid) => !alive(pid)), "close() leaves no process behind");
  assert.deepEqual(manager.servers(), []);
});

Deno.test("a killed server is reconnected and calls succeed again", async () => {
  await using manager = new ServerManager(QUICK);
  await manager.connect("fast", fake("fast.ts"));
  const pid = status(manager, "fast").pid!;
  const failed = next(manager, "stateChanged", (s) => s.state === "failed");
  const ready = next(manager, "stateChanged", (s) => s.state === "ready");
  Deno.kill(pid, "SIGKILL");
  assert.ok((await failed).lastError);
  // A call made while the server is down waits for the reconnection.
  const during = manager.callTool("mcp__fast__echo", { text: "waited" });
  await ready;
  assert.equal(textOf(await during), "waited");
  const now = status(manager, "fast");
  assert.equal(now.state, "ready");
  assert.equal(now.reconnects, 1);
  assert.notEqual(now.pid, pid);
  assert.equal(textOf(await manager.callTool("mcp__fast__echo", { text: "again" })), "again");
});

Deno.test('whileReconnecting: "fail" fails fast while a server is down', async () => {
  await using manager = new ServerManager({ ...QUICK, reconnect: { initialDelayMs: 300 } });
  await manager.connect("fast", fake("fast.ts"));
  const failed = next(manager, "stateChanged", (s) => s.state === "failed");
  Deno.kill(status(manager, "fast").pid!, "SIGKILL");
  await failed;
  const error = await rejectsWith(
    manager.callTool("mcp__fast__echo", { text: "x" }, { whileReconnecting: "fail" }),
    ServerUnavailableError,
  );
  assert.equal(error.state, "failed");
  const bounded = await rejectsWith(
    manager.callTool("mcp__fast__echo", { text: "x" }, { waitTimeoutMs: 20 }),
    ServerUnavailableError,
  );
  assert.match(bounded.message, /did not become ready within 20 ms/);
  await next(manager, "stateChanged", (s) => s.state === "ready");
});

Deno.test("a server that stops answering fails its liveness check and is restarted", async () => {
  await using manager = new ServerManager({
    ...QUICK,
    healthIntervalMs: 100,
    healthTimeoutMs: 200,
    createTransport: (name, config) =>
      new StdioTransport({ ...(config as { command: string }), name, closeStepMs: 100 }),
  });
  await manager.connect("fast", fake("fast.ts"));
  const pid = status(manager, "fast").pid!;
  const failed = next(manager, "stateChanged", (s) => s.state === "failed");
  Deno.kill(pid, "SIGSTOP");
  const down = await failed;
  assert.match(down.lastError!.message, /failed its liveness check/);
  await next(manager, "stateChanged", (s) => s.state === "ready");
  assert.notEqual(status(manager, "fast").pid, pid);
  assert.equal(textOf(await manager.callTool("mcp__fast__echo", { text: "ok" })), "ok");
});

Deno.test("deny and allow lists hide tools and refuse them without contacting the server", async () => {
  await using manager = new ServerManager(QUICK);
  await manager.setServers({
    rich: fake("everything.ts", { deny: ["ec*", "fail"] }),
    only: fake("everything.ts", { allow: ["add", "e*"], deny: ["error"] }),
    down: { ...BROKEN, deny: ["danger_*"] },
  });
  const rich = manager.allTools().filter((t) => t.server === "rich").map((t) => t.tool.name);
  assert.ok(!rich.includes("echo") && !rich.includes("fail") && rich.includes("add"));
  const only = manager.allTools().filter((t) => t.server === "only").map((t) => t.tool.name);
  assert.deepEqual(only.sort(), ["add", "elicit", "elicit_url", "env", "echo"].sort());

  const denied = await rejectsWith(
    manager.callTool("mcp__rich__echo", { text: "x" }),
    ToolDeniedError,
  );
  assert.equal(
    denied.message,
    `Tool "echo" of server "rich" is refused: it matches the deny list ("ec*")`,
  );
  assert.ok(!(denied instanceof SkillDeniedError), "a refused tool is not called a skill");
  const notAllowed = await rejectsWith(manager.callTool("only", "fail"), ToolDeniedError);
  assert.equal(notAllowed.rule, "allow");
  // The server is down, so only a refusal that never contacts it can answer this fast.
  const offline = await rejectsWith(manager.callTool("down", "danger_zone"), ToolDeniedError);
  assert.equal(offline.pattern, "danger_*");
});

Deno.test("toggle() hides and restores a server's tools without reconnecting", async () => {
  await using manager = new ServerManager(QUICK);
  await manager.setServers({ rich: fake("everything.ts"), fast: fake("fast.ts") });
  const pid = status(manager, "rich").pid;
  const hidden = next(manager, "toolsChanged", (e) => e.servers.includes("rich"));
  await manager.toggle("rich", false);
  await hidden;
  assert.equal(status(manager, "rich").state, "disabled");
  assert.equal(manager.allTools().filter((t) => t.server === "rich").length, 0);
  assert.equal(manager.allResources().length, 0);
  assert.equal(manager.allPrompts().length, 0);
  const error = await rejectsWith(
    manager.callTool("mcp__rich__echo", { text: "x" }),
    ServerUnavailableError,
  );
  assert.equal(error.state, "disabled");
  assert.ok(alive(pid), "the connection stays open");

  await manager.toggle("rich", true);
  assert.equal(status(manager, "rich").state, "ready");
  assert.equal(status(manager, "rich").pid, pid);
  assert.equal(textOf(await manager.callTool("mcp__rich__echo", { text: "back" })), "back");
});

Deno.test("a server disabled in its config starts only when toggled on", async () => {
  await using manager = new ServerManager(QUICK);
  await manager.setServers({ off: fake("fast.ts", { disabled: true }) });
  assert.equal(status(manager, "off").state, "disabled");
  assert.equal(status(manager, "off").pid, undefined);
  await manager.toggle("off", true);
  assert.equal(status(manager, "off").state, "ready");
  assert.ok(alive(status(manager, "off").pid));
});

Deno.test("list_changed notifications refresh the registry and emit events", async () => {
  await using manager = new ServerManager(QUICK);
  await manager.connect("rich", fake("everything.ts"));
  const tools = next(manager, "toolsChanged");
  const prompts = next(manager, "promptsChanged");
  const resources = next(manager, "resourcesChanged");
  await manager.callTool("mcp__rich__notify_changes");
  assert.deepEqual(await tools, { servers: ["rich"] });
  assert.deepEqual(await prompts, { servers: ["rich"] });
  assert.deepEqual(await resources, { servers: ["rich"] });
});

Deno.test("an idle stdio server stops after its idle timeout and restarts on the next call", async () => {
  await using manager = new ServerManager({ ...QUICK, idleTimeoutMs: 150 });
  await manager.connect("fast", fake("fast.ts"));
  const pid = status(manager, "fast").pid;
  await next(manager, "stateChanged", (s) => s.state === "idle");
  assert.equal(status(manager, "fast").pid, undefined);
  assert.ok(manager.findTool("mcp__fast__echo"), "an idle server's tools stay listed");
  assert.equal(textOf(await manager.callTool("mcp__fast__echo", { text: "woke" })), "woke");
  assert.equal(status(manager, "fast").state, "ready");
  assert.notEqual(status(manager, "fast").pid, pid);
});

Deno.test("colliding and long names get distinct qualified names that map back", async () => {
  await using manager = new ServerManager(QUICK);
  const long = "a-very-long-server-name-that-goes-on-and-on-and-on-beyond-the-limit";
  await manager.setServers({
    "my.server": fake("fast.ts"),
    "my_server": fake("fast.ts"),
    [long]: fake("fast.ts"),
  });
  const names = manager.allTools().map((t) => t.qualifiedName);
  assert.equal(new Set(names).size, 3);
  assert.ok(names.includes("mcp__my_server__echo"));
  assert.equal(manager.findTool("mcp__my_server__echo")?.server, "my_server");
  const dotted = manager.qualifiedName("my.server", "echo")!;
  assert.match(dotted, /^mcp__my_server__echo_[0-9a-f]{8}$/);
  assert.equal(manager.findTool(dotted)?.server, "my.server");
  const longName = manager.qualifiedName(long, "echo")!;
  assert.equal(longName.length, 64);
  assert.match(longName, /^[A-Za-z0-9_-]+$/);
  assert.equal(textOf(await manager.callTool(longName, { text: "long" })), "long");
  // The same names come out whatever the order servers were added in.
  await using other = new ServerManager(QUICK);
  await other.setServers({ [long]: fake("fast.ts"), "my_server": fake("fast.ts") });
  await other.connect("my.server", fake("fast.ts"));
  assert.deepEqual(other.allTools().map((t) => t.qualifiedName).sort(), [...names].sort());
});

Deno.test("disconnect() stops one server and removes its tools", async () => {
  await using manager = new ServerManager(QUICK);
  await manager.setServers({ a: fake("fast.ts"), b: fake("fast.ts") });
  const pid = status(manager, "a").pid;
  await manager.disconnect("a");
  assert.ok(!alive(pid));
  assert.deepEqual(manager.allTools().map((t) => t.qualifiedName), ["mcp__b__echo"]);
});
