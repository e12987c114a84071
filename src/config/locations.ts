/**
 * Where MCP config files usually are: the project's own files first, then the user's.
 *
 * @module
 */

/**
 * The config files people already have, most specific first: Claude Code's `.mcp.json`, Cursor's
 * and VS Code's project files, then Claude Desktop's, Cursor's and Claude Code's user files.
 * Files that do not exist are included; callers skip them.
 *
 * @example The first file looked for in a project
 * ```ts
 * import { defaultConfigFiles } from "@mcp-inspect/client/manager";
 * console.log(defaultConfigFiles("/work/project")[0]); // "/work/project/.mcp.json"
 * ```
 */
export function defaultConfigFiles(cwd: string = Deno.cwd()): string[] {
  const env = (name: string) => {
    try {
      return Deno.env.get(name);
    } catch {
      return undefined;
    }
  };
  const home = env("HOME") ?? env("USERPROFILE");
  const files = [`${cwd}/.mcp.json`, `${cwd}/.cursor/mcp.json`, `${cwd}/.vscode/mcp.json`];
  const os = Deno.build.os;
  const desktop = os === "darwin"
    ? home && `${home}/Library/Application Support/Claude/claude_desktop_config.json`
    : os === "windows"
    ? env("APPDATA") && `${env("APPDATA")}\\Claude\\claude_desktop_config.json`
    : (env("XDG_CONFIG_HOME") ?? (home && `${home}/.config`)) &&
      `${env("XDG_CONFIG_HOME") ?? `${home}/.config`}/Claude/claude_desktop_config.json`;
  if (desktop) files.push(desktop);
  if (home) files.push(`${home}/.cursor/mcp.json`, `${home}/.claude.json`);
  return files;
}

/**
 * The usual config files that exist, in order.
 *
 * @example Printing the config files found here
 * ```ts
 * import { existingConfigFiles } from "@mcp-inspect/client/manager";
 * for (const file of await existingConfigFiles()) console.log(file);
 * ```
 */
export async function existingConfigFiles(cwd?: string): Promise<string[]> {
  const found: string[] = [];
  for (const file of defaultConfigFiles(cwd)) {
    try {
      if ((await Deno.stat(file)).isFile) found.push(file);
    } catch {
      // absent, or not readable: not a candidate
    }
  }
  return found;
}
