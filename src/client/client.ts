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
 * ```ts ignore
 * import { Client, StdioTransport } from "@mcp-inspect/client";
 * await using client = await Client.connect(
 *   new StdioTransport({ command: "deno", args: ["run", "server.ts"] }),
 * );
 * const tools = await client.listTools(); // every page
 * const result = await client.callTool("echo", { text: "hi" }, { timeoutMs: 5_000 });
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

  /** The negotiated protocol revision. */
  get protocolVersion(): string {
    return this.#server.protocolVersion;
  }

  /** `"modern"` (2026-07-28 and later, stateless) or `"legacy"` (the `initialize` handshake). */
  get era(): "modern" | "legacy" {
    return this.#server.era;
  }

  /** What negotiation found; pass it as `discovery` to a later `connect()` to skip the probe. */
  get discovery(): DiscoveryVerdict {
    return { era: this.#server.era, protocolVersion: this.#server.protocolVersion };
  }

  /** The server's name and version (in the modern era, as its latest result said). */
  get serverInfo(): Implementation {
    return this.#server.serverInfo;
  }

  /** What the server advertised it can do. */
  get serverCapabilities(): ServerCapabilities {
    return this.#server.capabilities;
  }

  /** The server's instructions for the model, if any. */
  get instructions(): string | undefined {
    return this.#server.instructions;
  }

  /** The JSON-RPC session underneath, for raw requests and notifications. */
  get session(): Session {
    return this.#session;
  }

  /** Subscribes to an event; returns a function that unsubscribes. */
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

  /** Lists the server's tools, walking every page; `{ cursor }` returns one raw page instead. */
  listTools(options?: ListOptions): Promise<Tool[]>;
  /** Fetches one raw page of tools. */
  listTools(options: PageOptions): Promise<ListPage<Tool>>;
  async listTools(options: ListOptions | PageOptions = {}): Promise<Tool[] | ListPage<Tool>> {
    const result = await this.#list<Tool>("tools/list", "tools", options);
    if (Array.isArray(result)) this.#parts.tools.replace(result);
    else this.#parts.tools.add(result.items);
    return result;
  }

  /** Lists the server's resources, walking every page; `{ cursor }` returns one raw page. */
  listResources(options?: ListOptions): Promise<Resource[]>;
  /** Fetches one raw page of resources. */
  listResources(options: PageOptions): Promise<ListPage<Resource>>;
  listResources(options: ListOptions | PageOptions = {}): Promise<Resource[] | ListPage<Resource>> {
    return this.#list<Resource>("resources/list", "resources", options);
  }

  /** Lists the server's resource templates, walking every page. */
  listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]>;
  /** Fetches one raw page of resource templates. */
  listResourceTemplates(options: PageOptions): Promise<ListPage<ResourceTemplate>>;
  listResourceTemplates(
    options: ListOptions | PageOptions = {},
  ): Promise<ResourceTemplate[] | ListPage<ResourceTemplate>> {
    return this.#list<ResourceTemplate>("resources/templates/list", "resourceTemplates", options);
  }

  /** Lists the server's prompts, walking every page; `{ cursor }` returns one raw page. */
  listPrompts(options?: ListOptions): Promise<Prompt[]>;
  /** Fetches one raw page of prompts. */
  listPrompts(options: PageOptions): Promise<ListPage<Prompt>>;
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
   */
  callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = NO_OPTIONS,
  ): Promise<CallToolResult> {
    // Not async itself: invokeTool is, and one more layer costs ticks on the hottest path.
    return invokeTool(this.#context(), name, args, options);
  }

  /** The current state of a task. */
  async getTask(taskId: string, options: RequestOptions = {}): Promise<TaskInfo> {
    return toTaskInfo(await this.request("tasks/get", { taskId }, options));
  }

  /** Asks the server to cancel a task; cancellation is cooperative. */
  async cancelTask(taskId: string, options: RequestOptions = {}): Promise<void> {
    await this.request("tasks/cancel", { taskId }, options);
  }

  /** Lists the server's tasks (2025-11-25; the modern extension has no list). */
  async listTasks(options: ListOptions = {}): Promise<TaskInfo[]> {
    return await listTasks(this.#context(), options);
  }

  /**
   * Waits until a task is final and returns what its request would have returned, answering the
   * server's input requests through the client's handlers on the way.
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

  /** Reads a resource. */
  async readResource(uri: string, options: CacheOptions = {}): Promise<ReadResourceResult> {
    return readResourceResult(await this.request("resources/read", { uri }, options));
  }

  /**
   * Asks for `resourceUpdated` events about a resource: `resources/subscribe` in the legacy era,
   * the `resourceSubscriptions` of the `subscriptions/listen` stream in the modern era.
   */
  async subscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    if (this.#server.era === "legacy") {
      await this.request("resources/subscribe", { uri }, options);
      return;
    }
    this.#requireCapability("resources/subscribe", "resources.subscribe");
    await this.#parts.listener.subscribe(uri);
  }

  /** Stops `resourceUpdated` events about a resource. */
  async unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    if (this.#server.era === "legacy") {
      await this.request("resources/unsubscribe", { uri }, options);
      return;
    }
    this.#requireCapability("resources/unsubscribe", "resources.subscribe");
    await this.#parts.listener.unsubscribe(uri);
  }

  /** Renders a prompt with its arguments. */
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: RequestOptions = {},
  ): Promise<GetPromptResult> {
    return getPromptResult(await this.request("prompts/get", { name, arguments: args }, options));
  }

  /** Asks for completions of a prompt argument or resource template variable. */
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
   */
  async ping(options: RequestOptions = {}): Promise<void> {
    await this.request(this.#server.era === "modern" ? "server/discover" : "ping", {}, options);
  }

  /** Replaces the roots and tells the server they changed (legacy era; modern servers ask). */
  async setRoots(roots: readonly Root[]): Promise<void> {
    if (this.#options.roots === undefined) {
      throw new CapabilityError("notifications/roots/list_changed", "roots", "this client");
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

  /** Closes the connection and the transport; pending requests are rejected. */
  async close(): Promise<void> {
    await this.#parts.listener.close();
    await this.#session.close();
  }

  /** Same as {@link close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
