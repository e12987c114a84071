/**
 * `mcp-inspect`: explore, call and check any MCP server from the terminal.
 *
 * @example Listing the tools of a server
 * ```sh
 * deno run -A jsr:@mcp-inspect/client/cli tools list -- npx -y @modelcontextprotocol/server-everything
 * ```
 *
 * @module
 */

import { main } from "./src/cli/cli.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
