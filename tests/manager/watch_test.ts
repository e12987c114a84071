import assert from "node:assert/strict";
import { type ConfigError, type ManagerEvents, ServerManager } from "../../src/manager/mod.ts";
import { fakeServer } from "../_helpers.ts";

function entry(name: string): { command: string; args: string[] } {
  const { command, args } = fakeServer(name);
  return { command, args: [...args!] };
}

function once<K extends keyof ManagerEvents>(
  manager: ServerManager,
  event: K,
): Promise<ManagerEvents[K]> {
  return new Promise((resolve) => {
    const off = manager.on(event, (payload) => {
      off();
      resolve(payload);
    });
  });
}

Deno.test("watch() applies a config file and follows its changes without restarting the rest", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/mcp.json`;
  try {
    await Deno.writeTextFile(file, JSON.stringify({ mcpServers: { a: entry("fast.ts") } }));
    await using manager = new ServerManager({ healthIntervalMs: 0 });
    await using _watcher = await manager.watch(file, { debounceMs: 50 });
    assert.deepEqual(manager.servers().map((s) => [s.name, s.state]), [["a", "ready"]]);
    const pid = manager.servers()[0]!.pid;

    const applied = once(manager, "configApplied");
    await Deno.writeTextFile(
      file,
      `// now two servers\n${
        JSON.stringify({ mcpServers: { a: entry("fast.ts"), b: entry("fast.ts") } }, null, 2)
      }`,
    );
    const { result } = await applied;
    assert.deepEqual(result.started, ["b"]);
    assert.deepEqual(result.unchanged, ["a"]);
    assert.equal(manager.servers().find((s) => s.name === "a")!.pid, pid);
    assert.equal(manager.servers().find((s) => s.name === "b")!.state, "ready");

    // A broken save is reported with its place, and the servers keep running.
    const failed = once(manager, "configError");
    await Deno.writeTextFile(file, `{\n  "mcpServers": {\n    "a": {}\n`);
    const error: ConfigError = await failed;
    assert.equal(error.file, file);
    assert.equal(error.line, 4);
    assert.deepEqual(manager.servers().map((s) => s.state), ["ready", "ready"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
