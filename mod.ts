/**
 * A Deno-first client for the Model Context Protocol.
 *
 * - {@link Client}: connect to a server, list and call its tools, read its resources, render its
 *   prompts, and answer its roots, sampling and elicitation requests.
 * - {@link StdioTransport}: a server as a child process; {@link MemoryTransport} for tests.
 * - {@link Session}: the JSON-RPC core (timeouts, cancellation, progress) for raw use.
 * - Errors: {@link McpError} is what the server sent; {@link TimeoutError},
 *   {@link CancelledError}, {@link ConnectionClosedError}, {@link ProtocolError},
 *   {@link CapabilityError} and {@link ValidationError} are raised locally.
 *
 * @example Listing and calling tools of a local server
 * ```ts ignore
 * import { Client, StdioTransport } from "@mcp-inspect/client";
 *
 * await using client = await Client.connect(
 *   new StdioTransport({ command: "deno", args: ["run", "server.ts"] }),
 * );
 * const tools = await client.listTools(); // every page
 * const result = await client.callTool("echo", { text: "hi" }, { timeoutMs: 5_000 });
 * console.log(tools.map((tool) => tool.name), result.content);
 * ```
 *
 * @module
 */

export * from "./src/jsonrpc.ts";
export * from "./src/errors.ts";
export * from "./src/types.ts";
export * from "./src/session.ts";
export * from "./src/client.ts";
export * from "./src/client/handlers.ts";
export * from "./src/schema.ts";
export * from "./src/spec_schema.ts";
export * from "./src/version.ts";
export * from "./src/transport/transport.ts";
export * from "./src/transport/stdio.ts";
export * from "./src/transport/memory.ts";
export * from "./src/transport/streamable_http.ts";
export * from "./src/transport/sse.ts";
export * from "./src/transport/http.ts";
export * from "./src/transport/tap.ts";
export * from "./src/config.ts";
export * from "./src/config/locations.ts";
export * from "./src/redact.ts";
export * from "./src/skills/skills.ts";
export * from "./src/surface/surface.ts";
export * from "./src/record/record.ts";
export * from "./src/record/replay.ts";
export * from "./src/record/verify.ts";
export * from "./src/manager.ts";
export * from "./src/server/server.ts";
export * from "./src/server/stdio.ts";
export * from "./src/server/http.ts";
export * from "./src/server/proxy.ts";
export * from "./src/server/relay.ts";
export * from "./src/stats.ts";
export * from "./src/registry.ts";
export * from "./src/auth/errors.ts";
export * from "./src/auth/types.ts";
export * from "./src/auth/store.ts";
export * from "./src/auth/file_store.ts";
export * from "./src/auth/provider.ts";
export * from "./src/auth/loopback.ts";
export * from "./src/auth/browser.ts";
