/**
 * Server configurations and the config files people already have: Claude Desktop, Cursor and
 * Claude Code (`mcpServers`), and VS Code (`servers`, or `mcp.servers` in `settings.json`).
 * Files are JSONC (comments and trailing commas are fine); `${VAR}`, `${env:VAR}` and
 * `${VAR:-default}` are expanded.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import { parseEnv } from "node:util";
import {
  findNodeAtLocation,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import { type EntryPath, normalizeEntry } from "./_entry.ts";
import { expand } from "./_expand.ts";
import { ENTRY_KEYS, type KeyAt, SECTION_KEYS, settleWarnings, unknownKeys } from "./_keys.ts";
import { parseYamlConfig } from "./_yaml.ts";
import { MAX_CONFIG_DEPTH, tooDeepAt } from "./_depth.ts";
import { ConfigError, type ConfigWarning } from "./errors.ts";

export { ConfigError, type ConfigWarning };

/**
 * What every server entry may say about how the manager treats it, beyond how to reach it.
 *
 * @example Hiding destructive tools and stopping when idle
 * ```ts
 * import type { ServerPolicy } from "@mcp-inspect/client/manager";
 * const policy: ServerPolicy = { deny: ["delete_*"], idleTimeoutMs: 300_000 };
 * ```
 */
export interface ServerPolicy {
  /** Keep the server configured but not running (`"disabled": true` or `"enabled": false`). */
  disabled?: boolean;
  /** Only tools matching one of these names or glob patterns are offered. */
  allow?: string[];
  /** Tools matching one of these names or glob patterns are hidden and refused. */
  deny?: string[];
  /** Stop an idle stdio server after this long; it restarts on the next call. */
  idleTimeoutMs?: number;
}

/**
 * A local server, run as a child process speaking stdio.
 *
 * @example The memory server from npm, with its file
 * ```ts
 * import type { StdioServerConfig } from "@mcp-inspect/client/manager";
 * const memory: StdioServerConfig = {
 *   command: "npx",
 *   args: ["-y", "@modelcontextprotocol/server-memory"],
 *   env: { MEMORY_FILE_PATH: "/tmp/memory.json" },
 * };
 * ```
 */
export interface StdioServerConfig extends ServerPolicy {
  /** Always `"stdio"` once loaded; may be left out when `command` is given. */
  type?: "stdio";
  /** The program to run (never through a shell). */
  command: string;
  /** Its arguments. */
  args?: string[];
  /** Variables added to its environment (`envFile` values, then `env`). */
  env?: Record<string, string>;
  /** Its working directory. */
  cwd?: string;
}

/**
 * A remote server reached over HTTP: `"http"` tries Streamable HTTP and falls back to the legacy
 * HTTP+SSE transport; `"sse"` forces the legacy one.
 *
 * @example A remote server with an authorization header
 * ```ts
 * import type { HttpServerConfig } from "@mcp-inspect/client/manager";
 * const remote: HttpServerConfig = {
 *   type: "http",
 *   url: "https://example.com/mcp",
 *   headers: { Authorization: "Bearer token" },
 * };
 * ```
 */
export interface HttpServerConfig extends ServerPolicy {
  /** `"http"` (default when `url` is given) or `"sse"`. */
  type?: "http" | "sse";
  /** The MCP endpoint. */
  url: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/**
 * How to reach one server, and how the manager treats it.
 *
 * @example A local and a remote server by name
 * ```ts
 * import type { ServerConfig } from "@mcp-inspect/client/manager";
 * const servers: Record<string, ServerConfig> = {
 *   files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
 *   remote: { url: "https://example.com/mcp", deny: ["delete_*"] },
 * };
 * ```
 */
export type ServerConfig = StdioServerConfig | HttpServerConfig;

/**
 * Options of {@link loadConfig} and {@link parseConfig}.
 *
 * @example Expanding from a fixed environment
 * ```ts
 * import type { LoadConfigOptions } from "@mcp-inspect/client/manager";
 * const options: LoadConfigOptions = { env: { GITHUB_TOKEN: "t0k3n" } };
 * ```
 */
export interface LoadConfigOptions {
  /** Where `${VAR}` is looked up (default: this process's environment). */
  env?: Readonly<Record<string, string>> | ((name: string) => string | undefined);
  /** `${workspaceFolder}` (default: the folder holding `.vscode/`, else the file's folder). */
  workspaceFolder?: string;
  /**
   * Unknown keys are errors: the loader throws a {@link ConfigError} naming the first one,
   * rather than listing them in {@link LoadedConfig.warnings} (default false).
   */
  strict?: boolean;
}

/**
 * A loaded config file.
 *
 * @example Reporting the entries that were skipped
 * ```ts
 * import { loadConfig } from "@mcp-inspect/client/manager";
 *
 * const file = await Deno.makeTempFile({ suffix: ".json" }); // .vscode/mcp.json
 * const servers = { files: { command: "files" }, broken: { args: ["server.js"] } }; // no command
 * await Deno.writeTextFile(file, JSON.stringify({ servers }, null, 2));
 * const { servers: loaded, issues } = await loadConfig(file);
 * console.log(Object.keys(loaded)); // ["files"]
 * for (const issue of issues) console.error(issue.message);
 * // Cannot load server "broken" from "/tmp/….json" at line 6, column 15: the entry needs
 * // "command" (a local server) or "url" (a remote server)
 * await Deno.remove(file);
 * ```
 */
export interface LoadedConfig {
  /** The file, as given. */
  file: string;
  /**
   * `"mcpServers"` (Claude Desktop, Cursor, Claude Code), `"vscode"` (`servers`) or `"yaml"`
   * (`mcp.servers[]` in a `.yaml` or `.yml` file).
   */
  format: "mcpServers" | "vscode" | "yaml";
  /** The servers that loaded, by name, in file order. */
  servers: Record<string, ServerConfig>;
  /** The entries that were skipped, and why. */
  issues: ConfigError[];
  /** Keys that no config shape knows, in server entries and in the sections this loader reads. */
  warnings: ConfigWarning[];
  /** `mcp.pool` of a YAML file, when it has one. */
  pool?: PoolSettings;
}

/**
 * The `mcp.pool` section of a YAML config file, in milliseconds. `max_idle_time` also becomes
 * the `idleTimeoutMs` of every stdio server that does not set its own; the manager stops each
 * idle server on its own timer, so `cleanup_interval` is only reported here.
 *
 * @example Reading the pool settings of a YAML file
 * ```ts
 * import { loadConfig } from "@mcp-inspect/client/manager";
 *
 * const file = await Deno.makeTempFile({ suffix: ".yaml" }); // mcp.yaml
 * const yaml = "mcp:\n  servers: []\n  pool: { max_idle_time: 5m, cleanup_interval: 1m }\n";
 * await Deno.writeTextFile(file, yaml);
 * const { pool } = await loadConfig(file);
 * console.log(pool?.maxIdleTimeMs, pool?.cleanupIntervalMs); // 300000 60000
 * await Deno.remove(file);
 * ```
 */
export interface PoolSettings {
  /** `pool.max_idle_time`. */
  maxIdleTimeMs?: number;
  /** `pool.cleanup_interval`. */
  cleanupIntervalMs?: number;
}

/**
 * Reads a config file. Entries that are invalid, or use a variable that is not set, are reported
 * in `issues` and skipped; the others load. A file ending in `.yaml` or `.yml` is read as YAML
 * (`mcp.servers[]` with `id`, `command`, `args`, `env`, `url`, `headers`, `auto_discover`, and
 * `mcp.pool`), with the same checks, expansion and error positions. Keys no config shape knows
 * are listed in `warnings` (errors with `strict`). A relative `command` with a path separator
 * (`./server.sh`, `bin/server`) is resolved against the config file's folder; a bare name is
 * looked up on PATH when the server starts.
 *
 * @throws {ConfigError} when the file cannot be read, is not valid JSONC or YAML (with line and
 *   column), has no server list, or (with `strict`) has an unknown key.
 * @example Loading Claude Desktop's config
 * ```ts ignore
 * import { loadConfig } from "@mcp-inspect/client/manager";
 * const { servers } = await loadConfig(
 *   `${Deno.env.get("HOME")}/Library/Application Support/Claude/claude_desktop_config.json`,
 * );
 * console.log(Object.keys(servers));
 * ```
 */
export async function loadConfig(
  file: string,
  options: LoadConfigOptions = {},
): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    throw new ConfigError(`Cannot read config file "${file}": ${(error as Error).message}`, {
      file,
    }, { cause: error });
  }
  if (/\.ya?ml$/i.test(file)) return parseYamlConfig(text, { ...options, file });
  return parseConfig(text, { ...options, file });
}

/**
 * Parses the text of a config file; see {@link loadConfig}.
 *
 * @throws {ConfigError} when the text is not valid JSONC, has no server list, or (with `strict`)
 *   has an unknown key.
 * @example Parsing a Claude Code `.mcp.json`
 * ```ts
 * import { parseConfig } from "@mcp-inspect/client/manager";
 * const { servers } = parseConfig(
 *   `{ "mcpServers": { "api": { "type": "http", "url": "\${API_URL:-http://127.0.0.1:3000/mcp}" } } }`,
 *   { file: ".mcp.json", env: {} },
 * );
 * console.log(servers.api); // { type: "http", url: "http://127.0.0.1:3000/mcp" }
 * ```
 */
export function parseConfig(
  text: string,
  options: LoadConfigOptions & { file: string },
): LoadedConfig {
  const { file } = options;
  const deep = tooDeepAt(text, MAX_CONFIG_DEPTH);
  if (deep !== undefined) {
    const { line, column } = locate(text, deep);
    throw new ConfigError(
      `Cannot parse config file "${file}" at line ${line}, column ${column}: nested more than ${MAX_CONFIG_DEPTH} levels deep`,
      { file, line, column },
    );
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first || !root) {
    const { line, column } = locate(text, first?.offset ?? 0);
    const what = first ? describeParseError(printParseErrorCode(first.error)) : "the file is empty";
    throw new ConfigError(
      `Cannot parse config file "${file}" at line ${line}, column ${column}: ${what}`,
      { file, line, column },
    );
  }
  const found = serverList(root);
  if (!found) {
    throw new ConfigError(
      `Cannot load config file "${file}": expected "mcpServers" (Claude Desktop, Cursor, Claude Code) or "servers" (VS Code) at the top level`,
      { file, line: 1, column: 1 },
    );
  }
  const { format, node: list } = found;
  const lookup = lookupOf(options.env);
  const folder = options.workspaceFolder ?? workspaceOf(file);
  const predefined: Record<string, string> = {
    workspaceFolder: folder,
    workspaceFolderBasename: folder.split(/[\\/]/).filter(Boolean).pop() ?? "",
    userHome: lookup("HOME") ?? lookup("USERPROFILE") ?? "",
    pathSeparator: "/",
  };
  const servers: Record<string, ServerConfig> = {};
  const issues: ConfigError[] = [];
  const keysOf = (node: Node): KeyAt[] =>
    (node.children ?? []).flatMap((property) => {
      const key = property.children?.[0];
      return key ? [{ key: String(key.value), ...locate(text, key.offset) }] : [];
    });
  const warnings = format === "vscode"
    ? unknownKeys(keysOf(list.parent!.parent!), SECTION_KEYS.servers, file, {
      section: list.parent!.parent === root ? "" : "mcp",
    })
    : [];
  for (const property of list.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || !valueNode) continue;
    const name = String(keyNode.value);
    if (valueNode.type === "object") {
      warnings.push(...unknownKeys(keysOf(valueNode), ENTRY_KEYS[format], file, { server: name }));
    }
    try {
      servers[name] = normalizeEntry(nodeValue(valueNode), {
        expand: (value) => expand(value, lookup, predefined),
        readEnvFile: (path) => readEnvFile(resolve(dirname(file), path)),
        folder: dirname(resolve(file)),
      });
    } catch (error) {
      const path: EntryPath = (error as { path?: EntryPath }).path ?? [];
      const at = findNodeAtLocation(valueNode, [...path]) ?? valueNode;
      const { line, column } = locate(text, at.offset);
      const variable = (error as { variable?: string }).variable;
      issues.push(
        new ConfigError(
          `Cannot load server "${name}" from "${file}" at line ${line}, column ${column}: ${
            (error as Error).message
          }`,
          // `||`: an empty variable name is none, as it has always been.
          { file, line, column, server: name, variable: variable || undefined },
          { cause: error },
        ),
      );
    }
  }
  return { file, format, servers, issues, warnings: settleWarnings(warnings, options) };
}

/** A dotenv file, parsed by Node's own parser (the one behind `node --env-file`). */
function readEnvFile(path: string): Record<string, string> {
  const parsed = parseEnv(Deno.readTextFileSync(path));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) if (value !== undefined) env[key] = value;
  return env;
}

function serverList(root: Node): { format: LoadedConfig["format"]; node: Node } | undefined {
  const candidates: [LoadedConfig["format"], string[]][] = [
    ["mcpServers", ["mcpServers"]],
    ["vscode", ["servers"]],
    ["vscode", ["mcp", "servers"]],
  ];
  if (root.type !== "object") return undefined;
  for (const [format, path] of candidates) {
    const node = findNodeAtLocation(root, path);
    if (node?.type === "object") return { format, node };
  }
  return undefined;
}

/** The plain value of a tree node (jsonc-parser's getNodeValue, without a second parse). */
function nodeValue(node: Node): unknown {
  switch (node.type) {
    case "object":
      return Object.fromEntries(
        (node.children ?? []).flatMap((property) => {
          const [key, value] = property.children ?? [];
          return key && value ? [[String(key.value), nodeValue(value)]] : [];
        }),
      );
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

function lookupOf(env: LoadConfigOptions["env"]): (name: string) => string | undefined {
  if (typeof env === "function") return env;
  if (env) return (name) => Object.hasOwn(env, name) ? env[name] : undefined;
  return (name) => Deno.env.get(name);
}

/** VS Code keeps `mcp.json` in `<workspace>/.vscode/`. */
function workspaceOf(file: string): string {
  const folder = dirname(resolve(file));
  return folder.endsWith("/.vscode") || folder.endsWith("\\.vscode") ? dirname(folder) : folder;
}

/** 1-based line and column of an offset. */
function locate(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** "CommaExpected" → "comma expected"; "InvalidSymbol" → "invalid symbol". */
function describeParseError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
