/**
 * The MCP client: negotiation of the era (`server/discover` or the `initialize` handshake), then
 * tools, resources, prompts, completion and logging, with capability gating, pagination, output
 * validation, multi round-trip requests, caching and events.
 *
 * @module
 */

import { Emitter } from "./_emitter.ts";
import { CACHEABLE_METHODS, ResultCache } from "./client/_cache.ts";
import {
  type ClientHandler,
  clientHandlers,
  handlerCapabilities,
  installHandlers,
} from "./client/_handlers.ts";
import { Listener } from "./client/_listen.ts";
import { inputRequired, serverInfoOf, withMeta } from "./client/_modern.ts";
import { negotiate } from "./client/_negotiate.ts";
import { taskOf, type TaskOps, TASKS_EXTENSION, toTaskInfo, waitForTask } from "./client/_tasks.ts";
import { checkPage, DEFAULT_MAX_PAGES, walkPages } from "./client/_pages.ts";
import { ToolSchemas } from "./client/_tools.ts";
import type { ElicitationHandler, SamplingHandler } from "./client/handlers.ts";
import { CapabilityError, type Diagnostic, ProtocolError } from "./errors.ts";
import type { JsonObject } from "./jsonrpc.ts";
import { type RequestOptions, Session } from "./session.ts";
import type { Transport } from "./transport/transport.ts";
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  CompletionReference,
  DiscoveryVerdict,
  GetPromptResult,
  Implementation,
  ListenFilter,
  LoggingLevel,
  LogMessage,
  Prompt,
  ProtocolChoice,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  TaskInfo,
  Tool,
} from "./types.ts";
import { VERSION } from "./version.ts";

/**
 * Options of {@link Client.connect}.
 *
 * @example A client that answers roots and elicitation
 * ```ts ignore
 * const client = await Client.connect(transport, {
 *   clientInfo: { name: "my-host", version: "1.0.0" },
 *   roots: [{ uri: "file:///work", name: "work" }],
 *   onElicitation: () => ({ action: "decline" }),
 * });
 * ```
 */
export interface ClientOptions {
  /** How the client introduces itself (default `mcp-inspect` and its version). */
  clientInfo?: Implementation;
  /** Capabilities to advertise beyond those the handlers imply (e.g. `experimental`). */
  capabilities?: ClientCapabilities;
  /** Default per-request timeout in milliseconds (60 s). */
  requestTimeoutMs?: number;
  /** Default maximum total time of a request, whatever progress arrives (10 minutes). */
  maxTotalTimeoutMs?: number;
  /** Most pages a list call walks before failing (64). */
  maxPages?: number;
  /** Check tool arguments against `inputSchema` before sending (off by default). */
  validateArguments?: boolean;
  /** Check `structuredContent` against `outputSchema` (on by default). */
  validateOutput?: boolean;
  /** Roots to offer, or a function returning them; advertises the `roots` capability. */
  roots?: readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>);
  /** Answers `sampling/createMessage`; advertises the `sampling` capability. */
  onSampling?: SamplingHandler;
  /** Answers `elicitation/create`; advertises the `elicitation` capability. */
  onElicitation?: ElicitationHandler;
  /** Elicitation modes the handler supports (default `["form"]`). */
  elicitationModes?: readonly ("form" | "url")[];
  /** Receives non-fatal oddities. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /**
   * Event listeners installed before the handshake, so that nothing the server sends early
   * (a log line, a list change) is missed. Later ones can be added with {@link Client.on}.
   */
  listeners?: { [K in keyof ClientEvents]?: (payload: ClientEvents[K]) => void };
  /** Aborts the handshake. */
  signal?: AbortSignal;
  /** A name for the server in error messages (default: its `serverInfo.name`). */
  name?: string;
  /**
   * Which protocol to speak: `"auto"` (default) probes with `server/discover` and falls back to
   * the `initialize` handshake for older servers; `"modern"` or `"legacy"` forces an era; a
   * revision such as `"2025-06-18"` pins it.
   */
  protocol?: ProtocolChoice;
  /** A verdict from an earlier connection ({@link Client.discovery}) that skips the probe. */
  discovery?: DiscoveryVerdict;
  /** How long the `server/discover` probe waits before taking silence as "legacy" (5 s). */
  probeTimeoutMs?: number;
  /** Most rounds of a multi round-trip request before giving up (10). */
  maxInputRounds?: number;
  /**
   * In the modern era, open a `subscriptions/listen` stream for the list changes the server
   * advertises (default true), so the same events arrive as in the legacy era.
   */
  listen?: boolean;
  /**
   * Accept tasks in the modern era: declares the `io.modelcontextprotocol/tasks` extension, so a
   * server may answer a long call with a task, which `callTool()` then waits for (default false).
   */
  tasks?: boolean;
}

/**
 * Options of {@link Client.waitForTask}.
 *
 * @example
 * ```ts ignore
 * await client.waitForTask(taskId, { onTaskStatus: (task) => console.error(task.status) });
 * ```
 */
export interface TaskWaitOptions extends RequestOptions {
  /** Receives each state of the task. */
  onTaskStatus?: (task: TaskInfo) => void;
}

/**
 * Options of {@link Client.callTool}.
 *
 * @example Running a long tool as a task
 * ```ts ignore
 * const result = await client.callTool("build", {}, {
 *   task: { ttlMs: 600_000 },
 *   onTaskStatus: (task) => console.error(task.status, task.statusMessage ?? ""),
 * });
 * ```
 */
export interface CallToolOptions extends RequestOptions {
  /**
   * Ask for task execution (2025-11-25 task augmentation, with an optional retention time). Tools
   * whose `execution.taskSupport` is `"required"` always run as tasks. In the modern era the
   * server decides, when the client was connected with `tasks: true`.
   */
  task?: boolean | { ttlMs?: number };
  /** Receives each state of the task while `callTool()` waits for it. */
  onTaskStatus?: (task: TaskInfo) => void;
}

/**
 * The events a {@link Client} emits.
 *
 * @example
 * ```ts ignore
 * client.on("toolsListChanged", () => refresh());
 * client.on("log", (message) => console.error(`[${message.level}]`, message.data));
 * ```
 */
export interface ClientEvents {
  /** The server's tool list changed. */
  toolsListChanged: undefined;
  /** The server's prompt list changed. */
  promptsListChanged: undefined;
  /** The server's resource list changed. */
  resourcesListChanged: undefined;
  /** A subscribed resource changed. */
  resourceUpdated: { uri: string };
  /** The server logged a message. */
  log: LogMessage;
  /** The connection ended, with the reason. */
  close: Error;
}

/**
 * Options of requests whose results may be cached (lists and `readResource`).
 *
 * @example
 * ```ts ignore
 * const fresh = await client.listTools({ bypassCache: true });
 * ```
 */
export interface CacheOptions extends RequestOptions {
  /** Ask the server even when a fresh cached result exists. */
  bypassCache?: boolean;
}

/** Options of list calls that walk every page. */
export interface ListOptions extends CacheOptions {
  /** Most pages to walk (the client's `maxPages`, default 64). */
  maxPages?: number;
}

/** Options of list calls that fetch exactly one page. */
export interface PageOptions extends CacheOptions {
  /** The cursor of the page; `undefined` for the first page. */
  cursor: string | undefined;
}

/**
 * One raw page of a list result.
 *
 * @example
 * ```ts ignore
 * const page: ListPage<Tool> = await client.listTools({ cursor: undefined });
 * console.log(page.items.length, page.nextCursor);
 * ```
 */
export interface ListPage<T> {
  /** The page's items. */
  items: T[];
  /** The cursor of the next page, if there is one. */
  nextCursor?: string;
  /** The raw result, with any other fields the server sent. */
  result: JsonObject;
}

const REQUIRED_CAPABILITY: Record<string, string> = {
  "tools/list": "tools",
  "tools/call": "tools",
  "resources/list": "resources",
  "resources/templates/list": "resources",
  "resources/read": "resources",
  "resources/subscribe": "resources.subscribe",
  "resources/unsubscribe": "resources.subscribe",
  "prompts/list": "prompts",
  "prompts/get": "prompts",
  "completion/complete": "completions",
  "logging/setLevel": "logging",
};

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
  readonly #session: Session;
  readonly #transport: Transport;
  readonly #options: ClientOptions;
  readonly #events: Emitter<ClientEvents>;
  readonly #tools: ToolSchemas;
  readonly #handlers: Map<string, ClientHandler>;
  readonly #capabilities: ClientCapabilities;
  readonly #clientInfo: Implementation;
  readonly #cache = new ResultCache();
  readonly #listener: Listener;
  #roots: readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>) | undefined;
  #era: "modern" | "legacy" = "legacy";
  #protocolVersion = "";
  #serverInfo: Implementation = { name: "", version: "" };
  #serverCapabilities: ServerCapabilities = {};
  #instructions: string | undefined;
  #logLevel: LoggingLevel | undefined;
  #subscriptions = new Set<string>();

  private constructor(transport: Transport, options: ClientOptions) {
    this.#transport = transport;
    this.#options = options;
    this.#roots = options.roots;
    this.#clientInfo = options.clientInfo ?? { name: "mcp-inspect", version: VERSION };
    this.#capabilities = { ...handlerCapabilities(options), ...options.capabilities };
    if (options.tasks) {
      const extensions = (this.#capabilities.extensions ?? {}) as Record<string, unknown>;
      this.#capabilities.extensions = { ...extensions, [TASKS_EXTENSION]: {} };
    }
    this.#events = new Emitter((error, event) =>
      this.#diagnose({
        kind: "notification-handler-failed",
        message: `A listener for "${String(event)}" threw: ${(error as Error)?.message ?? error}`,
      })
    );
    this.#tools = new ToolSchemas((diagnostic) => this.#diagnose(diagnostic));
    this.#session = new Session(transport, {
      ...(options.requestTimeoutMs !== undefined
        ? { requestTimeoutMs: options.requestTimeoutMs }
        : {}),
      ...(options.maxTotalTimeoutMs !== undefined
        ? { maxTotalTimeoutMs: options.maxTotalTimeoutMs }
        : {}),
      onDiagnostic: (diagnostic) => this.#diagnose(diagnostic),
      onClose: (reason) => this.#events.emit("close", reason),
    });
    this.#listener = new Listener(
      (method, params, limits) => this.#session.request(method, this.#withMeta(params), limits),
      (diagnostic) => this.#diagnose(diagnostic),
    );
    for (const [event, listener] of Object.entries(options.listeners ?? {})) {
      if (listener) {
        this.#events.on(event as keyof ClientEvents, listener as (payload: unknown) => void);
      }
    }
    this.#handlers = clientHandlers(options, () => this.#currentRoots());
    installHandlers(this.#session, this.#handlers);
    const on = (method: string, listener: (params: JsonObject) => void) =>
      this.#session.onNotification(method, listener);
    on("notifications/tools/list_changed", () => {
      this.#tools.forget();
      this.#cache.invalidate("tools/list");
      this.#events.emit("toolsListChanged", undefined);
    });
    on("notifications/prompts/list_changed", () => {
      this.#cache.invalidate("prompts/list");
      this.#events.emit("promptsListChanged", undefined);
    });
    on("notifications/resources/list_changed", () => {
      this.#cache.invalidate("resources/list");
      this.#cache.invalidate("resources/templates/list");
      this.#events.emit("resourcesListChanged", undefined);
    });
    on("notifications/resources/updated", (params) => {
      if (typeof params.uri !== "string") return;
      this.#cache.invalidate("resources/read", params.uri);
      this.#events.emit("resourceUpdated", { uri: params.uri });
    });
    on("notifications/subscriptions/acknowledged", (params) => {
      this.#listener.acknowledge(params.notifications as ListenFilter | undefined);
    });
    on("notifications/message", (params) => this.#events.emit("log", params as LogMessage));
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
    try {
      await transport.start();
    } catch (error) {
      await transport.close();
      throw error;
    }
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
    const negotiated = await negotiate(this.#session, {
      protocol: this.#options.protocol ?? "auto",
      verdict: this.#options.discovery,
      capabilities: this.#capabilities,
      clientInfo: this.#clientInfo,
      probeTimeoutMs: this.#options.probeTimeoutMs ?? 5_000,
      signal: this.#options.signal,
      label: () => this.#label(),
      onVersion: (version) => this.#transport.setProtocolVersion?.(version),
    });
    this.#era = negotiated.era;
    this.#protocolVersion = negotiated.protocolVersion;
    this.#serverInfo = negotiated.serverInfo;
    this.#serverCapabilities = negotiated.capabilities;
    this.#instructions = negotiated.instructions;
    if (this.#era === "modern" && (this.#options.listen ?? true)) {
      await this.#listener.update(this.#listenFilter());
    }
  }

  /** The negotiated protocol revision. */
  get protocolVersion(): string {
    return this.#protocolVersion;
  }

  /** `"modern"` (2026-07-28 and later, stateless) or `"legacy"` (the `initialize` handshake). */
  get era(): "modern" | "legacy" {
    return this.#era;
  }

  /** What negotiation found; pass it as `discovery` to a later `connect()` to skip the probe. */
  get discovery(): DiscoveryVerdict {
    return { era: this.#era, protocolVersion: this.#protocolVersion };
  }

  /** The server's name and version (in the modern era, as its latest result said). */
  get serverInfo(): Implementation {
    return this.#serverInfo;
  }

  /** What the server advertised it can do. */
  get serverCapabilities(): ServerCapabilities {
    return this.#serverCapabilities;
  }

  /** The server's instructions for the model, if any. */
  get instructions(): string | undefined {
    return this.#instructions;
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
    return this.#events.on(event, listener);
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
    options: CacheOptions = {},
  ): Promise<JsonObject> {
    const capability = REQUIRED_CAPABILITY[method];
    if (capability && !this.#hasCapability(capability)) {
      return Promise.reject(new CapabilityError(method, capability, this.#label()));
    }
    return this.#era === "modern"
      ? this.#modernRequest(method, params, options)
      : this.#session.request(method, params, options);
  }

  async #modernRequest(
    method: string,
    params: JsonObject,
    options: CacheOptions,
  ): Promise<JsonObject> {
    const { bypassCache, ...limits } = options;
    const cacheKey = CACHEABLE_METHODS.has(method) ? ResultCache.key(method, params) : undefined;
    if (cacheKey && !bypassCache) {
      const cached = this.#cache.get(cacheKey);
      if (cached) return cached;
    }
    const maxRounds = this.#options.maxInputRounds ?? 10;
    let current = params;
    for (let round = 0;; round++) {
      const result = await this.#session.request(method, this.#withMeta(current), limits);
      const info = serverInfoOf(result);
      if (info) this.#serverInfo = info;
      const needed = inputRequired(method, result);
      if (!needed) {
        if (cacheKey) this.#cache.set(cacheKey, result);
        return result;
      }
      if (round + 1 >= maxRounds) {
        throw new ProtocolError(
          `Server still wanted input for ${method} after ${maxRounds} rounds (maxInputRounds)`,
        );
      }
      const inputResponses = await this.#answer(method, needed.inputRequests, limits.signal);
      // The retry carries the original params, our answers, and the server's state untouched.
      const { inputResponses: _old, requestState: _state, ...original } = current;
      current = { ...original, inputResponses };
      if (needed.requestState !== undefined) current.requestState = needed.requestState;
    }
  }

  async #answer(
    method: string,
    requests: Record<string, { method: string; params?: JsonObject }>,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject> {
    const context = { signal: signal ?? new AbortController().signal };
    const answers = await Promise.all(
      Object.entries(requests).map(async ([key, request]) => {
        const handler = this.#handlers.get(request.method);
        if (!handler) {
          throw new ProtocolError(
            `Server asked for ${request.method} while answering ${method}, but this client declared no handler for it`,
          );
        }
        return [key, await handler(request.params ?? {}, context)] as const;
      }),
    );
    return Object.fromEntries(answers);
  }

  #withMeta(params: JsonObject): JsonObject {
    return withMeta(params, {
      protocolVersion: this.#protocolVersion,
      capabilities: this.#capabilities,
      clientInfo: this.#clientInfo,
      logLevel: this.#logLevel,
    });
  }

  /** Lists the server's tools, walking every page; `{ cursor }` returns one raw page instead. */
  listTools(options?: ListOptions): Promise<Tool[]>;
  /** Fetches one raw page of tools. */
  listTools(options: PageOptions): Promise<ListPage<Tool>>;
  async listTools(options: ListOptions | PageOptions = {}): Promise<Tool[] | ListPage<Tool>> {
    const result = await this.#list<Tool>("tools/list", "tools", options);
    if (Array.isArray(result)) this.#tools.replace(result);
    else this.#tools.add(result.items);
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

  async #list<T>(
    method: string,
    key: string,
    options: ListOptions | PageOptions,
  ): Promise<T[] | ListPage<T>> {
    if ("cursor" in options) {
      const { cursor, ...rest } = options;
      const result = await this.request(method, cursor === undefined ? {} : { cursor }, rest);
      checkPage(method, key, result);
      return {
        items: result[key] as T[],
        ...(typeof result.nextCursor === "string" ? { nextCursor: result.nextCursor } : {}),
        result,
      };
    }
    const { maxPages, ...rest } = options;
    return walkPages<T>(
      method,
      key,
      maxPages ?? this.#options.maxPages ?? DEFAULT_MAX_PAGES,
      (cursor) => this.request(method, cursor === undefined ? {} : { cursor }, rest),
    );
  }

  /**
   * Calls a tool. When the tool declares an `outputSchema`, its `structuredContent` is
   * validated; a mismatch raises {@link ValidationError}. A result with `isError` is returned,
   * not thrown: the tool ran and reported a failure.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    const { task, onTaskStatus, ...limits } = options;
    const validateOutput = this.#options.validateOutput ?? true;
    if (
      (validateOutput || this.#options.validateArguments || task !== undefined) &&
      !this.#tools.known
    ) {
      await this.#learnTools(limits);
    }
    if (this.#options.validateArguments) this.#tools.validateArguments(name, args);
    const params: JsonObject = { name, arguments: args };
    const execution = this.#tools.get(name)?.execution as { taskSupport?: string } | undefined;
    const augment = this.#era === "legacy" && this.#hasCapability("tasks.requests.tools.call") &&
      (execution?.taskSupport === "required" || (task !== undefined && task !== false));
    if (augment) {
      const ttl = typeof task === "object" ? task.ttlMs : undefined;
      params.task = ttl === undefined ? {} : { ttl };
    }
    let result = await this.request("tools/call", params, limits);
    const created = taskOf(result);
    if (created) {
      result = await waitForTask(this.#taskOps(), created, {
        ...limits,
        ...(onTaskStatus ? { onTaskStatus } : {}),
      });
    }
    if (result.content !== undefined && !Array.isArray(result.content)) {
      throw new ProtocolError(`Invalid tools/call result: "content" must be an array`);
    }
    const callResult = { ...result, content: result.content ?? [] } as CallToolResult;
    if (validateOutput) this.#tools.validateOutput(name, callResult);
    return callResult;
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
    if (this.#era === "modern") {
      throw new ProtocolError("tasks/list does not exist in revision 2026-07-28 and later");
    }
    const { maxPages, ...rest } = options;
    const tasks = await walkPages<JsonObject>(
      "tasks/list",
      "tasks",
      maxPages ?? this.#options.maxPages ?? DEFAULT_MAX_PAGES,
      (cursor) => this.request("tasks/list", cursor === undefined ? {} : { cursor }, rest),
    );
    return tasks.map(toTaskInfo);
  }

  /**
   * Waits until a task is final and returns what its request would have returned, answering the
   * server's input requests through the client's handlers on the way.
   */
  async waitForTask(taskId: string, options: TaskWaitOptions = {}): Promise<JsonObject> {
    return await waitForTask(this.#taskOps(), await this.getTask(taskId, options), options);
  }

  #taskOps(): TaskOps {
    return {
      era: this.#era,
      request: (method, params, options) => this.request(method, params, options),
      answer: (requests, signal) => this.#answer("tasks/get", requests, signal),
    };
  }

  /** Lists tools once so that their schemas are known; a failure only skips validation. */
  async #learnTools(options: RequestOptions): Promise<void> {
    if (!this.#hasCapability("tools")) return;
    try {
      // Same limits as the call itself: a server that never answers tools/list must not hold
      // the call for the default timeout.
      const { onProgress: _onProgress, ...limits } = options;
      await this.listTools(limits);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      this.#tools.giveUp();
      this.#diagnose({
        kind: "unexpected-message",
        message: `Could not list tools to validate results: ${(error as Error).message}`,
      });
    }
  }

  /** Reads a resource. */
  async readResource(uri: string, options: CacheOptions = {}): Promise<ReadResourceResult> {
    const result = await this.request("resources/read", { uri }, options);
    if (!Array.isArray(result.contents)) {
      throw new ProtocolError(`Invalid resources/read result: "contents" must be an array`);
    }
    return result as ReadResourceResult;
  }

  /**
   * Asks for `resourceUpdated` events about a resource: `resources/subscribe` in the legacy era,
   * the `resourceSubscriptions` of the `subscriptions/listen` stream in the modern era.
   */
  async subscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    if (this.#era === "legacy") {
      await this.request("resources/subscribe", { uri }, options);
      return;
    }
    this.#requireCapability("resources/subscribe", "resources.subscribe");
    this.#subscriptions.add(uri);
    await this.#listener.update(this.#listenFilter());
  }

  /** Stops `resourceUpdated` events about a resource. */
  async unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    if (this.#era === "legacy") {
      await this.request("resources/unsubscribe", { uri }, options);
      return;
    }
    this.#requireCapability("resources/unsubscribe", "resources.subscribe");
    this.#subscriptions.delete(uri);
    await this.#listener.update(this.#listenFilter());
  }

  #listenFilter(): ListenFilter {
    const caps = this.#serverCapabilities;
    const filter: ListenFilter = {};
    if (this.#options.listen === false) return filter;
    if (caps.tools?.listChanged) filter.toolsListChanged = true;
    if (caps.prompts?.listChanged) filter.promptsListChanged = true;
    if (caps.resources?.listChanged) filter.resourcesListChanged = true;
    if (this.#subscriptions.size > 0) filter.resourceSubscriptions = [...this.#subscriptions];
    return filter;
  }

  /** Renders a prompt with its arguments. */
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: RequestOptions = {},
  ): Promise<GetPromptResult> {
    const result = await this.request("prompts/get", { name, arguments: args }, options);
    if (!Array.isArray(result.messages)) {
      throw new ProtocolError(`Invalid prompts/get result: "messages" must be an array`);
    }
    return result as GetPromptResult;
  }

  /** Asks for completions of a prompt argument or resource template variable. */
  async complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    options: RequestOptions & { context?: Record<string, string> } = {},
  ): Promise<CompleteResult> {
    const { context, ...rest } = options;
    const params: JsonObject = { ref, argument };
    if (context) params.context = { arguments: context };
    const result = await this.request("completion/complete", params, rest);
    const completion = result.completion as { values?: unknown } | undefined;
    if (!completion || !Array.isArray(completion.values)) {
      throw new ProtocolError(
        `Invalid completion/complete result: "completion.values" must be an array`,
      );
    }
    return result as CompleteResult;
  }

  /**
   * Sets the lowest severity of log messages the server sends: `logging/setLevel` in the legacy
   * era; in the modern era the level travels in every later request's `_meta` instead.
   */
  async setLoggingLevel(level: LoggingLevel, options: RequestOptions = {}): Promise<void> {
    if (this.#era === "modern") {
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
    await this.request(this.#era === "modern" ? "server/discover" : "ping", {}, options);
  }

  /** Replaces the roots and tells the server they changed (legacy era; modern servers ask). */
  async setRoots(roots: readonly Root[]): Promise<void> {
    if (this.#options.roots === undefined) {
      throw new CapabilityError("notifications/roots/list_changed", "roots", "this client");
    }
    this.#roots = roots;
    // 2026-07-28 removed roots/list_changed: servers ask for roots inside each request.
    if (this.#era === "legacy") await this.#session.notify("notifications/roots/list_changed");
  }

  #currentRoots(): readonly Root[] | Promise<readonly Root[]> {
    const roots = this.#roots;
    return typeof roots === "function" ? roots() : roots ?? [];
  }

  #requireCapability(method: string, capability: string): void {
    if (!this.#hasCapability(capability)) {
      throw new CapabilityError(method, capability, this.#label());
    }
  }

  #hasCapability(path: string): boolean {
    let node: unknown = this.#serverCapabilities;
    for (const part of path.split(".")) {
      if (typeof node !== "object" || node === null) return false;
      node = (node as Record<string, unknown>)[part];
    }
    return node !== undefined && node !== null && node !== false;
  }

  #label(): string {
    return this.#options.name ?? (this.#serverInfo.name || "the server");
  }

  #diagnose(diagnostic: Diagnostic): void {
    try {
      this.#options.onDiagnostic?.(diagnostic);
    } catch {
      // a faulty diagnostics sink must not break the client
    }
  }

  /** Closes the connection and the transport; pending requests are rejected. */
  async close(): Promise<void> {
    await this.#listener.close();
    await this.#session.close();
  }

  /** Same as {@link close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
