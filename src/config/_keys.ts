// The keys each config shape may hold, and the warning for one it may not. A misspelled key is
// otherwise ignored without a word: `"denyTools": ["delete_file"]` hides nothing, and the tool
// it meant to hide is served. Only server entries and the sections we own are checked; the top
// level of a whole-app file such as ~/.claude.json holds many keys that are none of our business.

import { distance } from "fastest-levenshtein";
import type { LoadConfigOptions } from "./config.ts";
import { ConfigError, type ConfigWarning } from "./errors.ts";

/** What every entry may say about how the manager treats it (ServerPolicy). */
const POLICY = ["disabled", "enabled", "allow", "deny", "idleTimeoutMs"];

/** Keys clients write for their own UI (Cline, Roo, Windsurf, …); the loader ignores them. */
const CLIENT_UI = [
  "autoApprove",
  "alwaysAllow",
  "disabledTools",
  "timeout",
  "description",
  "transportType",
  "watchPaths",
  "name",
];

/** Each app's entry keys, from its documentation and the files it writes. */
const APP_KEYS = {
  claudeDesktop: ["command", "args", "env"],
  claudeCode: ["type", "command", "args", "env", "url", "headers", "headersHelper", "oauth"],
  cursor: ["type", "command", "args", "env", "envFile", "url", "headers"],
  // `dev` (watch and debug a server under development), `gallery` and `version` (servers
  // installed from the gallery) are written by VS Code itself.
  vscode: ["type", "command", "args", "env", "envFile", "cwd", "url", "headers", "dev"]
    .concat(["gallery", "version"]),
  yaml: ["id", "command", "args", "env", "url", "headers", "auto_discover"],
};

/** The keys a server entry may hold, by file format. */
export const ENTRY_KEYS: Readonly<Record<"mcpServers" | "vscode" | "yaml", readonly string[]>> = {
  // Claude Desktop, Claude Code and Cursor share `mcpServers` and cannot be told apart.
  mcpServers: unique(
    APP_KEYS.claudeDesktop,
    APP_KEYS.claudeCode,
    APP_KEYS.cursor,
    ["cwd"],
    POLICY,
    CLIENT_UI,
  ),
  vscode: unique(APP_KEYS.vscode, POLICY),
  yaml: unique(APP_KEYS.yaml, ["type", "cwd", "envFile"], POLICY),
};

/** The keys of the sections we own, by their path. */
export const SECTION_KEYS: Readonly<Record<"servers" | "mcp" | "mcp.pool", readonly string[]>> = {
  // VS Code's mcp.json, or the "mcp" object of its settings.json
  servers: ["servers", "inputs"],
  "mcp": ["servers", "pool"],
  "mcp.pool": ["max_idle_time", "cleanup_interval"],
};

function unique(...lists: readonly string[][]): string[] {
  return [...new Set(lists.flat())];
}

/** A key as written, and where. */
export interface KeyAt {
  key: string;
  line: number;
  column: number;
}

/**
 * A warning for each key not in `known`. `where` is a server (`in server "fs"`), a section
 * (`in "mcp.pool"`), or the top level of the file (section `""`).
 */
export function unknownKeys(
  keys: readonly KeyAt[],
  known: readonly string[],
  file: string,
  where: { server: string } | { section: string },
): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  for (const { key, line, column } of keys) {
    if (known.includes(key)) continue;
    const suggestion = closestKey(key, known);
    const place = "server" in where
      ? `in server "${where.server}"`
      : where.section === ""
      ? "at the top level"
      : `in "${where.section}"`;
    const hint = suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`;
    warnings.push({
      message: `${file}:${line}: unknown key "${key}" ${place}${hint}`,
      file,
      line,
      column,
      key,
      ...("server" in where ? { server: where.server } : {}),
      ...(suggestion === undefined ? {} : { suggestion }),
    });
  }
  return warnings;
}

/**
 * The known key `key` most likely meant: the same but for case, then one that starts it or that
 * it starts (`denyTools` → `deny`, `disable` → `disabled`), then the nearest by edit distance if
 * near enough to be a typo.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const same = known.find((k) => k.toLowerCase() === lower);
  if (same) return same;
  // "denyTools" → "deny": the longest known key it starts with
  const starts = known.filter((k) => k.length >= 3 && lower.startsWith(k.toLowerCase()));
  if (starts.length > 0) return starts.sort((a, b) => b.length - a.length)[0];
  // "disable" → "disabled" rather than "disabledTools": the shortest known key starting with it
  const started = known.filter((k) => lower.length >= 3 && k.toLowerCase().startsWith(lower));
  if (started.length > 0) return started.sort((a, b) => a.length - b.length)[0];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  const typo = key.length <= 3 ? 1 : Math.max(2, Math.floor(key.length / 3));
  return bestDistance <= typo ? best : undefined;
}

/** The warnings in file order; with `strict`, the first is thrown as an error. */
export function settleWarnings(
  warnings: readonly ConfigWarning[],
  options: LoadConfigOptions & { file: string },
): ConfigWarning[] {
  const sorted = [...warnings].sort((a, b) => a.line - b.line || a.column - b.column);
  const first = sorted[0];
  if (!options.strict || !first) return sorted;
  const more = warnings.length > 1 ? `; and ${warnings.length - 1} more unknown key(s)` : "";
  throw new ConfigError(`${first.message}${more}`, {
    file: options.file,
    line: first.line,
    column: first.column,
    server: first.server,
  });
}
