// The errors and warnings of config loading, apart from the loader so that its private readers
// (JSONC, YAML, key checks) can raise them without importing the loader back.

/**
 * A problem in a config file. Errors about the whole file are thrown by {@link loadConfig};
 * problems with one server entry are collected in {@link LoadedConfig.issues} and the entry is
 * skipped while the others load.
 *
 * @example Reporting where a config file is broken
 * ```ts
 * import { ConfigError, parseConfig } from "@mcp-inspect/client/manager";
 * try {
 *   parseConfig('{ "mcpServers": { "a": { "command": "x" } ', { file: "mcp.json" });
 * } catch (error) {
 *   if (!(error instanceof ConfigError)) throw error;
 *   console.log(error.file, error.line, error.column);
 * }
 * ```
 */
export class ConfigError extends Error {
  /** The config file. */
  readonly file: string;
  /** The 1-based line of the problem, when it has a place in the file. */
  readonly line: number | undefined;
  /** The 1-based column of the problem, when it has a place in the file. */
  readonly column: number | undefined;
  /** The server entry at fault, if the problem is in one. */
  readonly server: string | undefined;
  /** The variable that could not be expanded, if that is the problem. */
  readonly variable: string | undefined;

  /**
   * Creates the error; the message is built by the loader.
   *
   * @example An error that names its file
   * ```ts
   * import { ConfigError } from "@mcp-inspect/client/manager";
   * const error = new ConfigError("Cannot read config file \"x.json\": not found", { file: "x.json" });
   * console.log(error.file);
   * ```
   */
  constructor(
    message: string,
    where: {
      file: string;
      line?: number;
      column?: number;
      server?: string | undefined;
      variable?: string | undefined;
    },
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ConfigError";
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
    this.server = where.server;
    this.variable = where.variable;
  }
}

/**
 * A key that no config shape knows, such as `"denyTools"` for `"deny"`: the loader ignores it,
 * which is rarely what its author meant. With `strict`, it is a {@link ConfigError} instead.
 *
 * @example Printing the warnings of a config file
 * ```ts
 * import { parseConfig } from "@mcp-inspect/client/manager";
 * const text = '{ "mcpServers": { "fs": { "command": "x", "denyTools": ["rm"] } } }';
 * const { warnings } = parseConfig(text, { file: ".mcp.json" });
 * console.log(warnings[0]?.message);
 * // .mcp.json:1: unknown key "denyTools" in server "fs" (did you mean "deny"?)
 * ```
 */
export interface ConfigWarning {
  /** `<file>:<line>: unknown key "<key>" in server "<name>" (did you mean "<suggestion>"?)`. */
  message: string;
  /** The config file. */
  file: string;
  /** The 1-based line of the key. */
  line: number;
  /** The 1-based column of the key. */
  column: number;
  /** The key as written. */
  key: string;
  /** The server entry holding it, when it is in one. */
  server?: string;
  /** The known key it most likely meant, if one is close. */
  suggestion?: string;
}
