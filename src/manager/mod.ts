/**
 * Many servers at once: a {@link ServerManager} started from the config files people already
 * have (Claude Desktop, VS Code, Cursor, Claude Code, YAML), with qualified names
 * `mcp__<server>__<tool>`, allow and deny lists, health checks and reconnection; a
 * {@link ToolRegistry} that puts local tools beside them; and call statistics.
 *
 * @example Calling a tool of any configured server
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * // An in-memory fake stands in for the command of every server
 * const fake = new FakeServer({
 *   tools: [{ name: "read_file", handler: (args) => `# ${args.path}` }],
 * });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * const file = await Deno.makeTempFile({ suffix: ".json" }); // .mcp.json
 * await Deno.writeTextFile(file, JSON.stringify({ mcpServers: { files: { command: "files" } } }));
 * await manager.watch(file);
 * const result = await manager.callTool("mcp__files__read_file", { path: "README.md" });
 * console.log(result.content); // [{ type: "text", text: "# README.md" }]
 * await Deno.remove(file);
 * ```
 *
 * @module
 */

export {
  ConfigError,
  type ConfigWarning,
  type HttpServerConfig,
  loadConfig,
  type LoadConfigOptions,
  type LoadedConfig,
  parseConfig,
  type PoolSettings,
  type ServerConfig,
  type ServerPolicy,
  type StdioServerConfig,
} from "../config/config.ts";
export { defaultConfigFiles, existingConfigFiles } from "../config/locations.ts";
export { type ToolRefusal, toolRefusal } from "../config/policy.ts";
export { ServerManager } from "./manager.ts";
export {
  ServerUnavailableError,
  SkillDeniedError,
  ToolDeniedError,
  UnknownToolError,
} from "./errors.ts";
export { MAX_QUALIFIED_NAME_LENGTH, qualifiedToolName } from "./names.ts";
export { configTransport, type ConfigTransportOptions } from "./transport.ts";
export {
  type ConfigWatcher,
  type ManagedPrompt,
  type ManagedResource,
  type ManagedResourceTemplate,
  type ManagedSkill,
  type ManagedSkillListing,
  type ManagedTool,
  type ManagerCallOptions,
  type ManagerEvents,
  type ManagerOptions,
  type ServerRequestHandlers,
  type ServerState,
  type ServerStatus,
  type SetServersResult,
  type WatchOptions,
} from "./types.ts";
export { ToolRegistry } from "../registry/registry.ts";
export { ToolRegistrationError } from "../registry/errors.ts";
export {
  type CacheStats,
  type LocalTool,
  type LocalToolContext,
  type LocalToolHandler,
  type RegisteredTool,
  type RegistryCallOptions,
  type RegistryChange,
  type RegistryEvents,
  type RegistryOptions,
  type RegistryStats,
  type ResultCacheOptions,
  type ToolHints,
  type ToolSource,
} from "../registry/types.ts";
export {
  type CallStats,
  type LatencyPercentiles,
  type ManagerStats,
  type ServerStats,
  type StatsOptions,
  type ToolStats,
} from "../stats/stats.ts";
