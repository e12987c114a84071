// The config of a server added from the page, or taken from a config file, checked field by
// field: the API takes any JSON, and only how to reach the server and its lists are kept.

import type { ServerConfig } from "../config/config.ts";
import { HubError } from "./_hub_error.ts";

/** The config of server `name` added from the page, checked field by field. */
export function checkedConfig(name: string, value: unknown): ServerConfig {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HubError("A server config is an object with a command or a url");
  }
  const config = value as Record<string, unknown>;
  // A config file's loader treats these alike, and the CLI refuses such an entry: a disabled
  // server is one its user chose not to run, so the page does not start it either.
  for (const key of ["disabled", "enabled"]) {
    if (config[key] !== undefined && typeof config[key] !== "boolean") {
      throw new HubError(`"${key}" must be true or false`);
    }
  }
  if (config.disabled === true || config.enabled === false) {
    const field = config.disabled === true ? `"disabled": true` : `"enabled": false`;
    throw new HubError(
      `Cannot add server "${name}": its config says ${field}; remove that to connect it`,
    );
  }
  const strings = (key: string) => {
    const item = config[key];
    if (item === undefined) return undefined;
    if (!Array.isArray(item) || !item.every((entry) => typeof entry === "string")) {
      throw new HubError(`"${key}" must be an array of strings`);
    }
    return item as string[];
  };
  const record = (key: string) => {
    const item = config[key];
    if (item === undefined) return undefined;
    if (
      typeof item !== "object" || item === null || Array.isArray(item) ||
      !Object.values(item).every((entry) => typeof entry === "string")
    ) throw new HubError(`"${key}" must be an object of strings`);
    return item as Record<string, string>;
  };
  // Servers of a config file come through here too: without their lists, the page would offer
  // and call the tools those lists hide from the manager and the proxy.
  const allow = strings("allow");
  const deny = strings("deny");
  const policy = { ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) };
  if (typeof config.command === "string" && config.command !== "") {
    const args = strings("args");
    const env = record("env");
    const cwd = config.cwd;
    if (cwd !== undefined && typeof cwd !== "string") throw new HubError(`"cwd" must be a string`);
    return {
      command: config.command,
      ...(args ? { args } : {}),
      ...(env ? { env } : {}),
      ...(cwd ? { cwd } : {}),
      ...policy,
    };
  }
  if (typeof config.url === "string") {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new HubError(`Invalid URL "${config.url}"`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new HubError(`Invalid URL "${config.url}": only http: and https: are served`);
    }
    const headers = record("headers");
    const type = config.type;
    if (type !== undefined && type !== "http" && type !== "sse") {
      throw new HubError(`"type" must be "http" or "sse"`);
    }
    return {
      url: url.href,
      ...(headers ? { headers } : {}),
      ...(type ? { type } : {}),
      ...policy,
    };
  }
  throw new HubError("A server config needs a non-empty command or a url");
}
