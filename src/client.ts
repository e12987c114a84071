/**
 * The MCP client: the handshake, then tools, resources, prompts, completion and logging, with
 * capability gating, pagination, output validation and events.
 *
 * @module
 */

import { Emitter } from "./_emitter.ts";
import { checkPage, DEFAULT_MAX_PAGES, walkPages } from "./client/_pages.ts";
import { handlerCapabilities, installHandlers } from "./client/_handlers.ts";
import type { ElicitationHandler, SamplingHandler } from "./client/handlers.ts";
import { CapabilityError, type Diagnostic, ProtocolError, ValidationError } from "./errors.ts";
import type { JsonObject } from "./jsonrpc.ts";
import { type RequestOptions, Session } from "./session.ts";
import { SchemaValidator } from "./schema.ts";
import type { Transport } from "./transport/transport.ts";
import {
  type CallToolResult,
  type ClientCapabilities,
  type CompleteResult,
  type CompletionReference,
  type GetPromptResult,
  type Implementation,
  LATEST_PROTOCOL_VERSION,
  type LoggingLevel,
  type LogMessage,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Root,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
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

/** Options of list calls that walk every page. */
export interface ListOptions extends RequestOptions {
  /** Most pages to walk (the client's `maxPages`, default 64). */
  maxPages?: number;
}

/** Options of list calls that fetch exactly one page. */
export interface PageOptions extends RequestOptions {
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
 * A connection to one MCP server.
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
  readonly #validator = new SchemaValidator();
  readonly #tools = new Map<string, Tool>();
  #toolsKnown = false;
  #roots: readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>) | undefined;
  #protocolVersion = "";
  #serverInfo: Implementation = { name: "", version: "" };
  #serverCapabilities: ServerCapabilities = {};
  #instructions: string | undefined;

  private constructor(transport: Transport, options: ClientOptions) {
    this.#transport = transport;
    this.#options = options;
    this.#roots = options.roots;
    this.#events = new Emitter((error, event) =>
      this.#diagnose({
        kind: "notification-handler-failed",
        message: `A listener for "${String(event)}" threw: ${(error as Error)?.message ?? error}`,
      })
    );
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
    for (const [event, listener] of Object.entries(options.listeners ?? {})) {
      if (listener) {
        this.#events.on(event as keyof ClientEvents, listener as (payload: unknown) => void);
      }
    }
    installHandlers(this.#session, options, () => this.#currentRoots());
    const on = (method: string, listener: (params: JsonObject) => void) =>
      this.#session.onNotification(method, listener);
    on("notifications/tools/list_changed", () => {
      this.#tools.clear();
      this.#toolsKnown = false;
      this.#events.emit("toolsListChanged", undefined);
    });
    on(
      "notifications/prompts/list_changed",
      () => this.#events.emit("promptsListChanged", undefined),
    );
    on("notifications/resources/list_changed", () => {
      this.#events.emit("resourcesListChanged", undefined);
    });
    on("notifications/resources/updated", (params) => {
      if (typeof params.uri === "string") this.#events.emit("resourceUpdated", { uri: params.uri });
    });
    on("notifications/message", (params) => this.#events.emit("log", params as LogMessage));
  }

  /**
   * Starts the transport, performs the `initialize` handshake and returns a ready client.
   * On failure the transport is closed again and nothing is left running.
   *
   * @throws {TransportError} when the server cannot be started or exits during the handshake.
   * @throws {ProtocolError} when the server answers with an unsupported protocol revision.
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
      await client.#initialize();
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  async #initialize(): Promise<void> {
    const options = this.#options;
    const capabilities = { ...handlerCapabilities(options), ...options.capabilities };
    const result = await this.#session.request("initialize", {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities,
      clientInfo: options.clientInfo ?? { name: "mcp-inspect", version: VERSION },
    }, options.signal ? { signal: options.signal } : {});
    const version = result.protocolVersion;
    if (typeof version !== "string" || !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      throw new ProtocolError(
        `Server ${this.#label()} answered initialize with protocol revision ${
          JSON.stringify(version)
        }, which this client does not support (it supports ${
          SUPPORTED_PROTOCOL_VERSIONS.join(", ")
        })`,
      );
    }
    const info = result.serverInfo as Implementation | undefined;
    if (typeof info !== "object" || info === null || typeof info.name !== "string") {
      throw new ProtocolError(`Invalid initialize result: "serverInfo" must have a "name"`);
    }
    this.#protocolVersion = version;
    this.#serverInfo = info;
    this.#serverCapabilities = (result.capabilities ?? {}) as ServerCapabilities;
    if (typeof result.instructions === "string") this.#instructions = result.instructions;
    this.#transport.setProtocolVersion?.(version);
    await this.#session.notify("notifications/initialized");
  }

  /** The negotiated protocol revision. */
  get protocolVersion(): string {
    return this.#protocolVersion;
  }

  /** The server's name and version. */
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

  /** Sends any request and returns its raw result. Capability gating applies to known methods. */
  request(
    method: string,
    params: JsonObject = {},
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    const capability = REQUIRED_CAPABILITY[method];
    if (capability && !this.#hasCapability(capability)) {
      return Promise.reject(new CapabilityError(method, capability, this.#label()));
    }
    return this.#session.request(method, params, options);
  }

  /** Lists the server's tools, walking every page; `{ cursor }` returns one raw page instead. */
  listTools(options?: ListOptions): Promise<Tool[]>;
  /** Fetches one raw page of tools. */
  listTools(options: PageOptions): Promise<ListPage<Tool>>;
  async listTools(options: ListOptions | PageOptions = {}): Promise<Tool[] | ListPage<Tool>> {
    const result = await this.#list<Tool>("tools/list", "tools", options);
    const tools = Array.isArray(result) ? result : result.items;
    if (Array.isArray(result)) {
      this.#tools.clear();
      this.#toolsKnown = true;
    }
    for (const tool of tools) this.#tools.set(tool.name, tool);
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
    options: RequestOptions = {},
  ): Promise<CallToolResult> {
    const validateOutput = this.#options.validateOutput ?? true;
    if ((validateOutput || this.#options.validateArguments) && !this.#toolsKnown) {
      await this.#learnTools(options);
    }
    const tool = this.#tools.get(name);
    if (this.#options.validateArguments && tool) {
      const issues = this.#check(tool.inputSchema, args, `input schema of tool "${name}"`);
      if (issues.length > 0) {
        throw new ValidationError(`Invalid arguments for tool "${name}"`, issues);
      }
    }
    const result = await this.request("tools/call", { name, arguments: args }, options);
    if (result.content !== undefined && !Array.isArray(result.content)) {
      throw new ProtocolError(`Invalid tools/call result: "content" must be an array`);
    }
    const callResult = { ...result, content: result.content ?? [] } as CallToolResult;
    if (validateOutput && tool?.outputSchema && !callResult.isError) {
      if (callResult.structuredContent === undefined) {
        throw new ValidationError(
          `Tool "${name}" declares an output schema but returned no structuredContent`,
          [],
        );
      }
      const issues = this.#check(
        tool.outputSchema,
        callResult.structuredContent,
        `output schema of tool "${name}"`,
      );
      if (issues.length > 0) {
        throw new ValidationError(
          `Structured content of tool "${name}" does not match its output schema`,
          issues,
        );
      }
    }
    return callResult;
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
      this.#toolsKnown = true; // do not retry on every call
      this.#diagnose({
        kind: "unexpected-message",
        message: `Could not list tools to validate results: ${(error as Error).message}`,
      });
    }
  }

  #check(schema: unknown, value: unknown, what: string): string[] {
    if (typeof schema !== "object" || schema === null) return [];
    try {
      return this.#validator.compile(schema as JsonObject)(value);
    } catch (error) {
      this.#diagnose({
        kind: "unexpected-message",
        message: `Skipped validation: the ${what} does not compile: ${(error as Error).message}`,
      });
      return [];
    }
  }

  /** Reads a resource. */
  async readResource(uri: string, options: RequestOptions = {}): Promise<ReadResourceResult> {
    const result = await this.request("resources/read", { uri }, options);
    if (!Array.isArray(result.contents)) {
      throw new ProtocolError(`Invalid resources/read result: "contents" must be an array`);
    }
    return result as ReadResourceResult;
  }

  /** Asks for `resourceUpdated` events about a resource. */
  async subscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    await this.request("resources/subscribe", { uri }, options);
  }

  /** Stops `resourceUpdated` events about a resource. */
  async unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    await this.request("resources/unsubscribe", { uri }, options);
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

  /** Sets the lowest severity of log messages the server sends. */
  async setLoggingLevel(level: LoggingLevel, options: RequestOptions = {}): Promise<void> {
    await this.request("logging/setLevel", { level }, options);
  }

  /** Checks that the server answers. */
  async ping(options: RequestOptions = {}): Promise<void> {
    await this.request("ping", {}, options);
  }

  /** Replaces the roots and tells the server they changed. */
  async setRoots(roots: readonly Root[]): Promise<void> {
    if (this.#options.roots === undefined) {
      throw new CapabilityError("notifications/roots/list_changed", "roots", "this client");
    }
    this.#roots = roots;
    await this.#session.notify("notifications/roots/list_changed");
  }

  #currentRoots(): readonly Root[] | Promise<readonly Root[]> {
    const roots = this.#roots;
    return typeof roots === "function" ? roots() : roots ?? [];
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
  close(): Promise<void> {
    return this.#session.close();
  }

  /** Same as {@link close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
