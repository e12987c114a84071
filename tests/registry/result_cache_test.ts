import assert from "node:assert/strict";
import {
  type ResultCacheOptions,
  type ServerConfig,
  ServerManager,
  ToolRegistry,
} from "../../src/manager/mod.ts";
import { fakeServer } from "../_helpers.ts";

function fake(name: string): ServerConfig {
  const { command, args } = fakeServer(name);
  return { command, args: [...args!] };
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

/** A registry over the annotated fake (`ann`), whose answers end in the server's call count. */
async function setup(
  cache: ResultCacheOptions | boolean,
): Promise<{ manager: ServerManager; registry: ToolRegistry } & AsyncDisposable> {
  const manager = new ServerManager({ healthIntervalMs: 0 });
  await manager.setServers({ ann: fake("annotated.ts") });
  const registry = new ToolRegistry({ manager, cache });
  return {
    manager,
    registry,
    async [Symbol.asyncDispose]() {
      registry.close();
      await manager.close();
    },
  };
}

function serverCalls(manager: ServerManager, tool: string): number {
  return manager.stats().servers[0]!.tools.find((t) => t.name === tool)?.calls ?? 0;
}

Deno.test("the cache answers an identical read-only call without contacting the server", async () => {
  await using env = await setup(true);
  const { manager, registry } = env;
  const first = await registry.call("mcp__ann__lookup", { key: "a", opts: { x: 1, y: [1, 2] } });
  // The same arguments in another key order are the same call.
  const second = await registry.call("mcp__ann__lookup", { opts: { y: [1, 2], x: 1 }, key: "a" });
  assert.equal(textOf(first), "lookup a #1");
  assert.deepEqual(second, first);
  assert.equal(serverCalls(manager, "lookup"), 1);
  assert.deepEqual(registry.stats().cache, { hits: 1, misses: 1, size: 1 });

  // A cached answer is a copy: changing what one caller got does not change the next answer.
  (second.content[0] as { text: string }).text = "changed";
  assert.equal(
    textOf(await registry.call("mcp__ann__lookup", { key: "a", opts: { x: 1, y: [1, 2] } })),
    "lookup a #1",
  );

  assert.equal(textOf(await registry.call("mcp__ann__lookup", { key: "b" })), "lookup b #2");
  assert.equal(
    textOf(
      await registry.call("mcp__ann__lookup", { key: "a", opts: { x: 1, y: [1, 2] } }, {
        bypassCache: true,
      }),
    ),
    "lookup a #3",
  );
  assert.equal(serverCalls(manager, "lookup"), 3);
});

Deno.test("the cache never keeps a destructive tool's answers, even when allow-listed", async () => {
  await using env = await setup({ allow: ["mcp__ann__delete_item", "mcp__ann__plain"] });
  const { manager, registry } = env;
  assert.equal(
    textOf(await registry.call("mcp__ann__delete_item", { key: "a" })),
    "delete_item a #1",
  );
  assert.equal(
    textOf(await registry.call("mcp__ann__delete_item", { key: "a" })),
    "delete_item a #2",
  );
  assert.equal(serverCalls(manager, "delete_item"), 2);
  // A tool without annotations is cached only because the allow list names it.
  assert.equal(textOf(await registry.call("mcp__ann__plain", { key: "a" })), "plain a #3");
  assert.equal(textOf(await registry.call("mcp__ann__plain", { key: "a" })), "plain a #3");
});

Deno.test("the cache leaves tools without annotations alone unless allow-listed", async () => {
  await using env = await setup(true);
  const { registry } = env;
  assert.equal(textOf(await registry.call("mcp__ann__plain", { key: "a" })), "plain a #1");
  assert.equal(textOf(await registry.call("mcp__ann__plain", { key: "a" })), "plain a #2");
  assert.deepEqual(registry.stats().cache, { hits: 0, misses: 0, size: 0 });
});

Deno.test("the cache drops a server's answers when its tool list changes", async () => {
  await using env = await setup(true);
  const { registry } = env;
  assert.equal(textOf(await registry.call("mcp__ann__lookup", { key: "a" })), "lookup a #1");
  assert.equal(textOf(await registry.call("mcp__ann__lookup", { key: "a" })), "lookup a #1");
  const changed = new Promise<void>((resolve) => {
    const off = registry.on("changed", () => {
      off();
      resolve();
    });
  });
  assert.equal(textOf(await registry.call("mcp__ann__grow", {})), "grow  #2");
  await changed;
  assert.equal(registry.stats().cache?.size, 0);
  assert.equal(textOf(await registry.call("mcp__ann__lookup", { key: "a" })), "lookup a #3");
});

Deno.test("the cache is bounded in age and size and never keeps errors", async () => {
  let now = 1_000; // not 0: lru-cache takes an entry stored at time 0 for one without an age
  await using env = await setup({ ttlMs: 300, maxEntries: 2, now: () => now });
  const { registry } = env;
  const lookup = async (key: string) => textOf(await registry.call("mcp__ann__lookup", { key }));
  assert.equal(await lookup("a"), "lookup a #1");
  assert.equal(await lookup("b"), "lookup b #2");
  assert.equal(await lookup("c"), "lookup c #3"); // "a" is the least recently used: evicted
  assert.equal(registry.stats().cache?.size, 2);
  assert.equal(await lookup("c"), "lookup c #3");
  assert.equal(await lookup("a"), "lookup a #4");
  now += 299;
  assert.equal(await lookup("a"), "lookup a #4", "younger than ttlMs: still served");
  now += 2;
  assert.equal(await lookup("a"), "lookup a #5", "older than ttlMs: asked again");

  let runs = 0;
  registry.register({
    name: "local_read",
    inputSchema: { type: "object", properties: { fail: { type: "boolean" } } },
    annotations: { readOnlyHint: true },
    handler: ({ fail }) => ({
      content: [{ type: "text", text: `run ${++runs}` }],
      isError: fail === true,
    }),
  });
  assert.equal(textOf(await registry.call("local_read", { fail: true })), "run 1");
  assert.equal(textOf(await registry.call("local_read", { fail: true })), "run 2");
  assert.equal(textOf(await registry.call("local_read", {})), "run 3");
  assert.equal(textOf(await registry.call("local_read", {})), "run 3", "local read-only tools too");
  registry.unregister("local_read");
  registry.register({ name: "local_read", inputSchema: { type: "object" }, handler: () => "new" });
  assert.equal(textOf(await registry.call("local_read", {})), "new");
});
