// YAML config files in the shape of the design this project comes from:
//
//   mcp:
//     servers:
//       - id: files
//         command: npx
//         args: [-y, "@modelcontextprotocol/server-filesystem", "."]
//         env: { DEBUG: "1" }
//         auto_discover: true
//       - id: api
//         url: https://example.com/mcp
//         headers: { Authorization: "Bearer ${API_TOKEN}" }
//     pool:
//       max_idle_time: 5m
//       cleanup_interval: 1m
//
// Each entry goes through the same checks and `${VAR}` expansion as a JSON entry, and every
// problem is reported with the line and column of the YAML node at fault.

import { dirname, resolve } from "node:path";
import { parseEnv } from "node:util";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import parseDuration from "parse-duration";
import type { LoadConfigOptions, LoadedConfig, PoolSettings, ServerConfig } from "./config.ts";
import { ConfigError } from "./errors.ts";
import { type EntryPath, normalizeEntry } from "./_entry.ts";
import { expand } from "./_expand.ts";
import { MAX_CONFIG_DEPTH } from "./_depth.ts";
import { yamlTooDeepAt } from "./_yaml_depth.ts";
import { ENTRY_KEYS, type KeyAt, SECTION_KEYS, settleWarnings, unknownKeys } from "./_keys.ts";

type Document = ReturnType<typeof parseDocument>;

/** A problem at a path of the document; `path` is relative to the document's root. */
class YamlProblem extends Error {
  readonly path: EntryPath;
  readonly variable: string | undefined;

  constructor(message: string, path: EntryPath, variable?: string) {
    super(message);
    this.path = path;
    this.variable = variable;
  }
}

const SERVERS: EntryPath = ["mcp", "servers"];

/** Parses the text of a YAML config file; see `loadConfig`. */
export function parseYamlConfig(
  text: string,
  options: LoadConfigOptions & { file: string },
): LoadedConfig {
  const { file } = options;
  const lines = new LineCounter();
  const deep = yamlTooDeepAt(text, MAX_CONFIG_DEPTH);
  if (deep !== undefined) {
    const line = text.slice(0, deep).split("\n").length;
    const column = deep - text.lastIndexOf("\n", deep - 1);
    throw new ConfigError(
      `Cannot parse config file "${file}" at line ${line}, column ${column}: nested more than ${MAX_CONFIG_DEPTH} levels deep`,
      { file, line, column },
    );
  }
  // YAML 1.2 core schema: `no` and `on` stay strings; duplicate keys are errors.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const where = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  const first = doc.errors[0];
  if (first) {
    const { line, column } = where(first.pos[0]);
    throw new ConfigError(
      `Cannot parse config file "${file}" at line ${line}, column ${column}: ${
        first.message.split("\n")[0]
      }`,
      { file, line, column },
    );
  }
  const list = doc.getIn(SERVERS, true);
  if (!isSeq(list)) {
    const at = list ?? doc.getIn(["mcp"], true) ?? doc.contents;
    const { line, column } = where(offsetOf(at));
    throw new ConfigError(
      `Cannot load config file "${file}" at line ${line}, column ${column}: expected a list at "mcp.servers"`,
      { file, line, column },
    );
  }
  const lookup = lookupOf(options.env);
  const folder = options.workspaceFolder ?? dirname(resolve(file));
  const predefined: Record<string, string> = {
    workspaceFolder: folder,
    workspaceFolderBasename: folder.split(/[\\/]/).filter(Boolean).pop() ?? "",
    userHome: lookup("HOME") ?? lookup("USERPROFILE") ?? "",
    pathSeparator: "/",
  };
  const context = {
    expand: (value: string) => expand(value, lookup, predefined),
    readEnvFile: (path: string) => readEnvFile(resolve(dirname(file), path)),
    folder: dirname(resolve(file)),
  };
  const issues: ConfigError[] = [];
  const report = (problem: unknown, fallback: EntryPath, server?: string, what?: string) => {
    const path = (problem as { path?: EntryPath }).path ?? fallback;
    const node = nodeAt(doc, path) ?? nodeAt(doc, fallback);
    const { line, column } = where(offsetOf(node));
    const variable = (problem as { variable?: string }).variable;
    const subject = server !== undefined
      ? `server "${server}" from "${file}"`
      : `${what ?? "config file"} "${file}"`;
    issues.push(
      new ConfigError(
        `Cannot load ${subject} at line ${line}, column ${column}: ${(problem as Error).message}`,
        {
          file,
          line,
          column,
          server,
          // `||`: an empty variable name is none, as it has always been.
          variable: variable || undefined,
        },
        { cause: problem },
      ),
    );
  };

  const pool = readPool(doc, report);
  const keysOf = (map: unknown): KeyAt[] =>
    isMap(map)
      ? map.items.map((pair) => ({
        key: String(isScalar(pair.key) ? pair.key.value : pair.key),
        ...where(offsetOf(pair.key)),
      }))
      : [];
  const warnings = [
    ...unknownKeys(keysOf(doc.getIn(["mcp"], true)), SECTION_KEYS.mcp, file, { section: "mcp" }),
    ...unknownKeys(keysOf(doc.getIn(["mcp", "pool"], true)), SECTION_KEYS["mcp.pool"], file, {
      section: "mcp.pool",
    }),
  ];
  const servers: Record<string, ServerConfig> = {};
  list.items.forEach((item, index) => {
    const name = isMap(item) ? item.get("id") : undefined;
    if (typeof name === "string") {
      warnings.push(...unknownKeys(keysOf(item), ENTRY_KEYS.yaml, file, { server: name }));
    }
    const at: EntryPath = [...SERVERS, index];
    const entry = `entry ${index + 1} of`;
    const raw = isMap(item) ? item.toJS(doc) as Record<string, unknown> : undefined;
    if (!raw) {
      return report(new YamlProblem("the entry must be a mapping", at), at, undefined, entry);
    }
    const id = raw.id;
    if (typeof id !== "string" || id.trim() === "") {
      const path = id === undefined ? at : [...at, "id"];
      return report(new YamlProblem(`"id" must be a non-empty string`, path), at, undefined, entry);
    }
    if (Object.hasOwn(servers, id)) {
      return report(new YamlProblem(`"id" is used twice`, [...at, "id"]), at, id);
    }
    try {
      servers[id] = normalizeEntry(toEntry(raw, at, pool), context);
    } catch (error) {
      const inner = (error as { path?: EntryPath }).path;
      const path = error instanceof YamlProblem ? error.path : [...at, ...(inner ?? [])];
      const variable = (error as { variable?: string }).variable;
      report(new YamlProblem((error as Error).message, path, variable), at, id);
    }
  });
  const loaded: LoadedConfig = {
    file,
    format: "yaml",
    servers,
    issues,
    warnings: settleWarnings(warnings, options),
  };
  if (pool.maxIdleTimeMs !== undefined || pool.cleanupIntervalMs !== undefined) {
    loaded.pool = pool;
  }
  return loaded;
}

/** The design's keys mapped onto the JSON entry fields `normalizeEntry` checks. */
function toEntry(
  raw: Record<string, unknown>,
  at: EntryPath,
  pool: PoolSettings,
): Record<string, unknown> {
  const { id: _id, auto_discover: autoDiscover, ...entry } = raw;
  if (autoDiscover !== undefined) {
    if (typeof autoDiscover !== "boolean") {
      throw new YamlProblem(`"auto_discover" must be true or false`, [...at, "auto_discover"]);
    }
    // Without discovery the server stays configured but offers nothing until a host enables it
    // (ServerManager.toggle), which is what the original design's flag meant.
    if (!autoDiscover) entry.disabled = true;
  }
  const stdio = entry.command !== undefined || entry.type === "stdio";
  if (stdio && entry.idleTimeoutMs === undefined && pool.maxIdleTimeMs !== undefined) {
    entry.idleTimeoutMs = pool.maxIdleTimeMs;
  }
  return entry;
}

/** `mcp.pool`: a bad value is an issue and is left out, so the servers still load. */
function readPool(
  doc: Document,
  report: (problem: unknown, fallback: EntryPath) => void,
): PoolSettings {
  const pool: PoolSettings = {};
  const node = doc.getIn(["mcp", "pool"], true);
  if (node === undefined || node === null) return pool;
  if (!isMap(node)) {
    report(new YamlProblem(`"mcp.pool" must be a mapping`, ["mcp", "pool"]), ["mcp", "pool"]);
    return pool;
  }
  const keys = [["max_idle_time", "maxIdleTimeMs"], ["cleanup_interval", "cleanupIntervalMs"]];
  for (const [key, field] of keys as [string, keyof PoolSettings][]) {
    const value = doc.getIn(["mcp", "pool", key]);
    if (value === undefined) continue;
    const ms = durationMs(value);
    if (ms === undefined) {
      const path = ["mcp", "pool", key];
      report(
        new YamlProblem(
          `"pool.${key}" must be a duration: seconds as a number, or a string such as "90s" or "5m"`,
          path,
        ),
        path,
      );
    } else pool[field] = ms;
  }
  return pool;
}

/** A number is seconds; a string is a number of seconds or a duration with units ("1m30s"). */
function durationMs(value: unknown): number | undefined {
  if (typeof value === "number") {
    return value >= 0 && Number.isFinite(value) ? value * 1000 : undefined;
  }
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const ms = parseDuration(text);
  return typeof ms === "number" && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

function nodeAt(doc: Document, path: EntryPath): unknown {
  return path.length === 0 ? doc.contents : doc.getIn(path, true);
}

function offsetOf(node: unknown): number {
  const range = (node as Node | undefined)?.range;
  return range?.[0] ?? 0;
}

function lookupOf(env: LoadConfigOptions["env"]): (name: string) => string | undefined {
  if (typeof env === "function") return env;
  if (env) return (name) => Object.hasOwn(env, name) ? env[name] : undefined;
  return (name) => Deno.env.get(name);
}

/** A dotenv file, parsed by Node's own parser (as for JSON config files). */
function readEnvFile(path: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parseEnv(Deno.readTextFileSync(path)))) {
    if (value !== undefined) env[key] = value;
  }
  return env;
}
