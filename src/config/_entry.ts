// One server entry of a config file, checked and normalised into a ServerConfig. The field names
// are the union of what Claude Desktop, Claude Code, Cursor and VS Code write; fields they add for
// their own UI (autoApprove, timeout, …) are ignored.

import { isAbsolute, resolve } from "node:path";
import type { HttpServerConfig, ServerConfig, ServerPolicy, StdioServerConfig } from "./config.ts";
import { ExpansionError } from "./_expand.ts";

/** A path inside the entry: keys and array indexes. */
export type EntryPath = readonly (string | number)[];

/** A problem with one entry; `path` points at the offending value. */
export class EntryError extends Error {
  readonly path: EntryPath;
  readonly variable: string | undefined;

  constructor(message: string, path: EntryPath, variable?: string) {
    super(message);
    this.name = "EntryError";
    this.path = path;
    this.variable = variable;
  }
}

/** What normalising needs from the loader. */
export interface EntryContext {
  /** Expands variables in a string value. */
  expand(value: string): string;
  /** Reads a dotenv file (VS Code and Cursor `envFile`), relative to the config file. */
  readEnvFile(path: string): Record<string, string>;
  /** The config file's folder, against which a relative `command` is resolved. */
  folder: string;
}

type Raw = Record<string, unknown>;

const TYPES: Record<string, "stdio" | "http" | "sse"> = {
  "stdio": "stdio",
  "http": "http",
  "streamable-http": "http",
  "streamableHttp": "http",
  "sse": "sse",
};

function isObject(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks and expands one entry. @throws {EntryError} naming the field at fault. */
export function normalizeEntry(raw: unknown, context: EntryContext): ServerConfig {
  if (!isObject(raw)) throw new EntryError("the entry must be an object", []);
  const at = (path: EntryPath, value: string): string => {
    try {
      return context.expand(value);
    } catch (error) {
      if (error instanceof ExpansionError) {
        throw new EntryError(error.message, path, error.variable);
      }
      throw error;
    }
  };
  const type = kindOf(raw);
  const policy = normalizePolicy(raw);
  if (type === "stdio") {
    const command = at(["command"], requiredString(raw, "command", type));
    if (command.trim() === "") throw new EntryError(`"command" must not be empty`, ["command"]);
    // `./server.sh` beside the config file must not depend on the folder the CLI runs in; a bare
    // name (`npx`) is looked up on PATH.
    const program = /[\\/]/.test(command) && !isAbsolute(command)
      ? resolve(context.folder, command)
      : command;
    const config: StdioServerConfig = { type, command: program, ...policy };
    const args = stringArray(raw, "args");
    if (args) config.args = args.map((arg, i) => at(["args", i], arg));
    const env: Record<string, string> = {};
    const envFile = optionalString(raw, "envFile");
    if (envFile !== undefined) {
      try {
        Object.assign(env, context.readEnvFile(at(["envFile"], envFile)));
      } catch (error) {
        if (error instanceof EntryError) throw error;
        throw new EntryError(`cannot read "envFile": ${(error as Error).message}`, ["envFile"]);
      }
    }
    for (const [key, value] of Object.entries(stringMap(raw, "env", true) ?? {})) {
      env[key] = at(["env", key], value);
    }
    if (envFile !== undefined || raw.env !== undefined) config.env = env;
    const cwd = optionalString(raw, "cwd");
    if (cwd !== undefined) config.cwd = at(["cwd"], cwd);
    return config;
  }
  const url = at(["url"], requiredString(raw, "url", type));
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EntryError(`"url" is not a valid URL: ${url}`, ["url"]);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new EntryError(`"url" must be http: or https:, got ${parsed.protocol}`, ["url"]);
  }
  const config: HttpServerConfig = { type, url, ...policy };
  const headers = stringMap(raw, "headers", false);
  if (headers) {
    config.headers = Object.fromEntries(
      Object.entries(headers).map(([key, value]) => [key, at(["headers", key], value)]),
    );
  }
  return config;
}

function kindOf(raw: Raw): "stdio" | "http" | "sse" {
  if (raw.type !== undefined) {
    const type = typeof raw.type === "string" && Object.hasOwn(TYPES, raw.type)
      ? TYPES[raw.type]
      : undefined;
    if (!type) {
      throw new EntryError(
        `"type" must be "stdio", "http" or "sse", got ${JSON.stringify(raw.type)}`,
        ["type"],
      );
    }
    return type;
  }
  const hasCommand = raw.command !== undefined;
  const hasUrl = raw.url !== undefined;
  if (hasCommand && hasUrl) {
    throw new EntryError(`the entry has both "command" and "url"; give one`, []);
  }
  if (hasCommand) return "stdio";
  if (hasUrl) return "http";
  throw new EntryError(
    `the entry needs "command" (a local server) or "url" (a remote server)`,
    [],
  );
}

function normalizePolicy(raw: Raw): ServerPolicy {
  const policy: ServerPolicy = {};
  for (const key of ["disabled", "enabled"] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== "boolean") {
      throw new EntryError(`"${key}" must be true or false`, [key]);
    }
  }
  if (raw.disabled === true || raw.enabled === false) policy.disabled = true;
  const allow = stringArray(raw, "allow");
  if (allow) policy.allow = allow;
  const deny = stringArray(raw, "deny");
  if (deny) policy.deny = deny;
  if (raw.idleTimeoutMs !== undefined) {
    if (typeof raw.idleTimeoutMs !== "number" || !(raw.idleTimeoutMs >= 0)) {
      throw new EntryError(`"idleTimeoutMs" must be a number of milliseconds`, ["idleTimeoutMs"]);
    }
    policy.idleTimeoutMs = raw.idleTimeoutMs;
  }
  return policy;
}

function requiredString(raw: Raw, key: string, type: string): string {
  const value = optionalString(raw, key);
  if (value === undefined) throw new EntryError(`"${key}" is required for type "${type}"`, []);
  return value;
}

function optionalString(raw: Raw, key: string): string | undefined {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new EntryError(`"${key}" must be a string`, [key]);
  return value;
}

function stringArray(raw: Raw, key: string): string[] | undefined {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new EntryError(`"${key}" must be an array of strings`, [key]);
  value.forEach((item, i) => {
    if (typeof item !== "string") {
      throw new EntryError(`"${key}[${i}]" must be a string`, [key, i]);
    }
  });
  return value as string[];
}

/** An object of strings; for `env`, numbers and booleans are accepted and turned into text. */
function stringMap(raw: Raw, key: string, scalars: boolean): Record<string, string> | undefined {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (!isObject(value)) throw new EntryError(`"${key}" must be an object`, [key]);
  const result: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) {
    const ok = typeof item === "string" ||
      (scalars && (typeof item === "number" || typeof item === "boolean"));
    if (!ok) throw new EntryError(`"${key}.${name}" must be a string`, [key, name]);
    result[name] = String(item);
  }
  return result;
}
