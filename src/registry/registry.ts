/**
 * The tool registry: every tool an agent can use in one place, whatever its source. Local tools
 * (TypeScript handlers) sit beside the tools of the servers of a {@link ServerManager}, listed,
 * filtered, called and watched the same way, with annotations carried through, optional
 * resource meta-tools, statistics and an opt-in result cache.
 *
 * @module
 */

import { Emitter } from "../emitter.ts";
import type { ServerManager } from "../manager/manager.ts";
import { CallRecorder } from "../stats/recorder.ts";
import { UnknownToolError } from "../manager/errors.ts";
import { SchemaValidator } from "../schema.ts";
// register() checks schemas synchronously: the registry loads the engine with itself.
import "../schema_engine.ts";
import type { CallToolResult } from "../types.ts";
import { ResultCache } from "./_cache.ts";
import { changed, diffMcp, localEntry } from "./_entries.ts";
import { runLocal } from "./_local.ts";
import { resourceTools } from "./_resources.ts";
import { ToolRegistrationError } from "./errors.ts";
import type {
  LocalTool,
  RegisteredTool,
  RegistryCallOptions,
  RegistryChange,
  RegistryEvents,
  RegistryOptions,
  RegistryStats,
  ToolSource,
} from "./types.ts";

export * from "./errors.ts";
export * from "./types.ts";

/**
 * Local tools and the tools of a manager's servers in one registry.
 *
 * The MCP entries follow the manager: they are rebuilt whenever a server's tools change, a
 * server comes or goes, or is toggled, so unregistering one lasts until then. Local tools stay
 * until unregistered. Local names never start with `mcp__`, so the two never collide.
 *
 * @example A local tool beside the tools of a manager's servers
 * ```ts
 * import { ServerManager, ToolRegistry } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "read_file" }] }); // in memory, for "files"
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * await manager.setServers({ files: { command: "files" } });
 * using registry = new ToolRegistry({ manager, resourceTools: true, cache: true });
 * registry.register({
 *   name: "now",
 *   description: "The current time.",
 *   inputSchema: { type: "object" },
 *   annotations: { readOnlyHint: true },
 *   handler: () => new Date().toISOString(),
 * });
 * for (const entry of registry.list()) console.log(entry.name, entry.source);
 * // ListMcpResources local, ReadMcpResource local, now local, mcp__files__read_file mcp
 * const result = await registry.call("now", {}, { timeoutMs: 1_000 });
 * console.log(result.content); // [{ type: "text", text: "2026-05-04T12:00:00.000Z" }], say
 * ```
 */
export class ToolRegistry implements Disposable {
  readonly #local = new Map<string, { entry: RegisteredTool; tool: LocalTool }>();
  #mcp = new Map<string, RegisteredTool>();
  readonly #manager: ServerManager | undefined;
  readonly #validator = new SchemaValidator();
  readonly #events = new Emitter<RegistryEvents>(() => {});
  readonly #recorder: CallRecorder;
  readonly #cache: ResultCache | undefined;
  readonly #unsubscribe: (() => void)[] = [];

  /**
   * Creates a registry; with a manager, its tools are in the registry at once and follow it.
   *
   * @throws {TypeError} when `resourceTools` is asked for without a manager.
   * @example A registry of local tools only
   * ```ts
   * import { ToolRegistry } from "@mcp-inspect/client/manager";
   * using registry = new ToolRegistry();
   * registry.register({ name: "ping", inputSchema: { type: "object" }, handler: () => "pong" });
   * console.log((await registry.call("ping")).content); // [{ type: "text", text: "pong" }]
   * ```
   */
  constructor(options: RegistryOptions = {}) {
    this.#manager = options.manager;
    this.#recorder = new CallRecorder(options.stats);
    if (options.cache) this.#cache = new ResultCache(options.cache === true ? {} : options.cache);
    if (options.resourceTools) {
      if (!this.#manager) throw new TypeError("resourceTools needs a manager");
      for (const tool of resourceTools(this.#manager)) this.register(tool);
    }
    const manager = this.#manager;
    if (manager) {
      this.#unsubscribe.push(manager.on("toolsChanged", ({ servers }) => {
        this.#cache?.dropServers(servers);
        this.#sync(manager);
      }));
      this.#sync(manager);
    }
  }

  /**
   * The manager whose tools the registry follows, if any.
   *
   * @example Reading the servers behind a registry
   * ```ts
   * import { ServerManager, ToolRegistry } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "read" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("files", { command: "files" });
   * using registry = new ToolRegistry({ manager });
   * console.log(registry.manager?.servers().map((s) => s.name)); // ["files"]
   * ```
   */
  get manager(): ServerManager | undefined {
    return this.#manager;
  }

  /**
   * Subscribes to an event; returns a function that unsubscribes.
   *
   * @example Following changes
   * ```ts
   * import { ToolRegistry } from "@mcp-inspect/client/manager";
   * using registry = new ToolRegistry();
   * const off = registry.on("changed", ({ added }) => console.log("added", added));
   * registry.register({ name: "hi", inputSchema: { type: "object" }, handler: () => "hi" });
   * off();
   * ```
   */
  on<K extends keyof RegistryEvents>(
    event: K,
    listener: (payload: RegistryEvents[K]) => void,
  ): () => void {
    return this.#events.on(event, listener);
  }

  #emit(change: RegistryChange): void {
    if (changed(change)) this.#events.emit("changed", change);
  }

  #sync(manager: ServerManager): void {
    const { next, change } = diffMcp(this.#mcp, manager.allTools());
    this.#mcp = next;
    this.#emit(change);
  }

  /**
   * Adds a local tool.
   *
   * @throws {ToolRegistrationError} when the name is invalid, starts with `mcp__` or is taken, or
   *   a schema does not compile.
   * @example Registering a tool and reading its hints
   * ```ts
   * import { ToolRegistry } from "@mcp-inspect/client/manager";
   * using registry = new ToolRegistry();
   * const entry = registry.register({
   *   name: "drop_table",
   *   inputSchema: { type: "object", properties: { table: { type: "string" } } },
   *   annotations: { destructiveHint: true },
   *   handler: ({ table }) => `dropped ${table}`,
   * });
   * console.log(entry.hints.destructive); // true
   * ```
   */
  register(tool: LocalTool): RegisteredTool {
    const entry = localEntry(tool, this.#validator);
    if (this.#local.has(entry.name)) {
      throw new ToolRegistrationError(entry.name, "duplicate", "a local tool of that name exists");
    }
    this.#local.set(entry.name, { entry, tool });
    this.#cache?.dropTool(entry.name);
    this.#emit({ added: [entry.name], removed: [], updated: [] });
    return entry;
  }

  /**
   * Removes one tool; returns whether it was there.
   *
   * @example Removing a local tool
   * ```ts
   * import { ToolRegistry } from "@mcp-inspect/client/manager";
   * using registry = new ToolRegistry();
   * registry.register({ name: "drop_table", inputSchema: { type: "object" }, handler: () => "ok" });
   * registry.unregister("drop_table");
   * console.log(registry.get("drop_table"), registry.unregister("drop_table")); // undefined false
   * ```
   */
  unregister(name: string): boolean {
    const removed = this.#local.delete(name) || this.#mcp.delete(name);
    if (!removed) return false;
    this.#cache?.dropTool(name);
    this.#emit({ added: [], removed: [name], updated: [] });
    return true;
  }

  /**
   * Removes every tool whose name starts with `prefix` (such as `mcp__files__`), in one change
   * event; returns their names.
   *
   * @example Hiding one server's tools
   * ```ts
   * import { ServerManager, ToolRegistry } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "read" }, { name: "write" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("files", { command: "files" });
   * using registry = new ToolRegistry({ manager });
   * const removed = registry.unregisterByPrefix("mcp__files__");
   * console.log(removed); // ["mcp__files__read", "mcp__files__write"]
   * ```
   */
  unregisterByPrefix(prefix: string): string[] {
    const removed: string[] = [];
    for (const map of [this.#local, this.#mcp] as Map<string, unknown>[]) {
      for (const name of [...map.keys()]) {
        if (!name.startsWith(prefix)) continue;
        map.delete(name);
        this.#cache?.dropTool(name);
        removed.push(name);
      }
    }
    this.#emit({ added: [], removed, updated: [] });
    return removed;
  }

  /**
   * Every tool: local tools in the order registered, then MCP tools in the manager's order.
   *
   * @example The tool definitions to send to a model
   * ```ts
   * import { ToolRegistry } from "@mcp-inspect/client/manager";
   * using registry = new ToolRegistry();
   * registry.register({ name: "now", inputSchema: { type: "object" }, handler: () => Date() });
   * const tools = registry.list().map((entry) => entry.tool);
   * console.log(tools); // [{ name: "now", inputSchema: { type: "object" } }]
   * ```
   */
  list(): RegisteredTool[] {
    return [...[...this.#local.values()].map(({ entry }) => entry), ...this.#mcp.values()];
  }

  /**
   * The tools of one source.
   *
   * @example Only the servers' tools
   * ```ts
   * import { ServerManager, ToolRegistry } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "read" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("files", { command: "files" });
   * using registry = new ToolRegistry({ manager });
   * registry.register({ name: "now", inputSchema: { type: "object" }, handler: () => Date() });
   * console.log(registry.listBySource("mcp").map((entry) => `${entry.server}: ${entry.serverTool}`));
   * // ["files: read"]
   * ```
   */
  listBySource(source: ToolSource): RegisteredTool[] {
    return source === "local"
      ? [...this.#local.values()].map(({ entry }) => entry)
      : [...this.#mcp.values()];
  }

  /**
   * The tool of that name.
   *
   * @example Checking a tool before calling it
   * ```ts
   * import { ServerManager, ToolRegistry } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "drop" }] }); // no annotations: destructive
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("db", { command: "db" });
   * using registry = new ToolRegistry({ manager });
   * const confirmWithUser = () => Promise.resolve(console.log("Drop the table?"));
   * if (registry.get("mcp__db__drop")?.hints.destructive) await confirmWithUser();
   * // "Drop the table?"
   * ```
   */
  get(name: string): RegisteredTool | undefined {
    return this.#local.get(name)?.entry ?? this.#mcp.get(name);
  }

  /**
   * Calls a tool of either source with the same options: `signal`, `timeoutMs`,
   * `resetTimeoutOnProgress`, `maxTotalTimeoutMs`, `onProgress` and `meta`. A local tool's
   * arguments are checked against its input schema first ({@link ValidationError}); a timeout
   * rejects with {@link TimeoutError} and cancellation with {@link CancelledError}, whatever the
   * source. An MCP tool that is hidden by a deny list is refused as the manager refuses it.
   *
   * @throws {UnknownToolError} when no tool has that name.
   * @example Calling a tool with a deadline and progress
   * ```ts
   * import { ServerManager, ToolRegistry } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({
   *   tools: [{ name: "run", handler: (_args, context) => {
   *     context.progress({ progress: 1, total: 2 });
   *     return "built";
   *   } }],
   * });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("build", { command: "build" });
   * using registry = new ToolRegistry({ manager });
   * const result = await registry.call("mcp__build__run", { target: "all" }, {
   *   timeoutMs: 30_000,
   *   resetTimeoutOnProgress: true,
   *   onProgress: (p) => console.error(`${p.progress}/${p.total ?? "?"}`),
   * });
   * console.log(result.content); // 1/2, then [{ type: "text", text: "built" }]
   * ```
   */
  async call(
    name: string,
    args: Record<string, unknown> = {},
    options: RegistryCallOptions = {},
  ): Promise<CallToolResult> {
    const { bypassCache, ...rest } = options;
    const local = this.#local.get(name);
    if (local) {
      const run = () =>
        this.#recorder.track(name, () => runLocal(local.tool, args, rest, this.#validator));
      return await this.#cached(local.entry, args, bypassCache, run);
    }
    const manager = this.#manager;
    if (!manager) throw new UnknownToolError(name);
    const entry = this.#mcp.get(name);
    // A tool the manager offers but the registry does not was unregistered here: refuse it.
    // Tools the manager hides go on to the manager, which says why (deny list, disabled).
    if (!entry && manager.findTool(name)) throw new UnknownToolError(name);
    return await this.#cached(entry, args, bypassCache, () => manager.callTool(name, args, rest));
  }

  async #cached(
    entry: RegisteredTool | undefined,
    args: Record<string, unknown>,
    bypass: boolean | undefined,
    run: () => Promise<CallToolResult>,
  ): Promise<CallToolResult> {
    const cache = this.#cache;
    if (!cache || !entry || !cache.accepts(entry)) return await run();
    const key = cache.key(entry, args);
    if (!bypass) {
      const held = cache.get(key);
      if (held) return held;
    }
    const result = await run();
    // The tool may have gone or changed while it ran; do not keep an answer for a stale entry.
    if (this.get(entry.name) === entry) cache.set(key, entry, result);
    return result;
  }

  /**
   * Statistics: local tools (calls, errors, timeouts, latency percentiles), the manager's
   * servers and tools, and the result cache.
   *
   * @example Reading statistics of every source
   * ```ts
   * import { ServerManager, ToolRegistry } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * using registry = new ToolRegistry({ manager, cache: true });
   * registry.register({ name: "hi", inputSchema: { type: "object" }, handler: () => "hi" });
   * await registry.call("hi");
   * const { local, mcp, cache } = registry.stats();
   * console.error(local.map((t) => `${t.name}: ${t.calls}`), mcp?.servers.length, cache?.hits);
   * // ["hi: 1"] 1 0
   * ```
   */
  stats(): RegistryStats {
    const stats: RegistryStats = {
      local: this.#recorder.tools((name) => this.#local.has(name) ? name : undefined),
    };
    if (this.#manager) stats.mcp = this.#manager.stats();
    if (this.#cache) stats.cache = this.#cache.stats();
    return stats;
  }

  /**
   * Stops following the manager and empties the cache; the manager keeps running.
   *
   * @example Closing a registry
   * ```ts
   * import { ToolRegistry } from "@mcp-inspect/client/manager";
   * const registry = new ToolRegistry({ cache: true });
   * const now = { name: "now", annotations: { readOnlyHint: true } };
   * registry.register({ ...now, inputSchema: { type: "object" }, handler: () => "noon" });
   * await registry.call("now"); // kept in the cache
   * registry.close();
   * console.log(registry.stats().cache?.size); // 0
   * ```
   */
  close(): void {
    for (const off of this.#unsubscribe.splice(0)) off();
    this.#cache?.clear();
  }

  /**
   * Same as {@link close}.
   *
   * @example Closing at the end of a scope
   * ```ts
   * import { ServerManager, ToolRegistry } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * {
   *   using registry = new ToolRegistry({ manager });
   *   console.log(registry.list().length); // 1
   * } // closed here: it no longer follows the manager, which keeps running
   * console.log(manager.servers()[0]?.state); // "ready"
   * ```
   */
  [Symbol.dispose](): void {
    this.close();
  }
}
