/**
 * The MCP client: negotiation of the era (`server/discover` or the `initialize` handshake), then
 * tools, resources, prompts, completion and logging, with capability gating, pagination, output
 * validation, multi round-trip requests, caching and events.
 *
 * @module
 */

import { invokeTool } from "./_call.ts";
import { hasCapability, REQUIRED_CAPABILITY } from "./_capabilities.ts";
import type { RootsOption } from "./_handlers.ts";
import { IdentityMeta, modernRequest, withMeta } from "./_modern.ts";
import { type Negotiated, notNegotiated } from "./_negotiate.ts";
import { listItems } from "./_pages.ts";
import { completeResult, getPromptResult, readResourceResult } from "./_results.ts";
import {
  type ClientParts,
  clientParts,
  type EraContext,
  eraContext,
  negotiateEra,
  startTransport,
} from "./_setup.ts";
import { listTasks, toTaskInfo, waitForTask } from "./_tasks.ts";
import type {
  CacheOptions,
  CallToolOptions,
  ClientEvents,
  ClientOptions,
  ListOptions,
  ListPage,
  PageOptions,
  TaskWaitOptions,
} from "./types.ts";
import { CapabilityError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { RequestOptions, Session } from "../session.ts";
import type { Transport } from "../transport/transport.ts";
import type {
  CallToolResult,
  CompleteResult,
  CompletionReference,
  DiscoveryVerdict,
  GetPromptResult,
  Implementation,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  TaskInfo,
  Tool,
} from "../types.ts";

/**
 * The options of a call that passes none: one object for all of them, never written to. A fresh
 * `{}` per call stayed alive, held by the pending request, until the call was answered.
 */
const NO_OPTIONS: CallToolOptions & CacheOptions = {};

export * from "./types.ts";

/**
 * A connection to one MCP server, of either era.
 *
 * @example Listing and calling tools
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({
 *   tools: [{ name: "echo", handler: (args) => String(args.text) }],
 * });
 * await using client = await Client.connect(fake.transport());
 * const tools = await client.listTools(); // every page
 * const result = await client.callTool("echo", { text: "hi" }, { timeoutMs: 5_000 });
 * console.log(tools.map((tool) => tool.name), result.content);
 * // ["echo"] [{ type: "text", text: "hi" }]
 * ```
 */
export class Client implements AsyncDisposable {
  /** The parts' session, at hand for the request path. */
  readonly #session: Session;
  readonly #parts: ClientParts;
  readonly #options: ClientOptions;
  #roots: RootsOption | undefined;
  /** What negotiation found; `serverInfo` then follows the latest modern result carrying it. */
  #server: Negotiated = notNegotiated();
  #contextOfEra: EraContext | undefined;
  #logLevel: LoggingLevel | undefined;
  /** The `_meta` of modern requests, built again only when the revision or level changed. */
  readonly #identity: IdentityMeta;

  private constructor(transport: Transport, options: ClientOptions) {
    this.#options = options;
    this.#roots = options.roots;
    this.#parts = clientParts(transport, options, {
      request: (method, params, limits) => this.request(method, params, limits),
      send: (method, params, limits) => this.#send(method, params, limits),
      listTools: (limits) => this.listTools(limits),
      hasCapability: (path) => hasCapability(this.#server.capabilities, path),
      onServerInfo: (info) => this.#server.serverInfo = info,
      roots: () => this.#roots,
    });
    this.#session = this.#parts.session;
    this.#identity = new IdentityMeta(this.#parts.capabilities, this.#parts.clientInfo);
  }

  /**
   * Starts the transport, agrees on a protocol revision and returns a ready client. With the
   * default `protocol: "auto"` it probes with `server/discover` and falls back to the
   * `initialize` handshake for servers of the legacy era. On failure the transport is closed
   * again and nothing is left running.
   *
   * @throws {TransportError} when the server cannot be started or exits during negotiation.
   * @throws {ProtocolError} when the server speaks no revision this client speaks.
   *
   * @example Connecting to an in-memory fake server
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using client = await Client.connect(fake.transport());
   * console.log(client.era, client.serverInfo.name); // "modern" "fake"
   * ```
   */
  static async connect(transport: Transport, options: ClientOptions = {}): Promise<Client> {
    await startTransport(transport);
    const client = new Client(transport, options);
    try {
      await client.#negotiate();
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  async #negotiate(): Promise<void> {
    this.#server = await negotiateEra(this.#parts, this.#options, () => this.#label());
    this.#contextOfEra = undefined; // anything built during negotiation saw no era yet
    if (this.#server.era === "modern") {
      await this.#parts.listener.start(this.#server.capabilities, this.#options.listen ?? true);
    }
  }

  /**
   * The negotiated protocol revision.
   *
   * @example Pinning a revision and reading it back
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer();
   * await using client = await Client.connect(fake.transport(), { protocol: "2025-06-18" });
   * console.log(client.protocolVersion); // "2025-06-18"
   * ```
   */
  get protocolVersion(): string {
    return this.#server.protocolVersion;
  }

  /**
   * `"modern"` (2026-07-28 and later, stateless) or `"legacy"` (the `initialize` handshake).
   *
   * @example The era probed for, and the era forced
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer(); // speaks both eras
   * await using probed = await Client.connect(fake.transport());
   * await using forced = await Client.connect(fake.transport(), { protocol: "legacy" });
   * console.log(probed.era, forced.era); // "modern" "legacy"
   * ```
   */
  get era(): "modern" | "legacy" {
    return this.#server.era;
  }

  /**
   * What negotiation found, to pass as `discovery` to a later `connect()`: a legacy verdict goes
   * straight to `initialize` at its revision, skipping the `server/discover` probe; a modern one
   * still discovers (that is the modern era's handshake), but at the revision found.
   *
   * @example Reconnecting to a legacy server without probing it again
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer();
   * const first = await Client.connect(fake.transport(), { protocol: "legacy" });
   * const verdict = first.discovery; // { era: "legacy", protocolVersion: "2025-11-25" }
   * await first.close();
   * fake.received.length = 0;
   * await using again = await Client.connect(fake.transport(), { discovery: verdict });
   * console.log(fake.received.map((m) => "method" in m ? m.method : "answer"));
   * // ["initialize", "notifications/initialized"]: no server/discover
   * ```
   */
  get discovery(): DiscoveryVerdict {
    return { era: this.#server.era, protocolVersion: this.#server.protocolVersion };
  }

  /**
   * The server's name and version (in the modern era, as its latest result said).
   *
   * @example Naming the server
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ name: "notes", version: "2.1.0" });
   * await using client = await Client.connect(fake.transport());
   * console.log(client.serverInfo); // { name: "notes", version: "2.1.0" }
   * ```
   */
  get serverInfo(): Implementation {
    return this.#server.serverInfo;
  }

  /**
   * What the server advertised it can do.
   *
   * @example Checking for a feature before using it
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using client = await Client.connect(fake.transport());
   * console.log(client.serverCapabilities); // { tools: {} }
   * const prompts = client.serverCapabilities.prompts ? await client.listPrompts() : [];
   * ```
   */
  get serverCapabilities(): ServerCapabilities {
    return this.#server.capabilities;
  }

  /**
   * The server's instructions for the model, if any.
   *
   * @example Reading the instructions for a system prompt
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ instructions: "Search before you write." });
   * await using client = await Client.connect(fake.transport());
   * console.log(client.instructions); // "Search before you write."
   * ```
   */
  get instructions(): string | undefined {
    return this.#server.instructions;
  }

  /**
   * The JSON-RPC session underneath, for raw requests and notifications.
   *
   * @example Sending a raw request on the session
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer();
   * await using client = await Client.connect(fake.transport(), { protocol: "legacy" });
   * console.log(await client.session.request("ping", {}, { timeoutMs: 1_000 })); // {}
   * console.log(client.session.pendingCount); // 0
   * ```
   */
  get session(): Session {
    return this.#session;
  }

  /**
   * Subscribes to an event; returns a function that unsubscribes.
   *
   * @example Hearing that the server's tools changed
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "hello", version: "1.0.0" },
   *   capabilities: { tools: { listChanged: true } },
   *   handlers: { "tools/list": () => ({ tools: [] }) },
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * const changed = Promise.withResolvers<void>();
   * const off = client.on("toolsListChanged", () => changed.resolve());
   * server.listChanged("tools");
   * await changed.promise;
   * off(); // no more calls
   * ```
   */
  on<K extends keyof ClientEvents>(
    event: K,
    listener: (payload: ClientEvents[K]) => void,
  ): () => void {
    return this.#parts.events.on(event, listener);
  }

  /**
   * Sends any request and returns its raw result. Capability gating applies to known methods; in
   * the modern era the request carries the per-request `_meta`, and `input_required` results of
   * `tools/call`, `prompts/get` and `resources/read` are answered through the client's handlers
   * and retried until complete.
   *
   * @example A raw request and its raw result
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using client = await Client.connect(fake.transport());
   * const result = await client.request("tools/list", {}, { bypassCache: true });
   * console.log(result.tools); // [{ inputSchema: { type: "object" }, name: "echo" }]
   * ```
   */
  request(
    method: string,
    params: JsonObject = {},
    options: CacheOptions = NO_OPTIONS,
  ): Promise<JsonObject> {
    const capability = REQUIRED_CAPABILITY[method];
    if (capability && !hasCapability(this.#server.capabilities, capability)) {
      return Promise.reject(new CapabilityError(method, capability, this.#label()));
    }
    if (this.#server.era === "legacy") return this.#session.request(method, params, options);
    return modernRequest(this.#context(), method, params, options);
  }

  /** Sends one request of the modern era, with the per-request `_meta` as it is now. */
  #send(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    const meta = this.#identity.of(this.#server.protocolVersion, this.#logLevel);
    return this.#session.request(method, withMeta(params, meta), options);
  }

  /**
   * Lists the server's tools, walking every page; `{ cursor }` returns one raw page instead.
   *
   * @example Listing every tool
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }, { name: "add" }] });
   * await using client = await Client.connect(fake.transport());
   * console.log((await client.listTools()).map((tool) => tool.name)); // ["echo", "add"]
   * ```
   */
  listTools(options?: ListOptions): Promise<Tool[]>;
  /**
   * Fetches one raw page of tools.
   *
   * @example Fetching the first page of tools
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using client = await Client.connect(fake.transport());
   * const page = await client.listTools({ cursor: undefined });
   * console.log(page.items.length, page.nextCursor); // 1 undefined: the only page
   * ```
   */
  listTools(options: PageOptions): Promise<ListPage<Tool>>;
  /**
   * Lists the server's tools: every page with {@link ListOptions}, one raw page with
   * {@link PageOptions}.
   *
   * @example Walking a server's pages, at most two of them
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const tool = (name: string) => ({ name, inputSchema: { type: "object" } });
   * const server = new McpServer({
   *   serverInfo: { name: "paged", version: "1.0.0" },
   *   capabilities: { tools: {} },
   *   handlers: {
   *     "tools/list": ({ cursor }) =>
   *       cursor === undefined ? { tools: [tool("a")], nextCursor: "2" } : { tools: [tool("b")] },
   *   },
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * console.log((await client.listTools({ maxPages: 2 })).map((t) => t.name)); // ["a", "b"]
   * ```
   */
  async listTools(options: ListOptions | PageOptions = {}): Promise<Tool[] | ListPage<Tool>> {
    const result = await this.#list<Tool>("tools/list", "tools", options);
    if (Array.isArray(result)) this.#parts.tools.replace(result);
    else this.#parts.tools.add(result.items);
    return result;
  }

  /**
   * Lists the server's resources, walking every page; `{ cursor }` returns one raw page.
   *
   * @example Listing every resource
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ resources: [{ uri: "mem://readme", text: "# Hi" }] });
   * await using client = await Client.connect(fake.transport());
   * console.log((await client.listResources()).map((r) => r.uri)); // ["mem://readme"]
   * ```
   */
  listResources(options?: ListOptions): Promise<Resource[]>;
  /**
   * Fetches one raw page of resources.
   *
   * @example Walking the pages by hand
   * ```ts
   * import { Client, type Resource } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ resources: [{ uri: "mem://a", text: "A" }] });
   * await using client = await Client.connect(fake.transport());
   * const resources: Resource[] = [];
   * let cursor: string | undefined;
   * do {
   *   const page = await client.listResources({ cursor });
   *   resources.push(...page.items);
   *   cursor = page.nextCursor;
   * } while (cursor !== undefined);
   * console.log(resources.length); // 1
   * ```
   */
  listResources(options: PageOptions): Promise<ListPage<Resource>>;
  /**
   * Lists the server's resources: every page with {@link ListOptions}, one raw page with
   * {@link PageOptions}.
   *
   * @example Listing past the cache, with a deadline
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ resources: [{ uri: "mem://a", text: "A" }] });
   * await using client = await Client.connect(fake.transport());
   * const resources = await client.listResources({ bypassCache: true, timeoutMs: 5_000 });
   * console.log(resources); // [{ uri: "mem://a", name: "mem://a", mimeType: "text/plain" }]
   * ```
   */
  listResources(options: ListOptions | PageOptions = {}): Promise<Resource[] | ListPage<Resource>> {
    return this.#list<Resource>("resources/list", "resources", options);
  }

  /**
   * Lists the server's resource templates, walking every page.
   *
   * @example Listing the templates of a notes server
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "notes", version: "1.0.0" },
   *   capabilities: { resources: {} },
   *   handlers: {
   *     "resources/templates/list": () => ({
   *       resourceTemplates: [{ uriTemplate: "mem://notes/{id}", name: "note" }],
   *     }),
   *   },
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * const templates = await client.listResourceTemplates();
   * console.log(templates.map((t) => t.uriTemplate)); // ["mem://notes/{id}"]
   * ```
   */
  listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]>;
  /**
   * Fetches one raw page of resource templates.
   *
   * @example Fetching the first page, with the raw result
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ resources: [{ uri: "mem://a", text: "A" }] });
   * await using client = await Client.connect(fake.transport());
   * const page = await client.listResourceTemplates({ cursor: undefined });
   * console.log(page.items, page.result.resourceTemplates); // [] []: the fake has no templates
   * ```
   */
  listResourceTemplates(options: PageOptions): Promise<ListPage<ResourceTemplate>>;
  /**
   * Lists the server's resource templates: every page with {@link ListOptions}, one raw page
   * with {@link PageOptions}.
   *
   * @example Listing templates, one page at most
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ resources: [{ uri: "mem://a", text: "A" }] });
   * await using client = await Client.connect(fake.transport());
   * console.log(await client.listResourceTemplates({ maxPages: 1 })); // []
   * ```
   */
  listResourceTemplates(
    options: ListOptions | PageOptions = {},
  ): Promise<ResourceTemplate[] | ListPage<ResourceTemplate>> {
    return this.#list<ResourceTemplate>("resources/templates/list", "resourceTemplates", options);
  }

  /**
   * Lists the server's prompts, walking every page; `{ cursor }` returns one raw page.
   *
   * @example Listing every prompt with its arguments
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({
   *   prompts: [{ name: "greet", arguments: [{ name: "who", required: true }], text: "Hi" }],
   * });
   * await using client = await Client.connect(fake.transport());
   * const [greet] = await client.listPrompts();
   * console.log(greet?.name, greet?.arguments); // "greet" [{ name: "who", required: true }]
   * ```
   */
  listPrompts(options?: ListOptions): Promise<Prompt[]>;
  /**
   * Fetches one raw page of prompts.
   *
   * @example Fetching the first page of prompts
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ prompts: [{ name: "greet", text: "Hi" }] });
   * await using client = await Client.connect(fake.transport());
   * const { items, nextCursor } = await client.listPrompts({ cursor: undefined });
   * console.log(items.map((p) => p.name), nextCursor); // ["greet"] undefined
   * ```
   */
  listPrompts(options: PageOptions): Promise<ListPage<Prompt>>;
  /**
   * Lists the server's prompts: every page with {@link ListOptions}, one raw page with
   * {@link PageOptions}.
   *
   * @example Listing prompts with a deadline
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ prompts: [{ name: "greet", text: "Hi" }] });
   * await using client = await Client.connect(fake.transport());
   * const prompts = await client.listPrompts({ signal: AbortSignal.timeout(5_000) });
   * console.log(prompts.length); // 1
   * ```
   */
  listPrompts(options: ListOptions | PageOptions = {}): Promise<Prompt[] | ListPage<Prompt>> {
    return this.#list<Prompt>("prompts/list", "prompts", options);
  }

  #list<T>(
    method: string,
    key: string,
    options: ListOptions | PageOptions,
  ): Promise<T[] | ListPage<T>> {
    return listItems<T>(method, key, this.#context(), options);
  }

  /**
   * Calls a tool. When the tool declares an `outputSchema`, its `structuredContent` is
   * validated; a mismatch raises {@link ValidationError}. A result with `isError` is returned,
   * not thrown: the tool ran and reported a failure.
   *
   * @example Calling a tool, and one that reports a failure
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({
   *   tools: [
   *     { name: "echo", handler: (args) => String(args.text) },
   *     { name: "save", handler: () => ({ content: [], isError: true }) },
   *   ],
   * });
   * await using client = await Client.connect(fake.transport());
   * const echoed = await client.callTool("echo", { text: "hi" }, { timeoutMs: 5_000 });
   * console.log(echoed.content); // [{ type: "text", text: "hi" }]
   * console.log((await client.callTool("save")).isError); // true
   * ```
   */
  callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = NO_OPTIONS,
  ): Promise<CallToolResult> {
    // Not async itself: invokeTool is, and one more layer costs ticks on the hottest path.
    return invokeTool(this.#context(), name, args, options);
  }

  /**
   * The current state of a task.
   *
   * @example Starting a task with a raw request (2025-11-25) and looking at it
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const state = { taskId: "t1", status: "working", statusMessage: "Compiling 3 of 12" };
   * const server = new McpServer({
   *   serverInfo: { name: "builder", version: "1.0.0" },
   *   capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } },
   *   handlers: { "tools/call": () => ({ task: state }), "tasks/get": () => state },
   * });
   * const transport = MemoryTransport.serving((end) => server.serve(end));
   * await using client = await Client.connect(transport, { protocol: "2025-11-25" });
   * const created = await client.request("tools/call", { name: "build", arguments: {}, task: {} });
   * const { taskId } = created.task as { taskId: string };
   * const task = await client.getTask(taskId);
   * console.log(task.status, task.statusMessage); // "working" "Compiling 3 of 12"
   * ```
   */
  async getTask(taskId: string, options: RequestOptions = {}): Promise<TaskInfo> {
    return toTaskInfo(await this.request("tasks/get", { taskId }, options));
  }

  /**
   * Asks the server to cancel a task; cancellation is cooperative.
   *
   * @example Cancelling a task, then seeing whether it stopped
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const task = { taskId: "t1", status: "working" };
   * const server = new McpServer({
   *   serverInfo: { name: "builder", version: "1.0.0" },
   *   capabilities: { tasks: { cancel: {} } },
   *   handlers: {
   *     "tasks/get": () => task,
   *     "tasks/cancel": () => Object.assign(task, { status: "cancelled" }),
   *   },
   * });
   * const transport = MemoryTransport.serving((end) => server.serve(end));
   * await using client = await Client.connect(transport, { protocol: "2025-11-25" });
   * await client.cancelTask("t1");
   * // "cancelled" once the server has acted on it; it may finish first
   * console.log((await client.getTask("t1")).status); // "cancelled"
   * ```
   */
  async cancelTask(taskId: string, options: RequestOptions = {}): Promise<void> {
    await this.request("tasks/cancel", { taskId }, options);
  }

  /**
   * Lists the server's tasks (2025-11-25; the modern extension has no list).
   *
   * @example Listing the tasks of a 2025-11-25 server
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "builder", version: "1.0.0" },
   *   capabilities: { tasks: { list: {} } },
   *   handlers: { "tasks/list": () => ({ tasks: [{ taskId: "t1", status: "working" }] }) },
   * });
   * const transport = MemoryTransport.serving((end) => server.serve(end));
   * await using client = await Client.connect(transport, { protocol: "2025-11-25" });
   * for (const task of await client.listTasks()) console.log(task.taskId, task.status);
   * // "t1" "working"
   * ```
   */
  async listTasks(options: ListOptions = {}): Promise<TaskInfo[]> {
    return await listTasks(this.#context(), options);
  }

  /**
   * Waits until a task is final and returns what its request would have returned, answering the
   * server's input requests through the client's handlers on the way.
   *
   * @example Waiting for a tool's task, for ten minutes at most
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "builder", version: "1.0.0" },
   *   capabilities: { tasks: {} },
   *   handlers: {
   *     "tasks/get": () => ({ taskId: "t1", status: "completed" }),
   *     "tasks/result": () => ({ content: [{ type: "text", text: "Built" }] }),
   *   },
   * });
   * const transport = MemoryTransport.serving((end) => server.serve(end));
   * await using client = await Client.connect(transport, { protocol: "2025-11-25" });
   * const result = await client.waitForTask("t1", { signal: AbortSignal.timeout(600_000) });
   * console.log(result.content); // [{ type: "text", text: "Built" }]: what tools/call returned
   * ```
   */
  async waitForTask(taskId: string, options: TaskWaitOptions = {}): Promise<JsonObject> {
    return await waitForTask(this.#context(), await this.getTask(taskId, options), options);
  }

  /**
   * What the private modules need of the client: built once per negotiated era (it is on the path
   * of every call), since nothing in it changes afterwards.
   */
  #context(): EraContext {
    return this.#contextOfEra ??= eraContext(this.#server.era, this.#parts, this.#options);
  }

  /**
   * Reads a resource.
   *
   * @example Reading a text resource
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ resources: [{ uri: "mem://todo", text: "Buy milk" }] });
   * await using client = await Client.connect(fake.transport());
   * const { contents } = await client.readResource("mem://todo");
   * console.log(contents[0]?.text); // "Buy milk"
   * ```
   */
  async readResource(uri: string, options: CacheOptions = {}): Promise<ReadResourceResult> {
    return readResourceResult(await this.request("resources/read", { uri }, options));
  }

  /**
   * Asks for `resourceUpdated` events about a resource: `resources/subscribe` in the legacy era,
   * the `resourceSubscriptions` of the `subscriptions/listen` stream in the modern era.
   *
   * @example Hearing that a resource changed
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "notes", version: "1.0.0" },
   *   capabilities: { resources: { subscribe: true } },
   *   handlers: {},
   *   subscriptions: { subscribe: () => {}, unsubscribe: () => {} },
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * const updated = Promise.withResolvers<{ uri: string }>();
   * client.on("resourceUpdated", updated.resolve);
   * await client.subscribeResource("mem://today");
   * server.resourceUpdated("mem://today");
   * console.log(await updated.promise); // { uri: "mem://today" }
   * ```
   */
  async subscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    if (this.#server.era === "legacy") {
      await this.request("resources/subscribe", { uri }, options);
      return;
    }
    this.#requireCapability("resources/subscribe", "resources.subscribe");
    await this.#parts.listener.subscribe(uri);
  }

  /**
   * Stops `resourceUpdated` events about a resource.
   *
   * @example The server sees its last subscriber leave
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const watched = new Set<string>();
   * const server = new McpServer({
   *   serverInfo: { name: "notes", version: "1.0.0" },
   *   capabilities: { resources: { subscribe: true } },
   *   handlers: {},
   *   subscriptions: {
   *     subscribe: (uri) => void watched.add(uri),
   *     unsubscribe: (uri) => void watched.delete(uri),
   *   },
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * await client.subscribeResource("mem://today");
   * await client.unsubscribeResource("mem://today");
   * console.log(watched.size); // 0
   * ```
   */
  async unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    if (this.#server.era === "legacy") {
      await this.request("resources/unsubscribe", { uri }, options);
      return;
    }
    this.#requireCapability("resources/unsubscribe", "resources.subscribe");
    await this.#parts.listener.unsubscribe(uri);
  }

  /**
   * Renders a prompt with its arguments.
   *
   * @example Rendering a greeting
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const greet = { name: "greet", text: (args: Record<string, string>) => `Hi ${args.who}` };
   * const fake = new FakeServer({ prompts: [greet] });
   * await using client = await Client.connect(fake.transport());
   * const { messages } = await client.getPrompt("greet", { who: "Ada" });
   * console.log(messages[0]?.content); // { type: "text", text: "Hi Ada" }
   * ```
   */
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: RequestOptions = {},
  ): Promise<GetPromptResult> {
    return getPromptResult(await this.request("prompts/get", { name, arguments: args }, options));
  }

  /**
   * Asks for completions of a prompt argument or resource template variable.
   *
   * @example Completing a prompt argument
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "translator", version: "1.0.0" },
   *   capabilities: { completions: {} },
   *   handlers: { "completion/complete": () => ({ completion: { values: ["en", "fr"] } }) },
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * const { completion } = await client.complete(
   *   { type: "ref/prompt", name: "translate" },
   *   { name: "language", value: "" },
   *   { context: { text: "Bonjour" } },
   * );
   * console.log(completion.values); // ["en", "fr"]
   * ```
   */
  async complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    options: RequestOptions & { context?: Record<string, string> | undefined } = {},
  ): Promise<CompleteResult> {
    const { context, ...rest } = options;
    const params: JsonObject = { ref, argument };
    if (context) params.context = { arguments: context };
    return completeResult(await this.request("completion/complete", params, rest));
  }

  /**
   * Sets the lowest severity of log messages the server sends: `logging/setLevel` in the legacy
   * era; in the modern era the level travels in every later request's `_meta` instead.
   *
   * @example Only warnings and worse from a tool's work
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "worker", version: "1.0.0" },
   *   capabilities: { tools: {}, logging: {} },
   *   handlers: {
   *     "tools/call": (_params, context) => {
   *       context.log({ level: "debug", data: "opened the file" });
   *       context.log({ level: "warning", data: "disk almost full" });
   *       return { content: [] };
   *     },
   *   },
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * const logs: unknown[] = [];
   * client.on("log", (message) => logs.push(message.data));
   * await client.setLoggingLevel("warning");
   * await client.callTool("work");
   * console.log(logs); // ["disk almost full"]
   * ```
   */
  async setLoggingLevel(level: LoggingLevel, options: RequestOptions = {}): Promise<void> {
    if (this.#server.era === "modern") {
      this.#requireCapability("logging/setLevel", "logging");
      this.#logLevel = level;
      return;
    }
    await this.request("logging/setLevel", { level }, options);
  }

  /**
   * Checks that the server answers: `ping` in the legacy era, `server/discover` in the modern
   * era, which removed `ping`.
   *
   * @example Checking that the server answers within a second
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer();
   * await using client = await Client.connect(fake.transport());
   * await client.ping({ timeoutMs: 1_000 }); // rejects with TimeoutError when it does not
   * ```
   */
  async ping(options: RequestOptions = {}): Promise<void> {
    await this.request(this.#server.era === "modern" ? "server/discover" : "ping", {}, options);
  }

  /**
   * Replaces the roots and tells the server they changed (legacy era; modern servers ask).
   *
   * @example Offering one more root to a legacy server
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer();
   * const roots = [{ uri: "file:///work", name: "work" }];
   * await using client = await Client.connect(fake.transport(), { protocol: "legacy", roots });
   * await client.setRoots([...roots, { uri: "file:///notes", name: "notes" }]);
   * console.log(fake.received.at(-1));
   * // { jsonrpc: "2.0", method: "notifications/roots/list_changed" }
   * ```
   */
  async setRoots(roots: readonly Root[]): Promise<void> {
    if (this.#options.roots === undefined) {
      throw new CapabilityError("notifications/roots/list_changed", "roots", undefined, "client");
    }
    this.#roots = roots;
    // 2026-07-28 removed roots/list_changed: servers ask for roots inside each request.
    if (this.#server.era === "legacy") {
      await this.#session.notify("notifications/roots/list_changed");
    }
  }

  #requireCapability(method: string, capability: string): void {
    if (!hasCapability(this.#server.capabilities, capability)) {
      throw new CapabilityError(method, capability, this.#label());
    }
  }

  #label(): string {
    return this.#options.name ?? (this.#server.serverInfo.name || "the server");
  }

  /**
   * Closes the connection and the transport; pending requests are rejected.
   *
   * @example Closing with a call still pending
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({
   *   tools: [{ name: "hang" }],
   *   misbehave: { neverAnswer: ["tools/call"] },
   * });
   * const client = await Client.connect(fake.transport());
   * const pending = client.callTool("hang").catch((error) => error);
   * await client.close();
   * console.log((await pending).name); // "ConnectionClosedError"
   * ```
   */
  async close(): Promise<void> {
    await this.#parts.listener.close();
    await this.#session.close();
  }

  /**
   * Same as {@link close}.
   *
   * @example Closing at the end of a block with `await using`
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer();
   * {
   *   await using client = await Client.connect(fake.transport());
   *   await client.ping();
   *   console.log(fake.server.connectionCount); // 1
   * }
   * console.log(fake.server.connectionCount); // 0
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
