import assert from "node:assert/strict";
import { ConfigError, loadConfig, ServerManager } from "../../src/manager/mod.ts";
import { fakeServer, rejectsWith } from "../_helpers.ts";

const dir = new URL("../../testdata/configs/", import.meta.url).pathname;
const path = (name: string): string => `${dir}${name}`;

Deno.test("loadConfig() reads mcp.servers[] and mcp.pool of a YAML file in the design's shape", async () => {
  const loaded = await loadConfig(path("design.yaml"), {
    env: { HOME: "/home/ada", API_TOKEN: "t0k3n" },
  });
  assert.equal(loaded.format, "yaml");
  assert.deepEqual(loaded.issues, []);
  assert.deepEqual(loaded.pool, { maxIdleTimeMs: 300_000, cleanupIntervalMs: 60_000 });
  assert.deepEqual(Object.keys(loaded.servers), ["files", "api", "later"]);
  assert.deepEqual(loaded.servers.files, {
    type: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-filesystem", "/home/ada/docs"],
    env: { DEBUG: "1", RETRIES: "3" },
    idleTimeoutMs: 300_000,
  });
  assert.deepEqual(loaded.servers.api, {
    type: "http",
    url: "https://example.com/mcp",
    headers: { Authorization: "Bearer t0k3n" },
  });
  // auto_discover: false keeps the server configured but off; its own idle time wins.
  assert.deepEqual(loaded.servers.later, {
    type: "stdio",
    command: "deno",
    args: ["run", "server.ts"],
    disabled: true,
    idleTimeoutMs: 1000,
  });
});

Deno.test("loadConfig() skips bad YAML entries and reports each with its line and column", async () => {
  const file = path("broken_entries.yaml");
  const loaded = await loadConfig(file, { env: {} });
  assert.deepEqual(Object.keys(loaded.servers), ["good"]);
  assert.equal(loaded.servers.good?.type, "stdio");
  assert.equal(loaded.pool, undefined);
  const found = loaded.issues.map((issue) => [issue.server, issue.line, issue.column]);
  assert.deepEqual(found, [
    [undefined, 24, 20], // pool.max_idle_time: soon
    [undefined, 5, 7], // an entry without id
    ["neither", 6, 7],
    ["badArgs", 10, 18],
    ["badUrl", 12, 12],
    ["unset", 16, 16],
    ["badDiscover", 19, 22],
    ["good", 20, 11], // the id is used twice
    [undefined, 22, 7], // not a mapping
  ]);
  for (const issue of loaded.issues) {
    assert.ok(issue instanceof ConfigError);
    assert.equal(issue.file, file);
    assert.ok(issue.message.includes(`at line ${issue.line}, column ${issue.column}: `));
  }
  const messages = loaded.issues.map((issue) => issue.message);
  assert.match(messages[0]!, /"pool.max_idle_time" must be a duration/);
  assert.match(messages[0]!, /^Cannot load config file ".*broken_entries\.yaml" at line 24/);
  assert.match(
    messages[1]!,
    /^Cannot load entry 2 of ".*" at line 5, column 7: "id" must be a non-empty string/,
  );
  assert.match(
    messages[2]!,
    /^Cannot load server "neither" from ".*" at line 6, column 7: .*needs "command"/,
  );
  assert.match(messages[3]!, /"args\[1\]" must be a string/);
  assert.match(messages[4]!, /"url" must be http: or https:/);
  assert.equal(loaded.issues[5]!.variable, "MCP_INSPECT_SURELY_UNSET");
  assert.match(messages[6]!, /"auto_discover" must be true or false/);
  assert.match(messages[7]!, /"id" is used twice/);
  assert.match(messages[8]!, /the entry must be a mapping/);
});

Deno.test("loadConfig() rejects a YAML syntax error with the file, line and column", async () => {
  const file = path("broken_syntax.yaml");
  const error = await rejectsWith(loadConfig(file), ConfigError);
  assert.equal(error.file, file);
  assert.equal(error.line, 6);
  assert.equal(error.column, 5);
  assert.match(
    error.message,
    /^Cannot parse config file ".*broken_syntax\.yaml" at line 6, column 5: Flow sequence/,
  );
});

Deno.test("loadConfig() rejects duplicate keys in a .yml file", async () => {
  const error = await rejectsWith(loadConfig(path("duplicate_keys.yml")), ConfigError);
  assert.equal(error.line, 5);
  assert.equal(error.column, 7);
  assert.match(error.message, /unique/i);
});

Deno.test("loadConfig() rejects a YAML file without mcp.servers, pointing at what is there", async () => {
  const error = await rejectsWith(loadConfig(path("no_servers.yaml")), ConfigError);
  assert.equal(error.line, 2);
  assert.equal(error.column, 3);
  assert.match(error.message, /expected a list at "mcp\.servers"/);
});

Deno.test("ServerManager.watch() follows a YAML config file", async () => {
  const tmp = await Deno.makeTempDir();
  const file = `${tmp}/mcp.yaml`;
  const { command, args } = fakeServer("fast.ts");
  const entry = (id: string) =>
    `    - id: ${id}\n      command: ${JSON.stringify(command)}\n      args: ${
      JSON.stringify(args)
    }\n`;
  await Deno.writeTextFile(file, `mcp:\n  servers:\n${entry("one")}`);
  try {
    await using manager = new ServerManager({ healthIntervalMs: 0 });
    await using _watcher = await manager.watch(file, { debounceMs: 20 });
    assert.deepEqual(manager.allTools().map((tool) => tool.qualifiedName), ["mcp__one__echo"]);
    const applied = new Promise<void>((resolve) => {
      const off = manager.on("configApplied", () => {
        off();
        resolve();
      });
    });
    await Deno.writeTextFile(file, `mcp:\n  servers:\n${entry("two")}`);
    await applied;
    assert.deepEqual(manager.allTools().map((tool) => tool.qualifiedName), ["mcp__two__echo"]);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
