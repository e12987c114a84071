import assert from "node:assert/strict";
import { ConfigError, loadConfig, parseConfig } from "../../src/manager/mod.ts";
import { rejectsWith } from "../_helpers.ts";

const dir = new URL("../../testdata/configs/", import.meta.url).pathname;
const path = (name: string): string => `${dir}${name}`;

Deno.test("loadConfig() reads Claude Desktop's mcpServers with command, args and env", async () => {
  const loaded = await loadConfig(path("claude_desktop.json"), { env: { HOME: "/home/ada" } });
  assert.equal(loaded.format, "mcpServers");
  assert.deepEqual(loaded.issues, []);
  assert.deepEqual(loaded.servers, {
    memory: {
      type: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-memory"],
      env: { MEMORY_FILE_PATH: "/home/ada/memory.json" },
    },
    files: {
      type: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
    },
  });
});

Deno.test("loadConfig() reads a VS Code mcp.json with comments, envFile, cwd and every type", async () => {
  const file = path(".vscode/mcp.json");
  const loaded = await loadConfig(file, { env: { TEAM: "tools", HOME: "/home/ada" } });
  assert.equal(loaded.format, "vscode");
  const workspace = dir.replace(/\/$/, "");
  assert.deepEqual(loaded.servers.local, {
    type: "stdio",
    command: "deno",
    args: ["run", `${workspace}/server.ts`, "--port=8080"],
    env: { API_KEY: "from-env-file", MODE: "dev", VERBOSE: "true" },
    cwd: workspace,
  });
  assert.deepEqual(loaded.servers.remote, {
    type: "http",
    url: "https://example.com/mcp",
    headers: { "X-Team": "tools" },
  });
  assert.deepEqual(loaded.servers.legacy, { type: "sse", url: "http://127.0.0.1:3001/sse" });
  assert.equal(loaded.servers.prompted, undefined);
  assert.equal(loaded.issues.length, 1);
  const issue = loaded.issues[0]!;
  assert.equal(
    issue.message,
    `Cannot load server "prompted" from "${file}" at line 25, column 37: \${input:token}: VS Code input variables are not supported; use \${env:NAME} instead`,
  );
  assert.equal(issue.server, "prompted");
  assert.equal(issue.variable, "${input:token}");
});

Deno.test("loadConfig() reads Cursor's remote entries with url and headers", async () => {
  const loaded = await loadConfig(path("cursor.json"), { env: { GITHUB_TOKEN: "ghp_1" } });
  assert.deepEqual(loaded.servers, {
    github: {
      type: "http",
      url: "https://api.example.com/mcp/",
      headers: { Authorization: "Bearer ghp_1" },
    },
    local: { type: "stdio", command: "node", args: ["server.js"], env: { DEBUG: "1" } },
  });
});

Deno.test("loadConfig() reads Claude Code's .mcp.json with defaults and deny/allow lists", async () => {
  const loaded = await loadConfig(path("claude_code.json"), { env: { API_KEY: "k", LEVEL: "" } });
  assert.deepEqual(loaded.issues, []);
  assert.deepEqual(loaded.servers, {
    api: {
      type: "http",
      url: "https://api.example.com/mcp",
      headers: { Authorization: "Bearer k" },
    },
    events: { type: "sse", url: "https://events.example.com/sse" },
    tools: {
      type: "stdio",
      command: "/usr/local/bin/tools-server",
      args: ["--config", "/etc/tools.json"],
      env: { LEVEL: "info" },
      deny: ["delete_*", "drop_table"],
      allow: ["*"],
    },
  });
});

Deno.test("loadConfig() names the file, the server and the variable that is not set", async () => {
  const file = path("cursor.json");
  const loaded = await loadConfig(file, { env: {} });
  assert.deepEqual(Object.keys(loaded.servers), ["local"]);
  const issue = loaded.issues[0]!;
  assert.equal(
    issue.message,
    `Cannot load server "github" from "${file}" at line 5, column 37: environment variable "GITHUB_TOKEN" is not set`,
  );
  assert.equal(issue.file, file);
  assert.equal(issue.server, "github");
  assert.equal(issue.variable, "GITHUB_TOKEN");
});

Deno.test("loadConfig() reports a syntax error with its line and column", async () => {
  const file = path("broken_syntax.jsonc");
  const error = await rejectsWith(loadConfig(file), ConfigError);
  assert.equal(
    error.message,
    `Cannot parse config file "${file}" at line 4, column 5: comma expected`,
  );
  assert.equal(error.line, 4);
  assert.equal(error.column, 5);
  assert.equal(error.server, undefined);
});

Deno.test("loadConfig() skips each invalid entry with its reason and loads the others", async () => {
  const file = path("broken_entries.json");
  const loaded = await loadConfig(file, { env: {} });
  assert.deepEqual(Object.keys(loaded.servers), ["good", "alsoGood"]);
  assert.deepEqual(loaded.servers.alsoGood, {
    type: "http",
    url: "http://127.0.0.1:3000/mcp",
    disabled: true,
  });
  const at = `from "${file}" at line`;
  assert.deepEqual(loaded.issues.map((issue) => issue.message), [
    `Cannot load server "neither" ${at} 4, column 16: the entry needs "command" (a local server) or "url" (a remote server)`,
    `Cannot load server "both" ${at} 5, column 13: the entry has both "command" and "url"; give one`,
    `Cannot load server "badArgs" ${at} 6, column 49: "args[1]" must be a string`,
    `Cannot load server "badType" ${at} 7, column 26: "type" must be "stdio", "http" or "sse", got "websocket"`,
    `Cannot load server "badUrl" ${at} 8, column 24: "url" must be http: or https:, got ftp:`,
    `Cannot load server "unset" ${at} 9, column 50: environment variable "MCP_INSPECT_SURELY_UNSET" is not set`,
  ]);
});

Deno.test("loadConfig() rejects a file without a server list, and a missing file", async () => {
  const file = path("no_servers.json");
  const error = await rejectsWith(loadConfig(file), ConfigError);
  assert.equal(
    error.message,
    `Cannot load config file "${file}": expected "mcpServers" (Claude Desktop, Cursor, Claude Code) or "servers" (VS Code) at the top level`,
  );
  const missing = await rejectsWith(loadConfig(path("nope.json")), ConfigError);
  assert.match(missing.message, /^Cannot read config file ".*nope\.json": /);
});

Deno.test("parseConfig() reads VS Code settings.json's mcp.servers and an empty file fails", () => {
  const loaded = parseConfig(`{ "mcp": { "servers": { "a": { "command": "x" } } } }`, {
    file: "settings.json",
  });
  assert.equal(loaded.format, "vscode");
  assert.deepEqual(loaded.servers, { a: { type: "stdio", command: "x" } });
  assert.throws(
    () => parseConfig("", { file: "empty.json" }),
    new ConfigError(
      `Cannot parse config file "empty.json" at line 1, column 1: value expected`,
      { file: "empty.json", line: 1, column: 1 },
    ),
  );
});
