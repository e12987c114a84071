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

import { VERSION } from "./src/version.ts";

if (import.meta.main) {
  const [first, ...rest] = Deno.args;
  if (rest.length === 0 && (first === "--version" || first === "-V")) {
    // Answered before anything else loads: `--version` is what scripts call to probe the tool.
    console.log(`mcp-inspect ${VERSION}`);
  } else {
    const { main } = await import("./src/cli/cli.ts");
    Deno.exit(await main(Deno.args));
  }
}
