/**
 * The manager: many MCP servers kept connected and healthy, their tools, resources and prompts
 * in one registry under qualified names, following config changes without restarting what did
 * not change. One bad server never blocks or fails the others.
 *
 * @module
 */

import { Emitter } from "../emitter.ts";
import type { Client } from "../client/client.ts";
import type { ServerConfig } from "../config/config.ts";
import type { ManagerStats } from "../stats/stats.ts";
import type {
  CallToolResult,
  CompleteResult,
  CompletionReference,
  GetPromptResult,
  ReadResourceResult,
} from "../types.ts";
import { CallRouter } from "./_calls.ts";
import { ItemIndex } from "./_item_index.ts";
import { type ListKind, ManagedServer } from "./_server.ts";
import { DEFAULT_WINDOW_MS, serverStats } from "../stats/recorder.ts";
import { applyServers } from "./_diff.ts";
import { type ServerSettings, settingsOf } from "./_settings.ts";
import { followConfig } from "./_watch.ts";
import { statusOf } from "./_status.ts";
import { listSkills, loadSkill } from "./_skills.ts";
import type { LoadedSkill } from "../skills/skills.ts";
import type {
  ConfigWatcher,
  ManagedPrompt,
  ManagedResource,
  ManagedResourceTemplate,
  ManagedSkill,
  ManagedSkillListing,
  ManagedTool,
  ManagerCallOptions,
  ManagerEvents,
  ManagerOptions,
  ServerStatus,
  SetServersResult,
  WatchOptions,
} from "./types.ts";

export * from "./errors.ts";
export * from "./names.ts";
export * from "./types.ts";

const KIND_EVENT = {
  tools: "toolsChanged",
  resources: "resourcesChanged",
  prompts: "promptsChanged",
} as const;

/**
 * Many MCP servers as one registry.
 *
 * @example Calling a tool of one of several servers
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fakes: Record<string, FakeServer> = { // in-memory fakes stand in for the commands
 *   files: new FakeServer({ tools: [{ name: "read_file", handler: (args) => `# ${args.path}` }] }),
 *   git: new FakeServer({ tools: [{ name: "status" }] }),
 * };
 * await using manager = new ServerManager({ createTransport: (name) => fakes[name]!.transport() });
 * await manager.setServers({ files: { command: "files" }, git: { command: "git" } });
 * console.log(manager.allTools().map((t) => t.qualifiedName));
 * // ["mcp__files__read_file", "mcp__git__status"]
 * const result = await manager.callTool("mcp__files__read_file", { path: "README.md" });
 * console.log(result.content); // [{ type: "text", text: "# README.md" }]
 * ```
 */
export class ServerManager implements AsyncDisposable {
  readonly #servers = new Map<string, ManagedServer>();
  readonly #settings: ServerSettings;
  readonly #options: ManagerOptions;
  readonly #events: Emitter<ManagerEvents>;
  readonly #registry = new ItemIndex(() => [...this.#servers.values()]);
  /** Where tool, prompt, resource and completion calls go (manager/_calls.ts). */
  readonly #calls = new CallRouter(this.#servers, this.#registry);
  readonly #watchers = new Set<ConfigWatcher>();
  #closing: Promise<void> | undefined;

  /**
   * Creates an empty manager; add servers with {@link connect}, {@link setServers} or
   * {@link watch}.
   *
   * @example An empty manager whose idle stdio servers stop after five minutes
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * const manager = new ServerManager({ idleTimeoutMs: 300_000 });
   * await manager.close();
   * ```
   */
  constructor(options: ManagerOptions = {}) {
    this.#options = options;
    this.#settings = settingsOf(options);
    this.#events = new Emitter(() => {});
  }

  /**
   * Subscribes to an event; returns a function that unsubscribes.
   *
   * @example Logging a server's way to `ready`
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * const off = manager.on("stateChanged", (status) => console.log(status.name, status.state));
   * await manager.connect("demo", { command: "demo" }); // demo connecting, then demo ready
   * off();
   * ```
   */
  on<K extends keyof ManagerEvents>(
    event: K,
    listener: (payload: ManagerEvents[K]) => void,
  ): () => void {
    return this.#events.on(event, listener);
  }

  #add(name: string, config: ServerConfig): ManagedServer {
    const server = new ManagedServer(name, config, this.#settings, {
      stateChanged: (s) => this.#servers.get(s.name) === s && this.#stateChanged(s),
      listsChanged: (s, kinds) => this.#servers.get(s.name) === s && this.#changed(s.name, kinds),
      log: (s, message) => this.#events.emit("log", { server: s.name, message }),
      resourceUpdated: (s, uri) => this.#events.emit("resourceUpdated", { server: s.name, uri }),
      diagnostic: (s, diagnostic) => this.#options.onDiagnostic?.(s.name, diagnostic),
    });
    this.#servers.set(name, server);
    return server;
  }

  #stateChanged(server: ManagedServer): void {
    this.#events.emit("stateChanged", statusOf(server));
  }

  #changed(name: string, kinds: readonly ListKind[]): void {
    this.#registry.invalidate();
    for (const kind of kinds) this.#events.emit(KIND_EVENT[kind], { servers: [name] });
  }

  /**
   * Adds a server (replacing any of that name) and connects it.
   *
   * @throws the connection error when the first attempt fails; the server stays configured
   *   and keeps retrying.
   * @example Connecting a server (an in-memory fake stands in for its command)
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * const status = await manager.connect("demo", { command: "demo" });
   * console.log(status.state, status.toolCount); // "ready" 1
   * ```
   */
  async connect(name: string, config: ServerConfig): Promise<ServerStatus> {
    const old = this.#servers.get(name);
    if (old) {
      this.#servers.delete(name);
      await old.close();
      this.#changed(name, ["tools", "resources", "prompts"]);
    }
    const server = this.#add(name, config);
    await server.start();
    return statusOf(server);
  }

  /**
   * Stops a server and removes it.
   *
   * @example Removing a server
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * await manager.disconnect("demo");
   * console.log(manager.servers()); // []
   * ```
   */
  async disconnect(name: string): Promise<void> {
    const server = this.#servers.get(name);
    if (!server) return;
    this.#servers.delete(name);
    await server.close();
    this.#stateChanged(server);
    this.#changed(name, ["tools", "resources", "prompts"]);
  }

  /**
   * Makes the running servers match `configs`, all at once: unchanged servers keep their
   * connection, changed ones restart, removed ones stop and new ones start. Policy changes
   * (allow, deny, disabled, idle timeout) apply without reconnecting. Never rejects because of a
   * server: failures are in the result.
   *
   * @example Replacing one server of two
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.setServers({ a: { command: "a" }, b: { command: "b" } });
   * const result = await manager.setServers({ a: { command: "a" }, c: { command: "c" } });
   * console.log(result.unchanged, result.stopped, result.started); // ["a"] ["b"] ["c"]
   * ```
   */
  async setServers(configs: Readonly<Record<string, ServerConfig>>): Promise<SetServersResult> {
    return await applyServers(this.#servers, configs, {
      connect: (name, config) => this.connect(name, config),
      disconnect: (name) => this.disconnect(name),
    });
  }

  /**
   * Shows or hides a server's tools, resources and prompts. A disabled server's connection
   * stays open, so enabling it again is instant.
   *
   * @example Hiding a server's tools for a while
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * await manager.toggle("demo", false);
   * console.log(manager.allTools(), manager.servers()[0]?.state); // [] "disabled"
   * ```
   */
  async toggle(name: string, enabled: boolean): Promise<void> {
    await this.#calls.server(name).setEnabled(enabled);
  }

  /**
   * Every visible tool of every enabled server, by server name then in server order.
   *
   * @example Listing tools under their qualified names
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * console.log(manager.allTools().map((t) => t.qualifiedName)); // ["mcp__demo__echo"]
   * ```
   */
  allTools(): ManagedTool[] {
    return this.#registry.tools().filter((entry) => entry.visible).map((entry) => ({
      server: entry.server.name,
      qualifiedName: entry.qualifiedName,
      tool: entry.item,
    }));
  }

  /**
   * Every prompt of every enabled server.
   *
   * @example Listing prompts under their qualified names
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ prompts: [{ name: "greet", text: "Say hello" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * console.log(manager.allPrompts().map((p) => p.qualifiedName)); // ["mcp__demo__greet"]
   * ```
   */
  allPrompts(): ManagedPrompt[] {
    return this.#registry.prompts().filter((entry) => entry.visible).map((entry) => ({
      server: entry.server.name,
      qualifiedName: entry.qualifiedName,
      prompt: entry.item,
    }));
  }

  /**
   * Every resource of every enabled server.
   *
   * @example Listing resources with the server that offers each
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ resources: [{ uri: "mem://notes", text: "Buy milk" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * for (const { server, resource } of manager.allResources()) console.log(server, resource.uri);
   * ```
   */
  allResources(): ManagedResource[] {
    return this.#registry.resources().map(({ server, resource }) => ({
      server: server.name,
      resource,
    }));
  }

  /**
   * Every resource template of every enabled server.
   *
   * @example Listing the templates of an in-process server
   * ```ts
   * import { MemoryTransport } from "@mcp-inspect/client";
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "notes", version: "1.0.0" },
   *   capabilities: { resources: {} },
   *   handlers: {
   *     "resources/list": () => ({ resources: [] }),
   *     "resources/templates/list": () => ({
   *       resourceTemplates: [{ uriTemplate: "mem://{day}", name: "day" }],
   *     }),
   *   },
   * });
   * await using manager = new ServerManager({
   *   createTransport: () => MemoryTransport.serving((end) => server.serve(end)),
   * });
   * await manager.connect("notes", { command: "notes" });
   * const templates = manager.allResourceTemplates();
   * console.log(templates.map((t) => t.template.uriTemplate)); // ["mem://{day}"]
   * ```
   */
  allResourceTemplates(): ManagedResourceTemplate[] {
    return this.#registry.templates().map(({ server, template }) => ({
      server: server.name,
      template,
    }));
  }

  /**
   * The visible tool with that qualified name.
   *
   * @example Finding which server offers a tool
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * console.log(manager.findTool("mcp__demo__echo")?.server); // "demo"
   * ```
   */
  findTool(qualifiedName: string): ManagedTool | undefined {
    const entry = this.#registry.findTool(qualifiedName);
    return entry?.visible
      ? { server: entry.server.name, qualifiedName, tool: entry.item }
      : undefined;
  }

  /**
   * The qualified name the manager gives a server's tool, if the server lists it.
   *
   * @example Naming a tool for a model
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("my.files", { command: "files" });
   * console.log(manager.qualifiedName("my.files", "echo")); // "mcp__my_files__echo"
   * ```
   */
  qualifiedName(server: string, tool: string): string | undefined {
    return this.#registry.tools().find((entry) =>
      entry.server.name === server && entry.item.name === tool
    )?.qualifiedName;
  }

  /**
   * Calls a tool by its qualified name. A name no listing has yet, under the prefix of a server
   * that has listed nothing (connecting, failed or disabled), waits for that server as a call by
   * server and name would, or fails with its {@link ServerUnavailableError}; any other unknown
   * name fails with {@link UnknownToolError}.
   *
   * @example Calling a tool by its qualified name
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const echo = { name: "echo", handler: (args: Record<string, unknown>) => String(args.text) };
   * const fake = new FakeServer({ tools: [echo] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * const result = await manager.callTool("mcp__demo__echo", { text: "hi" });
   * console.log(result.content); // [{ type: "text", text: "hi" }]
   * ```
   */
  callTool(
    qualifiedName: string,
    args?: Record<string, unknown>,
    options?: ManagerCallOptions,
  ): Promise<CallToolResult>;
  /**
   * Calls a tool by server and tool name.
   *
   * @example Calling a tool by server and tool name
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const echo = { name: "echo", handler: (args: Record<string, unknown>) => String(args.text) };
   * const fake = new FakeServer({ tools: [echo] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * const result = await manager.callTool("demo", "echo", { text: "hi" });
   * console.log(result.content); // [{ type: "text", text: "hi" }]
   * ```
   */
  callTool(
    server: string,
    tool: string,
    args?: Record<string, unknown>,
    options?: ManagerCallOptions,
  ): Promise<CallToolResult>;
  /**
   * Calls a tool by its qualified name, or by server and tool name. A tool the server's allow
   * or deny list refuses fails with {@link ToolDeniedError}, without contacting the server.
   *
   * @example A tool the deny list refuses
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("db", { command: "db", deny: ["ec*"] });
   * const error = await manager.callTool("db", "echo").catch((error) => error);
   * console.log(error.name); // "ToolDeniedError"
   * ```
   */
  async callTool(
    first: string,
    second?: string | Record<string, unknown>,
    third?: Record<string, unknown> | ManagerCallOptions,
    fourth?: ManagerCallOptions,
  ): Promise<CallToolResult> {
    return await this.#calls.callTool(first, second, third, fourth);
  }

  /**
   * Renders a prompt by its qualified name.
   *
   * @example Rendering a prompt with an argument
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const greet = { name: "greet", text: (args: Record<string, string>) => `Hello ${args.who}` };
   * const fake = new FakeServer({ prompts: [greet] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * const { messages } = await manager.getPrompt("mcp__demo__greet", { who: "Ada" });
   * console.log(messages[0]?.content); // { type: "text", text: "Hello Ada" }
   * ```
   */
  async getPrompt(
    qualifiedName: string,
    args: Record<string, string> = {},
    options: ManagerCallOptions = {},
  ): Promise<GetPromptResult> {
    return await this.#calls.getPrompt(qualifiedName, args, options);
  }

  /**
   * The skills (SEP-2640) of every enabled server that declares the extension, named like tools
   * and filtered by each server's allow and deny lists. Reads no skill file.
   *
   * @example Listing the skills of every server
   * ```ts
   * import { MemoryTransport, SKILLS_EXTENSION } from "@mcp-inspect/client";
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const uri = "skill://pdf-processing/SKILL.md";
   * const pdf = { uri, frontmatter: { name: "pdf-processing" }, resources: "dynamic" };
   * const server = new McpServer({
   *   serverInfo: { name: "docs", version: "1.0.0" },
   *   capabilities: { extensions: { [SKILLS_EXTENSION]: {} } },
   *   handlers: { "skills/list": () => ({ skills: [pdf] }) },
   * });
   * const createTransport = () => MemoryTransport.serving((end) => server.serve(end));
   * await using manager = new ServerManager({ createTransport });
   * await manager.connect("docs", { command: "docs" });
   * const { skills } = await manager.listSkills();
   * console.log(skills.map((s) => s.qualifiedName)); // ["mcp__docs__pdf-processing"]
   * ```
   */
  async listSkills(options: ManagerCallOptions = {}): Promise<ManagedSkillListing> {
    return await listSkills(this.#servers.values(), options);
  }

  /**
   * Reads and verifies every file of a skill, by qualified name or as listed, from its server.
   * The server's allow and deny lists are checked again first (they may have changed since the
   * listing): a skill they refuse fails with {@link SkillDeniedError}, and nothing is read.
   *
   * @example Loading a skill's files by its qualified name
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   *
   * // A fake skills server of this repository, run as a child process
   * const args = ["run", "--allow-all", "--no-config", "testdata/servers/skills.ts", "--honest"];
   * await using manager = new ServerManager();
   * await manager.connect("docs", { command: Deno.execPath(), args });
   * const skill = await manager.loadSkill("mcp__docs__pdf-processing");
   * console.log(skill.files.map((f) => f.path)); // ["SKILL.md", "references/FORMS.md"]
   * ```
   */
  async loadSkill(
    skill: ManagedSkill | string,
    options: ManagerCallOptions = {},
  ): Promise<LoadedSkill> {
    return await loadSkill(this.#servers, skill, options);
  }

  /**
   * Reads a resource from the server that offers it.
   *
   * @example Reading a resource by its URI
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ resources: [{ uri: "mem://notes", text: "Buy milk" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * const { contents } = await manager.readResource("mem://notes");
   * console.log(contents[0]); // { uri: "mem://notes", text: "Buy milk", mimeType: "text/plain" }
   * ```
   */
  readResource(uri: string, options?: ManagerCallOptions): Promise<ReadResourceResult>;
  /**
   * Reads a resource from a given server, for URIs that several servers offer.
   *
   * @example Reading a resource that two servers offer
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ resources: [{ uri: "mem://notes", text: "Buy milk" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.setServers({ home: { command: "home" }, work: { command: "work" } });
   * const { contents } = await manager.readResource("work", "mem://notes");
   * ```
   */
  readResource(
    server: string,
    uri: string,
    options?: ManagerCallOptions,
  ): Promise<ReadResourceResult>;
  /**
   * Reads a resource, from the server that offers it or from a given one. A URI that no server
   * lists fails with {@link UnknownToolError}.
   *
   * @example A URI that no server lists
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * await using manager = new ServerManager();
   * const error = await manager.readResource("mem://nowhere").catch((error) => error);
   * console.log(error.name); // "UnknownToolError"
   * ```
   */
  async readResource(
    first: string,
    second?: string | ManagerCallOptions,
    third?: ManagerCallOptions,
  ): Promise<ReadResourceResult> {
    return await this.#calls.readResource(first, second, third);
  }

  /**
   * Asks the server behind a prompt (by qualified name) or a resource template (by its URI
   * template) for completions of one argument.
   *
   * @example Completing the argument of a prompt
   * ```ts
   * import { MemoryTransport } from "@mcp-inspect/client";
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const summarize = { name: "summarize", arguments: [{ name: "style" }] };
   * const server = new McpServer({
   *   serverInfo: { name: "notes", version: "1.0.0" },
   *   capabilities: { prompts: {}, completions: {} },
   *   handlers: {
   *     "prompts/list": () => ({ prompts: [summarize] }),
   *     "completion/complete": () => ({ completion: { values: ["brief", "bright"] } }),
   *   },
   * });
   * const createTransport = () => MemoryTransport.serving((end) => server.serve(end));
   * await using manager = new ServerManager({ createTransport });
   * await manager.connect("notes", { command: "notes" });
   * const { completion } = await manager.complete(
   *   { type: "ref/prompt", name: "mcp__notes__summarize" },
   *   { name: "style", value: "bri" },
   * );
   * console.log(completion.values); // ["brief", "bright"]
   * ```
   */
  async complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    options: ManagerCallOptions & { context?: Record<string, string> | undefined } = {},
  ): Promise<CompleteResult> {
    return await this.#calls.complete(ref, argument, options);
  }

  /**
   * Watches a resource of the server that offers it: `resourceUpdated` events follow its changes,
   * across reconnections, until {@link unsubscribeResource}.
   *
   * @example Logging the changes of a resource
   * ```ts
   * import { MemoryTransport } from "@mcp-inspect/client";
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "notes", version: "1.0.0" },
   *   capabilities: { resources: { subscribe: true } },
   *   handlers: { "resources/list": () => ({ resources: [{ uri: "mem://today", name: "t" }] }) },
   *   subscriptions: { subscribe: () => {}, unsubscribe: () => {} },
   * });
   * const createTransport = () => MemoryTransport.serving((end) => server.serve(end));
   * await using manager = new ServerManager({ createTransport });
   * await manager.connect("notes", { command: "notes" });
   * const changed = new Promise((resolve) => manager.on("resourceUpdated", resolve));
   * await manager.subscribeResource("mem://today");
   * server.resourceUpdated("mem://today");
   * console.log(await changed); // { server: "notes", uri: "mem://today" }
   * ```
   */
  async subscribeResource(uri: string, options: ManagerCallOptions = {}): Promise<void> {
    await this.#calls.subscribeResource(uri, options);
  }

  /**
   * Stops watching a resource; a server that went away is forgotten quietly.
   *
   * @example Watching a resource of an in-process server, then no longer
   * ```ts
   * import { MemoryTransport } from "@mcp-inspect/client";
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "notes", version: "1.0.0" },
   *   capabilities: { resources: { subscribe: true } },
   *   handlers: { "resources/list": () => ({ resources: [{ uri: "mem://today", name: "t" }] }) },
   *   subscriptions: { subscribe: () => {}, unsubscribe: (uri) => console.log("unwatched", uri) },
   * });
   * await using manager = new ServerManager({
   *   createTransport: () => MemoryTransport.serving((end) => server.serve(end)),
   * });
   * await manager.connect("notes", { command: "notes" });
   * await manager.subscribeResource("mem://today");
   * await manager.unsubscribeResource("mem://today"); // unwatched mem://today
   * ```
   */
  async unsubscribeResource(uri: string, options: ManagerCallOptions = {}): Promise<void> {
    await this.#calls.unsubscribeResource(uri, options);
  }

  /**
   * The state of every server, in the order they were added.
   *
   * @example Printing each server's state
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.setServers({ a: { command: "a" }, b: { command: "b", disabled: true } });
   * for (const s of manager.servers()) console.log(s.name, s.state); // a ready, b disabled
   * ```
   */
  servers(): ServerStatus[] {
    return [...this.#servers.values()].map(statusOf);
  }

  /**
   * Call statistics per server and per tool: counts of calls, errors, timeouts and
   * cancellations, latency percentiles over a sliding window, connection uptime and reconnects.
   * Calls refused by an allow or deny list never reach a server and are not counted.
   *
   * @example Printing the slowest servers
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.setServers({ a: { command: "a" }, b: { command: "b" } });
   * await Promise.all([manager.callTool("mcp__a__echo"), manager.callTool("mcp__b__echo")]);
   * const { servers } = manager.stats();
   * for (const s of servers.toSorted((a, b) => (b.latencyMs?.p95 ?? 0) - (a.latencyMs?.p95 ?? 0))) {
   *   console.error(s.name, s.calls, s.errors, s.latencyMs?.p95);
   * }
   * ```
   */
  stats(): ManagerStats {
    const now = Date.now();
    const servers = [...this.#servers.values()].map((server) =>
      serverStats(
        server,
        statusOf(server).state,
        now,
        (tool) => this.qualifiedName(server.name, tool),
      )
    );
    return { at: now, windowMs: this.#options.stats?.windowMs ?? DEFAULT_WINDOW_MS, servers };
  }

  /**
   * The connected client of a server, for anything the manager does not cover.
   *
   * @example Reading what a server says it is
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * console.log(manager.client("demo")?.serverInfo); // { name: "fake", version: "1.0.0" }
   * ```
   */
  client(name: string): Client | undefined {
    return this.#servers.get(name)?.client;
  }

  /**
   * Loads a config file, applies it with {@link setServers}, and applies it again whenever the
   * file changes. A file that fails to load is reported as a `configError` event and the
   * servers keep running as they are; an unknown key is a `configWarning` event each time the
   * file is read (an error with `strict`).
   *
   * @throws {ConfigError} when the file cannot be loaded the first time.
   * @example Following a config file
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using manager = new ServerManager({ createTransport: () => fake.transport() });
   * const file = await Deno.makeTempFile({ suffix: ".json" });
   * await Deno.writeTextFile(file, JSON.stringify({ mcpServers: { demo: { command: "demo" } } }));
   * await using _watcher = await manager.watch(file);
   * console.log(manager.allTools().map((t) => t.qualifiedName)); // ["mcp__demo__echo"]
   * await Deno.remove(file);
   * ```
   */
  async watch(file: string, options: WatchOptions = {}): Promise<ConfigWatcher> {
    const watcher = await followConfig(file, options, {
      apply: (servers) => this.setServers(servers),
      emit: (event, payload) => this.#events.emit(event, payload as never),
      closed: () => this.#watchers.delete(watcher),
    });
    this.#watchers.add(watcher);
    return watcher;
  }

  /**
   * Stops following config files and closes every server; no process is left behind.
   *
   * @example Closing a manager explicitly
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * const manager = new ServerManager({ createTransport: () => fake.transport() });
   * await manager.connect("demo", { command: "demo" });
   * await manager.close();
   * console.log(fake.server.connectionCount); // 0
   * ```
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.all([...this.#watchers].map((watcher) => watcher.close()));
      const servers = [...this.#servers.values()];
      this.#servers.clear();
      await Promise.all(servers.map((server) => server.close()));
    })();
    return this.#closing;
  }

  /**
   * Same as {@link close}.
   *
   * @example Closing a manager at the end of a scope
   * ```ts
   * import { ServerManager } from "@mcp-inspect/client/manager";
   * await using manager = new ServerManager();
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
