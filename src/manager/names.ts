/**
 * Qualified names: `mcp__<server>__<tool>`, the form Claude Code and most agent hosts give the
 * tools of many servers in one list. Model APIs accept tool names of `[A-Za-z0-9_-]{1,64}`.
 *
 * @module
 */

import { MAX_LENGTH, qualify } from "./_names.ts";

/**
 * The longest qualified name: the limit of the model APIs tool names are sent to.
 *
 * @example The longest name a model API accepts
 * ```ts
 * import { MAX_QUALIFIED_NAME_LENGTH } from "@mcp-inspect/client/manager";
 * console.log(MAX_QUALIFIED_NAME_LENGTH); // 64
 * ```
 */
export const MAX_QUALIFIED_NAME_LENGTH: number = MAX_LENGTH;

/**
 * The qualified name of one tool (or prompt) taken alone: characters outside `[A-Za-z0-9_-]`
 * become `_`, and a name over 64 characters is cut and ends with `_` and a hash of the exact
 * server and tool names. A {@link ServerManager} adds a hash to resolve collisions too; ask it
 * ({@link ServerManager.qualifiedName}) for the name it uses.
 *
 * @example Qualifying a tool whose names have a dot and a space
 * ```ts
 * import { qualifiedToolName } from "@mcp-inspect/client/manager";
 * console.log(qualifiedToolName("my.server", "read file")); // "mcp__my_server__read_file"
 * ```
 */
export function qualifiedToolName(server: string, tool: string): string {
  return qualify(server, tool);
}
