/**
 * The public types of the {@link ToolRegistry}: local tool definitions, registry entries, call
 * options, events, the result cache and statistics.
 *
 * @module
 */

import type { JsonObject } from "../jsonrpc.ts";
import type { ServerManager } from "../manager/manager.ts";
import type { ManagerCallOptions } from "../manager/types.ts";
import type { Progress } from "../session.ts";
import type { ManagerStats, StatsOptions, ToolStats } from "../stats/stats.ts";
import type { CallToolResult, JsonSchema, Tool, ToolAnnotations } from "../types.ts";

/**
 * Where a tool comes from: `"local"` (a handler in this process) or `"mcp"` (a server of the
 * manager).
 *
 * @example Listing only local tools
 * ```ts
 * import { ToolRegistry, type ToolSource } from "@mcp-inspect/client/manager";
 * using registry = new ToolRegistry();
 * registry.register({ name: "hi", inputSchema: { type: "object" }, handler: () => "hi" });
 * const mine = registry.listBySource("local" satisfies ToolSource);
 * console.log(mine.map((entry) => entry.name)); // ["hi"]
 * ```
 */
export type ToolSource = "local" | "mcp";

/**
 * What a local tool's handler knows about its call, and how it reports progress.
 *
 * @example A handler that reports progress
 * ```ts
 * import type { LocalToolContext } from "@mcp-inspect/client/manager";
 * async function work(context: LocalToolContext): Promise<void> {
 *   context.progress({ progress: 1, total: 2, message: "half way" });
 *   if (context.signal.aborted) return;
 * }
 * ```
 */
export interface LocalToolContext {
  /** Aborted when the caller cancels, or the call times out; stop working then. */
  signal: AbortSignal;
  /** `_meta` the caller passed (for a call through the proxy: the incoming request's). */
  meta: JsonObject;
  /** Reports progress to the caller's `onProgress`; with `resetTimeoutOnProgress` it also
   * restarts the idle timeout. */
  progress(progress: Progress): void;
}

/**
 * A local tool's implementation. Return a {@link CallToolResult}, or a string for a single text
 * block. A thrown {@link McpError} fails the call as it would from a server; any other thrown
 * error becomes a result with `isError: true` and the error's message, so the model can read it.
 *
 * @example A handler returning text
 * ```ts
 * import type { LocalToolHandler } from "@mcp-inspect/client/manager";
 * const shout: LocalToolHandler = (args) => String(args.text).toUpperCase();
 * ```
 */
export type LocalToolHandler = (
  args: Record<string, unknown>,
  context: LocalToolContext,
) => CallToolResult | string | Promise<CallToolResult | string>;

/**
 * A tool written in TypeScript, to register in a {@link ToolRegistry}.
 *
 * @example A read-only local tool with structured output
 * ```ts
 * import type { LocalTool } from "@mcp-inspect/client/manager";
 * const add: LocalTool = {
 *   name: "add",
 *   description: "Adds two numbers.",
 *   inputSchema: {
 *     type: "object",
 *     properties: { a: { type: "number" }, b: { type: "number" } },
 *     required: ["a", "b"],
 *   },
 *   outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
 *   annotations: { readOnlyHint: true },
 *   handler: ({ a, b }) => {
 *     const sum = Number(a) + Number(b);
 *     return { content: [{ type: "text", text: String(sum) }], structuredContent: { sum } };
 *   },
 * };
 * ```
 */
export interface LocalTool {
  /** 1 to 64 characters of `[A-Za-z0-9_-]`, not starting with `mcp__` (the servers' names). */
  name: string;
  /** Display name. */
  title?: string;
  /** What it does, for the model. */
  description?: string;
  /** The JSON Schema of its arguments (`type: "object"`); arguments are checked before a call. */
  inputSchema: JsonSchema;
  /** The JSON Schema of its `structuredContent`, checked after a call. */
  outputSchema?: JsonSchema;
  /** Behaviour hints. */
  annotations?: ToolAnnotations;
  /** The implementation. */
  handler: LocalToolHandler;
}

/**
 * A tool's annotations with the defaults of the specification filled in: a tool that says
 * nothing may modify its environment destructively and reach an open world. `destructive` is
 * always false for a read-only tool.
 *
 * @example Asking before a destructive call
 * ```ts
 * import { ToolRegistry } from "@mcp-inspect/client/manager";
 *
 * using registry = new ToolRegistry();
 * const drop = { name: "drop_table", title: "Drop the table", inputSchema: { type: "object" } };
 * registry.register({ ...drop, handler: () => "dropped" }); // no annotations: destructive
 * const askUser = (question: string): boolean => {
 *   console.log(question); // a real host shows a dialog; this user says no
 *   return false;
 * };
 * const entry = registry.get("drop_table");
 * if (entry?.hints.destructive && !askUser(`Run ${entry.hints.title ?? entry.name}?`)) {
 *   console.log("not run"); // after "Run Drop the table?"
 * }
 * ```
 */
export interface ToolHints {
  /** `title` of the tool, else of its annotations. */
  title?: string;
  /** `readOnlyHint` (default false). */
  readOnly: boolean;
  /** `destructiveHint` (default true), false when read-only. */
  destructive: boolean;
  /** `idempotentHint` (default false). */
  idempotent: boolean;
  /** `openWorldHint` (default true). */
  openWorld: boolean;
}

/**
 * A tool in the registry, whatever its source.
 *
 * @example Listing tools with their source
 * ```ts
 * import { ServerManager, ToolRegistry } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * await manager.connect("demo", { command: "demo" });
 * using registry = new ToolRegistry({ manager });
 * const now = { name: "now", annotations: { readOnlyHint: true } };
 * registry.register({ ...now, inputSchema: { type: "object" }, handler: () => Date() });
 * for (const entry of registry.list()) console.log(entry.name, entry.source, entry.hints.readOnly);
 * // "now" "local" true, then "mcp__demo__echo" "mcp" false
 * ```
 */
export interface RegisteredTool {
  /** The name to call it by: the local tool's name, or the manager's qualified name. */
  name: string;
  /** Where it comes from. */
  source: ToolSource;
  /** Its definition under {@link name}, annotations included: what to show a model. */
  tool: Tool;
  /** Its annotations with the specification's defaults. */
  hints: ToolHints;
  /** For an MCP tool, the server offering it. */
  server?: string;
  /** For an MCP tool, its name on that server. */
  serverTool?: string;
}

/**
 * Options of {@link ToolRegistry.call}: those of a manager call, for both sources.
 *
 * @example A call that skips the cache
 * ```ts
 * import { ToolRegistry } from "@mcp-inspect/client/manager";
 * using registry = new ToolRegistry({ cache: true });
 * let runs = 0;
 * const search = { name: "search", annotations: { readOnlyHint: true } };
 * registry.register({ ...search, inputSchema: { type: "object" }, handler: () => `answer ${++runs}` });
 * await registry.call("search", { q: "deno" }); // answered, and the answer kept
 * await registry.call("search", { q: "deno" }, { timeoutMs: 5_000, bypassCache: true });
 * console.log(runs); // 2: the second call did not take the kept answer
 * ```
 */
export interface RegistryCallOptions extends ManagerCallOptions {
  /** Call the tool even when the result cache holds an answer (the answer is refreshed). */
  bypassCache?: boolean;
}

/**
 * The opt-in result cache. Only tools annotated `readOnlyHint: true`, or whose names match
 * `allow`, are cached, and never a tool annotated `destructiveHint: true`. Errors and results
 * with `isError` are never kept. A server's entries are dropped when its tool list changes.
 *
 * @example Caching answers of one server's unannotated tools
 * ```ts
 * import type { ResultCacheOptions } from "@mcp-inspect/client/manager";
 * const cache: ResultCacheOptions = { ttlMs: 30_000, maxEntries: 200, allow: ["mcp__docs__*"] };
 * ```
 *
 * @example Aging answers by a clock moved by hand, as a test does
 * ```ts
 * import type { ResultCacheOptions } from "@mcp-inspect/client/manager";
 * let now = 1_000;
 * const cache: ResultCacheOptions = { ttlMs: 1_000, now: () => now };
 * now += 1_001; // every answer kept so far is now too old to serve
 * ```
 */
export interface ResultCacheOptions {
  /** How long an answer is served (default 60 s). */
  ttlMs?: number;
  /** The most answers kept; the least recently used go first (default 500). */
  maxEntries?: number;
  /** Names or glob patterns of tools without annotations to cache too. */
  allow?: string[];
  /**
   * The clock answers are aged by, in milliseconds (default `performance.now()`). Only the
   * differences between its readings matter, so tests can pass a clock they move by hand instead
   * of waiting `ttlMs` out.
   */
  now?: () => number;
}

/**
 * Options of {@link ToolRegistry}.
 *
 * @example A registry with meta-tools and a cache
 * ```ts
 * import { ServerManager, ToolRegistry } from "@mcp-inspect/client/manager";
 * await using manager = new ServerManager();
 * const registry = new ToolRegistry({ manager, resourceTools: true, cache: { ttlMs: 10_000 } });
 * console.log(registry.list().map((entry) => entry.name));
 * // ["ListMcpResources", "ReadMcpResource"]
 * registry.close();
 * ```
 */
export interface RegistryOptions {
  /** The manager whose tools the registry follows; without one, only local tools. */
  manager?: ServerManager;
  /** Add the `ListMcpResources` and `ReadMcpResource` tools (needs a manager). */
  resourceTools?: boolean;
  /** Cache answers of read-only tools; `true` for the defaults. */
  cache?: ResultCacheOptions | boolean;
  /** How local tool statistics keep latencies. */
  stats?: StatsOptions;
}

/**
 * What changed in the registry, by name.
 *
 * @example Logging what changed
 * ```ts
 * import { ToolRegistry } from "@mcp-inspect/client/manager";
 * using registry = new ToolRegistry();
 * registry.on("changed", ({ added, removed }) => console.error(`+${added} -${removed}`));
 * registry.register({ name: "hi", inputSchema: { type: "object" }, handler: () => "hi" });
 * registry.unregister("hi");
 * // "+hi -", then "+ -hi"
 * ```
 */
export interface RegistryChange {
  /** Tools that appeared. */
  added: string[];
  /** Tools that went away. */
  removed: string[];
  /** Tools whose definition changed. */
  updated: string[];
}

/**
 * The events of a {@link ToolRegistry}.
 *
 * @example Republishing tools when they change
 * ```ts
 * import { type RegisteredTool, ToolRegistry } from "@mcp-inspect/client/manager";
 * using registry = new ToolRegistry();
 * const publish = (tools: RegisteredTool[]) => console.log(tools.map((entry) => entry.name));
 * registry.on("changed", () => publish(registry.list()));
 * registry.register({ name: "hi", inputSchema: { type: "object" }, handler: () => "hi" });
 * // ["hi"]
 * ```
 */
export interface RegistryEvents {
  /** Tools were registered or unregistered, or a server's tools changed. */
  changed: RegistryChange;
}

/**
 * How the result cache is doing.
 *
 * @example Reading the cache's hit rate
 * ```ts
 * import { ToolRegistry } from "@mcp-inspect/client/manager";
 * using registry = new ToolRegistry({ cache: true });
 * const now = { name: "now", annotations: { readOnlyHint: true } };
 * registry.register({ ...now, inputSchema: { type: "object" }, handler: () => "noon" });
 * await registry.call("now");
 * await registry.call("now");
 * const { hits, misses } = registry.stats().cache!;
 * console.log(hits, misses); // 1 1
 * ```
 */
export interface CacheStats {
  /** Calls answered from the cache. */
  hits: number;
  /** Cacheable calls that went to the tool. */
  misses: number;
  /** Answers held now. */
  size: number;
}

/**
 * What {@link ToolRegistry.stats} returns.
 *
 * @example Reading every statistic
 * ```ts
 * import { ToolRegistry } from "@mcp-inspect/client/manager";
 * using registry = new ToolRegistry({ cache: true });
 * registry.register({ name: "hi", inputSchema: { type: "object" }, handler: () => "hi" });
 * await registry.call("hi");
 * const { local, mcp, cache } = registry.stats();
 * console.log(local[0]?.calls, mcp, cache); // 1 undefined { hits: 0, misses: 0, size: 0 }
 * ```
 */
export interface RegistryStats {
  /** Local tools called at least once. */
  local: ToolStats[];
  /** The manager's statistics, when the registry has a manager. */
  mcp?: ManagerStats;
  /** The result cache, when enabled. */
  cache?: CacheStats;
}
