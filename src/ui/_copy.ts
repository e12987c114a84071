// What the page's "copy" buttons give: an action as the equivalent mcp-inspect command line, and
// a connection as an entry of the config files people already have.

// @ts-types="@types/shell-quote"
import { quote } from "shell-quote";
import type { ServerConfig } from "../config/config.ts";

/**
 * The `mcp-inspect` command line that does what `words` (e.g. `["tools", "call", "echo"]`) did
 * on the page, with `args` as `--args` JSON, against the server `config` describes.
 */
export function commandLine(
  config: ServerConfig,
  words: readonly string[],
  args?: Record<string, unknown>,
): string {
  const parts = ["mcp-inspect", ...words];
  if (args !== undefined && Object.keys(args).length > 0) {
    parts.push("--args", JSON.stringify(args));
  }
  if ("command" in config) {
    for (const [key, value] of Object.entries(config.env ?? {})) {
      parts.push("-e", `${key}=${value}`);
    }
    if (config.cwd !== undefined) parts.push("--cwd", config.cwd);
    parts.push("--", config.command, ...(config.args ?? []));
  } else {
    parts.push("--url", config.url);
    if (config.type === "sse") parts.push("--transport", "sse");
    for (const [key, value] of Object.entries(config.headers ?? {})) {
      parts.push("-H", `${key}: ${value}`);
    }
  }
  return quote(parts);
}

/**
 * A server as an entry of Claude Desktop's, VS Code's and Claude Code's config files, with its
 * allow and deny lists.
 */
export function configEntries(name: string, config: ServerConfig): {
  claudeDesktop: string;
  vscode: string;
  claudeCode: string;
} {
  // The lists travel with the entry: pasted into a config file, it must hide what the page hid
  // (every shape our loader reads takes "allow" and "deny"; the apps ignore keys they lack).
  const lists = {
    ...(config.allow ? { allow: config.allow } : {}),
    ...(config.deny ? { deny: config.deny } : {}),
  };
  const stdio = "command" in config
    ? {
      command: config.command,
      ...(config.args?.length ? { args: config.args } : {}),
      ...(config.env && Object.keys(config.env).length > 0 ? { env: config.env } : {}),
      ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
      ...lists,
    }
    : undefined;
  const remote = "command" in config ? undefined : {
    type: config.type === "sse" ? "sse" : "http",
    url: config.url,
    ...(config.headers && Object.keys(config.headers).length > 0
      ? { headers: config.headers }
      : {}),
    ...lists,
  };
  const typed = stdio ? { type: "stdio", ...stdio } : remote!;
  const show = (value: unknown) => JSON.stringify(value, null, 2);
  return {
    // Claude Desktop starts local servers; a remote one goes in as its URL entry.
    claudeDesktop: show({ mcpServers: { [name]: stdio ?? remote } }),
    vscode: show({ servers: { [name]: typed } }),
    claudeCode: show({ mcpServers: { [name]: typed } }),
  };
}
