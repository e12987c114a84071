// Unknown keys in config files: a warning naming the file, the line and the closest known key,
// or an error with `strict`; and no warning for the keys real-world files hold.

import assert from "node:assert/strict";
import { ConfigError, loadConfig, parseConfig } from "../../src/manager/mod.ts";

const dir = new URL("../../testdata/configs/", import.meta.url).pathname;
const path = (name: string): string => `${dir}${name}`;

Deno.test("loadConfig() warns of a misspelled key with the file, the line and the key it meant", async () => {
  const file = path("unknown_keys.json");
  const loaded = await loadConfig(file);
  assert.deepEqual(loaded.warnings.map((w) => w.message), [
    `${file}:7: unknown key "denyTools" in server "fs" (did you mean "deny"?)`,
    `${file}:11: unknown key "disable" in server "other" (did you mean "disabled"?)`,
  ]);
  assert.deepEqual(loaded.warnings[0], {
    message: loaded.warnings[0]!.message,
    file,
    line: 7,
    column: 7,
    key: "denyTools",
    server: "fs",
    suggestion: "deny",
  });
  // the entries still load: a warning, not an issue
  assert.deepEqual(Object.keys(loaded.servers), ["fs", "other"]);
  assert.deepEqual(loaded.issues, []);
});

Deno.test("loadConfig() warns of unknown keys in YAML entries, in mcp and in mcp.pool", async () => {
  const file = path("unknown_keys.yaml");
  const loaded = await loadConfig(file);
  assert.deepEqual(loaded.warnings.map((w) => w.message), [
    `${file}:5: unknown key "deny_tools" in server "fs" (did you mean "deny"?)`,
    `${file}:8: unknown key "max_idle" in "mcp.pool" (did you mean "max_idle_time"?)`,
    `${file}:9: unknown key "sever" in "mcp" (did you mean "servers"?)`,
  ]);
});

Deno.test("with strict, loadConfig() rejects the first unknown key with a ConfigError", async () => {
  const file = path("unknown_keys.json");
  await assert.rejects(loadConfig(file, { strict: true }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(
      error.message,
      `${file}:7: unknown key "denyTools" in server "fs" (did you mean "deny"?); and 1 more unknown key(s)`,
    );
    assert.equal(error.line, 7);
    assert.equal(error.server, "fs");
    return true;
  });
  await assert.rejects(loadConfig(path("unknown_keys.yaml"), { strict: true }), ConfigError);
});

Deno.test("the config files of Claude Desktop, Claude Code, Cursor, VS Code and our YAML do not warn", async () => {
  const env = { HOME: "/home/ada", API_KEY: "k", GITHUB_TOKEN: "g", API_TOKEN: "t", TEAM: "x" };
  for (
    const name of [
      "claude_desktop.json",
      "claude_code.json",
      "cursor.json",
      ".vscode/mcp.json",
      "vscode_real.json",
      "design.yaml",
    ]
  ) {
    const loaded = await loadConfig(path(name), { env, strict: true });
    assert.deepEqual(loaded.warnings, [], name);
  }
});

Deno.test("only server entries and our own sections are checked, not a whole app's top level", () => {
  const claudeJson = JSON.stringify({
    numStartups: 3,
    theme: "dark",
    projects: { "/work": { allowedTools: [] } },
    mcpServers: { fs: { type: "stdio", command: "npx", args: [], env: {} } },
  });
  assert.deepEqual(parseConfig(claudeJson, { file: "~/.claude.json", strict: true }).warnings, []);
  const settings = JSON.stringify({
    "editor.fontSize": 14,
    "chat.mcp.discovery.enabled": true,
    mcp: { servers: { fs: { command: "npx" } }, inputs: [], severs: {} },
  });
  assert.deepEqual(
    parseConfig(settings, { file: "settings.json" }).warnings.map((w) => w.message),
    ['settings.json:1: unknown key "severs" in "mcp" (did you mean "servers"?)'],
  );
  const mcpJson = '{\n  "servers": {},\n  "input": []\n}';
  assert.deepEqual(
    parseConfig(mcpJson, { file: "mcp.json" }).warnings.map((w) => w.message),
    ['mcp.json:3: unknown key "input" at the top level (did you mean "inputs"?)'],
  );
});

Deno.test("a key far from every known key gets no suggestion", () => {
  const text = '{ "mcpServers": { "a": { "command": "x", "zzzzqqq": 1 } } }';
  assert.deepEqual(parseConfig(text, { file: "c.json" }).warnings.map((w) => w.message), [
    'c.json:1: unknown key "zzzzqqq" in server "a"',
  ]);
});

Deno.test("a relative command with a separator is resolved against the config file's folder", () => {
  const text = JSON.stringify({
    mcpServers: {
      dotted: { command: "./server.sh" },
      nested: { command: "bin/server" },
      bare: { command: "npx" },
      absolute: { command: "/usr/bin/env" },
    },
  });
  const { servers } = parseConfig(text, { file: "/work/project/.mcp.json" });
  const commands = Object.values(servers).map((s) => "command" in s ? s.command : undefined);
  assert.deepEqual(commands, [
    "/work/project/server.sh",
    "/work/project/bin/server",
    "npx",
    "/usr/bin/env",
  ]);
});
