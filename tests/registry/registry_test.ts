import assert from "node:assert/strict";
import {
  CancelledError,
  McpError,
  type Progress,
  TimeoutError,
  ValidationError,
} from "../../mod.ts";
import {
  type LocalTool,
  type RegistryChange,
  type ServerConfig,
  ServerManager,
  ToolDeniedError,
  ToolRegistrationError,
  ToolRegistry,
  UnknownToolError,
} from "../../src/manager/mod.ts";
import { fakeServer, fakeTime, rejectsWith } from "../_helpers.ts";

function fake(name: string, extra: Partial<ServerConfig> = {}): ServerConfig {
  const { command, args } = fakeServer(name);
  return { command, args: [...args!], ...extra } as ServerConfig;
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

async function managerOf(servers: Record<string, ServerConfig>): Promise<ServerManager> {
  const manager = new ServerManager({ healthIntervalMs: 0 });
  const result = await manager.setServers(servers);
  assert.deepEqual(result.failed, {});
  return manager;
}

/** Resolves with the next change event that satisfies `test`. */
function nextChange(
  registry: ToolRegistry,
  test: (change: RegistryChange) => boolean = () => true,
): Promise<RegistryChange> {
  return new Promise((resolve) => {
    const off = registry.on("changed", (change) => {
      if (!test(change)) return;
      off();
      resolve(change);
    });
  });
}

const ADD: LocalTool = {
  name: "add",
  description: "Adds two numbers.",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
  outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  annotations: { readOnlyHint: true },
  handler: ({ a, b }) => {
    const sum = Number(a) + Number(b);
    return { content: [{ type: "text", text: String(sum) }], structuredContent: { sum } };
  },
};

Deno.test("list() holds local and MCP tools, filtered by source, with their annotations", async () => {
  await using manager = await managerOf({ ann: fake("annotated.ts"), fast: fake("fast.ts") });
  using registry = new ToolRegistry({ manager });
  registry.register(ADD);

  assert.deepEqual(registry.list().map((entry) => [entry.name, entry.source]), [
    ["add", "local"],
    ["mcp__ann__lookup", "mcp"],
    ["mcp__ann__delete_item", "mcp"],
    ["mcp__ann__plain", "mcp"],
    ["mcp__ann__grow", "mcp"],
    ["mcp__fast__echo", "mcp"],
  ]);
  assert.deepEqual(registry.listBySource("local").map((entry) => entry.name), ["add"]);
  assert.equal(registry.listBySource("mcp").length, 5);

  const lookup = registry.get("mcp__ann__lookup")!;
  assert.equal(lookup.server, "ann");
  assert.equal(lookup.serverTool, "lookup");
  assert.equal(lookup.tool.name, "mcp__ann__lookup");
  assert.deepEqual(lookup.tool.annotations, {
    title: "Look up",
    readOnlyHint: true,
    openWorldHint: false,
  });
  assert.deepEqual(lookup.hints, {
    title: "Look up",
    readOnly: true,
    destructive: false,
    idempotent: false,
    openWorld: false,
  });
  assert.deepEqual(registry.get("mcp__ann__delete_item")!.hints, {
    readOnly: false,
    destructive: true,
    idempotent: true,
    openWorld: true,
  });
  // A tool that says nothing gets the specification's cautious defaults.
  assert.equal(registry.get("mcp__fast__echo")!.hints.destructive, true);
  assert.equal(registry.get("mcp__fast__echo")!.hints.readOnly, false);
  assert.equal(registry.get("add")!.hints.readOnly, true);
  assert.equal(registry.get("nope"), undefined);
});

Deno.test("call() runs local and MCP tools alike and refuses unknown and denied ones", async () => {
  await using manager = await managerOf({
    fast: fake("fast.ts"),
    ann: fake("annotated.ts", { deny: ["delete_*"] }),
  });
  using registry = new ToolRegistry({ manager });
  registry.register(ADD);

  const sum = await registry.call("add", { a: 2, b: 3 });
  assert.equal(textOf(sum), "5");
  assert.deepEqual(sum.structuredContent, { sum: 5 });
  assert.equal(textOf(await registry.call("mcp__fast__echo", { text: "hi" })), "hi");

  assert.equal(registry.get("mcp__ann__delete_item"), undefined);
  await rejectsWith(registry.call("mcp__ann__delete_item", {}), ToolDeniedError);
  const unknown = await rejectsWith(registry.call("missing", {}), UnknownToolError);
  assert.equal(unknown.qualifiedName, "missing");
  using alone = new ToolRegistry();
  await rejectsWith(alone.call("mcp__fast__echo", {}), UnknownToolError);
});

Deno.test("unregister() and unregisterByPrefix() remove tools in one change event each", async () => {
  await using manager = await managerOf({ ann: fake("annotated.ts"), fast: fake("fast.ts") });
  using registry = new ToolRegistry({ manager });
  registry.register(ADD);
  const changes: RegistryChange[] = [];
  registry.on("changed", (change) => changes.push(change));

  assert.deepEqual(registry.unregisterByPrefix("mcp__ann__"), [
    "mcp__ann__lookup",
    "mcp__ann__delete_item",
    "mcp__ann__plain",
    "mcp__ann__grow",
  ]);
  assert.equal(registry.unregister("add"), true);
  assert.equal(registry.unregister("add"), false);
  assert.deepEqual(registry.list().map((entry) => entry.name), ["mcp__fast__echo"]);
  assert.deepEqual(changes, [
    {
      added: [],
      removed: ["mcp__ann__lookup", "mcp__ann__delete_item", "mcp__ann__plain", "mcp__ann__grow"],
      updated: [],
    },
    { added: [], removed: ["add"], updated: [] },
  ]);
  await rejectsWith(registry.call("add", { a: 1, b: 1 }), UnknownToolError);
  await rejectsWith(registry.call("mcp__ann__lookup", {}), UnknownToolError);
});

Deno.test("the registry follows the manager: tools appear, and go when a server is removed", async () => {
  await using manager = await managerOf({ ann: fake("annotated.ts"), fast: fake("fast.ts") });
  using registry = new ToolRegistry({ manager });

  const grown = nextChange(registry, (change) => change.added.length > 0);
  await registry.call("mcp__ann__grow", {});
  assert.deepEqual((await grown).added, ["mcp__ann__extra_1"]);
  assert.equal(registry.get("mcp__ann__extra_1")?.source, "mcp");

  const gone = nextChange(registry, (change) => change.removed.length > 0);
  await manager.disconnect("fast");
  assert.deepEqual((await gone).removed, ["mcp__fast__echo"]);
  assert.equal(registry.get("mcp__fast__echo"), undefined);

  const hidden = nextChange(registry, (change) => change.removed.length > 0);
  await manager.toggle("ann", false);
  assert.equal((await hidden).removed.length, 5);
  assert.deepEqual(registry.listBySource("mcp"), []);

  registry.close();
  await manager.toggle("ann", true);
  assert.deepEqual(registry.listBySource("mcp"), [], "a closed registry no longer follows");
});

Deno.test("call() checks a local tool's arguments against its input schema before running it", async () => {
  using registry = new ToolRegistry();
  let runs = 0;
  registry.register({ ...ADD, handler: (args, context) => (runs++, ADD.handler(args, context)) });
  const error = await rejectsWith(registry.call("add", { a: "2" }), ValidationError);
  assert.deepEqual(error.issues, ["(root) must have required property 'b'", "/a must be number"]);
  assert.equal(
    error.message,
    `Invalid arguments for tool "add": (root) must have required property 'b'; /a must be number`,
  );
  assert.equal(runs, 0);
  assert.equal(textOf(await registry.call("add", { a: 1, b: 2 })), "3");
  assert.equal(runs, 1);
});

Deno.test("register() refuses bad names, taken names and schemas that do not compile", () => {
  using registry = new ToolRegistry();
  registry.register(ADD);
  const cases: [LocalTool, ToolRegistrationError["reason"]][] = [
    [{ ...ADD, name: "has space" }, "invalid-name"],
    [{ ...ADD, name: "x".repeat(65) }, "invalid-name"],
    [{ ...ADD, name: "mcp__files__read" }, "reserved-name"],
    [ADD, "duplicate"],
    [{ ...ADD, name: "arr", inputSchema: { type: "array" } }, "invalid-schema"],
    [{ ...ADD, name: "bad", inputSchema: { type: "object", minProperties: -1 } }, "invalid-schema"],
  ];
  for (const [tool, reason] of cases) {
    assert.throws(() => registry.register(tool), (error) => {
      assert.ok(error instanceof ToolRegistrationError);
      assert.equal(error.reason, reason);
      assert.equal(error.tool, tool.name);
      assert.match(error.message, /^Cannot register tool ".*": /);
      return true;
    });
  }
  assert.deepEqual(registry.list().map((entry) => entry.name), ["add"]);
});

Deno.test("a local tool times out, is cancelled and reports progress as an MCP tool does", async () => {
  using clock = fakeTime();
  using registry = new ToolRegistry();
  const aborted: unknown[] = [];
  registry.register({
    name: "wait",
    inputSchema: { type: "object", properties: { steps: { type: "integer" } } },
    handler: async (args, { signal, progress }) => {
      const steps = Number(args.steps ?? Infinity);
      for (let step = 1; step <= steps && !signal.aborted; step++) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        progress({ progress: step, total: steps });
      }
      if (signal.aborted) aborted.push(signal.reason);
      return "done";
    },
  });

  const timingOut = rejectsWith(registry.call("wait", {}, { timeoutMs: 50 }), TimeoutError);
  await clock.tickAsync(50);
  const timeout = await timingOut;
  assert.equal(timeout.timeoutMs, 50);
  assert.equal(timeout.kind, "idle");

  const controller = new AbortController();
  setTimeout(() => controller.abort("enough"), 40);
  const cancelling = rejectsWith(
    registry.call("wait", {}, { signal: controller.signal }),
    CancelledError,
  );
  await clock.tickAsync(40);
  const cancelled = await cancelling;
  assert.equal(cancelled.reason, "enough");

  // Four 40 ms steps outlast the 150 ms timeout only because each step's progress resets it.
  const updates: Progress[] = [];
  const finishing = registry.call("wait", { steps: 4 }, {
    timeoutMs: 150,
    resetTimeoutOnProgress: true,
    onProgress: (update) => updates.push(update),
  });
  await clock.tickAsync(160);
  const result = await finishing;
  assert.equal(textOf(result), "done");
  assert.deepEqual(updates.map((update) => update.progress), [1, 2, 3, 4]);

  const totalling = rejectsWith(
    registry.call("wait", {}, {
      timeoutMs: 150,
      resetTimeoutOnProgress: true,
      maxTotalTimeoutMs: 200,
    }),
    TimeoutError,
  );
  await clock.tickAsync(200);
  const total = await totalling;
  assert.equal(total.kind, "total");
  await clock.tickAsync(100); // each handler sees its aborted signal at its next 40 ms step
  assert.equal(aborted.length, 3, "the handler's signal is aborted on timeout and cancellation");
});

Deno.test("an MCP tool times out, is cancelled and reports progress through the registry", async () => {
  await using manager = await managerOf({ rich: fake("everything.ts") });
  using registry = new ToolRegistry({ manager });
  await rejectsWith(registry.call("mcp__rich__hang", {}, { timeoutMs: 100 }), TimeoutError);
  await rejectsWith(
    registry.call("mcp__rich__hang", {}, { signal: AbortSignal.timeout(50) }),
    CancelledError,
  );
  const updates: Progress[] = [];
  const result = await registry.call("mcp__rich__slow", { steps: 2, delayMs: 10 }, {
    onProgress: (update) => updates.push(update),
  });
  assert.equal(textOf(result), "done after 2 steps");
  assert.deepEqual(updates.map((update) => update.progress), [1, 2]);
});

Deno.test("a local tool's thrown error is a tool error; McpError and a broken output fail the call", async () => {
  using registry = new ToolRegistry();
  const tool = (name: string, handler: LocalTool["handler"]): LocalTool => ({
    name,
    inputSchema: { type: "object" },
    outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    handler,
  });
  registry.register(tool("throws", () => {
    throw new Error("disk full");
  }));
  registry.register(tool("protocol", () => {
    throw new McpError(-32602, "bad params");
  }));
  registry.register(tool("broken", () => ({ content: [], structuredContent: { n: "one" } })));
  registry.register(tool("bare", () => "no structured content"));

  const failed = await registry.call("throws");
  assert.equal(failed.isError, true);
  assert.equal(textOf(failed), "disk full");
  assert.equal((await rejectsWith(registry.call("protocol"), McpError)).code, -32602);
  const broken = await rejectsWith(registry.call("broken"), ValidationError);
  assert.deepEqual(broken.issues, ["/n must be number"]);
  await rejectsWith(registry.call("bare"), ValidationError);
});

Deno.test("ListMcpResources and ReadMcpResource list and read the resources of two servers", async () => {
  await using manager = await managerOf({ ann: fake("annotated.ts"), rich: fake("everything.ts") });
  using registry = new ToolRegistry({ manager, resourceTools: true });
  assert.deepEqual(registry.listBySource("local").map((entry) => entry.name), [
    "ListMcpResources",
    "ReadMcpResource",
  ]);
  assert.equal(registry.get("ReadMcpResource")!.hints.readOnly, true);

  const all = await registry.call("ListMcpResources", {});
  const listed = all.structuredContent as {
    resources: { server: string; uri: string }[];
    resourceTemplates: { server: string; uriTemplate: string }[];
  };
  assert.deepEqual(listed.resources.map((r) => `${r.server} ${r.uri}`), [
    "ann notes://annotated/first",
    "ann notes://annotated/logo",
    "rich fake://docs/readme",
    "rich fake://docs/guide",
    "rich fake://images/logo",
  ]);
  assert.deepEqual(listed.resourceTemplates.map((t) => t.uriTemplate), ["fake://notes/{id}"]);
  assert.deepEqual(JSON.parse(textOf(all)), listed);

  const ann = await registry.call("ListMcpResources", { server: "ann" });
  assert.equal((ann.structuredContent as { resources: unknown[] }).resources.length, 2);

  const note = await registry.call("ReadMcpResource", {
    server: "ann",
    uri: "notes://annotated/first",
  });
  assert.equal(textOf(note), "The first note.");
  const readme = await registry.call("ReadMcpResource", {
    server: "rich",
    uri: "fake://docs/readme",
  });
  assert.equal(textOf(readme), "# Readme\n");
  const logo = await registry.call("ReadMcpResource", {
    server: "ann",
    uri: "notes://annotated/logo",
  });
  assert.deepEqual(logo.content, [{
    type: "resource",
    resource: { uri: "notes://annotated/logo", mimeType: "image/png", blob: "iVBORw0KGgo=" },
  }]);

  const unknown = await registry.call("ListMcpResources", { server: "nope" });
  assert.equal(unknown.isError, true);
  assert.equal(textOf(unknown), `Unknown server "nope"; the servers are: "ann", "rich"`);
  const missing = await registry.call("ReadMcpResource", { server: "ann", uri: "notes://none" });
  assert.equal(missing.isError, true);
  assert.match(textOf(missing), /^Cannot read "notes:\/\/none" from server "ann": .*not found/i);
  await rejectsWith(registry.call("ReadMcpResource", { server: "ann" }), ValidationError);
  assert.throws(() => new ToolRegistry({ resourceTools: true }), TypeError);
});
