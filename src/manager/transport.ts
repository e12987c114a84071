/**
 * The transport for a server config, as the manager builds it: a child process for `command`,
 * HTTP for `url`. Public so that a host's own `createTransport`, and the web page, build the
 * very same one and only add what they need (an authorizing `fetch`, a stderr sink).
 *
 * @module
 */

import type { ServerConfig } from "../config/config.ts";
import { HttpTransport } from "../transport/http.ts";
import { StdioTransport } from "../transport/stdio.ts";
import type { Transport } from "../transport/transport.ts";

/**
 * Options of {@link configTransport}.
 *
 * @example Printing a local server's stderr
 * ```ts
 * import type { ConfigTransportOptions } from "@mcp-inspect/client/manager";
 * const options: ConfigTransportOptions = { stderr: (line) => console.error(`[files] ${line}`) };
 * ```
 */
export interface ConfigTransportOptions {
  /** Receives each stderr line of a stdio server (default: kept for error messages only). */
  stderr?: ((line: string) => void) | undefined;
  /**
   * The `fetch` of a remote server's requests, such as an `OAuthProvider`'s (`@mcp-inspect/client/auth`)
   * to send stored tokens (default: the global `fetch`). Not used for stdio servers.
   */
  fetch?: typeof fetch | undefined;
}

/**
 * Builds the transport for a server config, unstarted: a {@link StdioTransport} for `command`
 * (`name` names it in errors; an empty `cwd` means the current directory), an
 * {@link HttpTransport} for `url` (Streamable HTTP with the legacy HTTP+SSE fallback, or the
 * legacy transport alone for `type: "sse"`). This is the manager's default `createTransport`.
 *
 * @example Building the transport of a remote entry
 * ```ts
 * import { configTransport } from "@mcp-inspect/client/manager";
 * import assert from "node:assert/strict";
 *
 * const transport = configTransport("remote", {
 *   url: "https://example.com/mcp",
 *   headers: { "X-Team": "tools" },
 * });
 * assert.equal(transport.constructor.name, "HttpTransport");
 * await transport.close();
 * ```
 *
 * @example A manager whose remote servers send the tokens `mcp-inspect auth login` stored
 * ```ts
 * import { configTransport, ServerManager } from "@mcp-inspect/client/manager";
 * import { FileTokenStore, OAuthProvider } from "@mcp-inspect/client/auth";
 *
 * const store = new FileTokenStore();
 * await using manager = new ServerManager({
 *   createTransport: (name, config) =>
 *     configTransport(name, config, {
 *       fetch: "url" in config
 *         ? new OAuthProvider({ serverUrl: config.url, store }).fetch
 *         : undefined,
 *     }),
 * });
 * ```
 */
export function configTransport(
  name: string,
  config: ServerConfig,
  options: ConfigTransportOptions = {},
): Transport {
  if ("command" in config) {
    return new StdioTransport({
      command: config.command,
      name,
      args: config.args,
      env: config.env,
      // `||`, not `??`: an empty cwd has always meant the current directory.
      cwd: config.cwd || undefined,
      stderr: options.stderr,
    });
  }
  return new HttpTransport({
    url: config.url,
    headers: config.headers,
    transport: config.type === "sse" ? "sse" : "auto",
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
