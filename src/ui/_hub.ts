// The servers the page inspects: one connection each, with its wire log, its faults, and the
// requests the server is waiting for the user to answer. Everything that happens becomes an
// event that the page's live channel receives.

import {
  Client,
  type Diagnostic,
  type ElicitationResult,
  HttpTransport,
  type JsonObject,
  type JsonRpcMessage,
  type LoggingLevel,
  McpError,
  Redactor,
  type Root,
  type SamplingResult,
  SchemaValidator,
  StdioTransport,
  TapTransport,
  type Tool,
  type Transport,
} from "../../mod.ts";
import type { ServerConfig } from "../config/config.ts";
import { toolRefusal } from "../config/policy.ts";
import { ToolDeniedError } from "../manager/errors.ts";
import { FileTokenStore, OAuthProvider, type TokenStore } from "../auth/mod.ts";
import { VERSION } from "../version.ts";
import { tracedFetch } from "./_login_trace.ts";

/** One message of a wire log: milliseconds since the connection started, direction, message. */
export interface WireEntry {
  t: number;
  dir: "send" | "recv";
  msg: JsonRpcMessage;
}

/** What the page shows of a server. */
export interface ServerSummary {
  name: string;
  transport: "stdio" | "http" | "sse";
  target: string;
  status: "connecting" | "connected" | "failed" | "closed";
  error?: string | undefined;
  serverInfo?: { name: string; version: string; title?: string | undefined } | undefined;
  protocolVersion?: string | undefined;
  era?: "modern" | "legacy" | undefined;
  capabilities?: JsonObject | undefined;
  instructions?: string | undefined;
  diagnostics: Diagnostic[];
  wireDropped: number;
}

/** A request of a server that waits for the user: sampling, elicitation or roots. */
export interface PendingRequest {
  id: string;
  server: string;
  kind: "sampling" | "elicitation" | "roots";
  params: unknown;
}

/** Everything the live channel carries. */
export type HubEvent =
  | { type: "servers"; servers: ServerSummary[] }
  | { type: "wire"; server: string; entry: WireEntry }
  | { type: "log"; server: string; level: string; logger?: string | undefined; data: unknown }
  | { type: "stderr"; server: string; line: string }
  | { type: "changed"; server: string; list: "tools" | "prompts" | "resources" }
  | { type: "updated"; server: string; uri: string }
  | { type: "progress"; callId: string; progress: number; total?: number; message?: string }
  | { type: "request"; request: PendingRequest }
  | { type: "request-done"; id: string }
  | { type: "auth"; server: string; step: AuthStep };

/** One step of a login shown on the page: a request and its answer, or a note. */
export interface AuthStep {
  phase: "request" | "response" | "authorize" | "note" | "done" | "failed";
  label: string;
  detail?: unknown;
}

/** The most messages a wire log keeps per server; older ones are dropped (and counted). */
export const MAX_WIRE_ENTRIES = 5_000;

/** An error the page shows as is: what was wrong with its request. */
export class HubError extends Error {
  constructor(message: string, readonly status = 400) {
    super(message);
    this.name = "HubError";
  }
}

class Connection {
  client: Client | undefined;
  status: ServerSummary["status"] = "connecting";
  error: string | undefined;
  readonly wire: WireEntry[] = [];
  wireDropped = 0;
  readonly diagnostics: Diagnostic[] = [];
  started = performance.now();
  readonly redactor: Redactor;
  readonly calls = new Map<string, AbortController>();
  /** The tools of the last list, by name: what a call's result is checked against. */
  tools: Map<string, Tool> | undefined;

  constructor(readonly name: string, readonly config: ServerConfig) {
    this.redactor = new Redactor(Object.values("command" in config ? config.env ?? {} : {}));
    if (!("command" in config)) {
      this.redactor.addHeaders(config.headers ?? {});
      this.redactor.addUrl(config.url);
    }
  }

  get target(): string {
    const config = this.config;
    const text = "command" in config
      ? [config.command, ...(config.args ?? [])].join(" ")
      : config.url;
    return this.redactor.redact(text);
  }

  summary(): ServerSummary {
    const client = this.status === "connected" ? this.client : undefined;
    const config = this.config;
    return {
      name: this.name,
      transport: "command" in config ? "stdio" : config.type === "sse" ? "sse" : "http",
      target: this.target,
      status: this.status,
      error: this.error,
      serverInfo: client?.serverInfo,
      protocolVersion: client?.protocolVersion,
      era: client?.era,
      capabilities: client?.serverCapabilities as JsonObject | undefined,
      instructions: client?.instructions,
      diagnostics: this.diagnostics,
      wireDropped: this.wireDropped,
    };
  }
}

/** A server name the page may use: what config files allow, without path or markup tricks. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The servers of one page, and the channel of their events. */
export class Hub implements AsyncDisposable {
  readonly #connections = new Map<string, Connection>();
  readonly #pending = new Map<string, {
    request: PendingRequest;
    resolve: (value: unknown) => void;
    reject: (error: Error) => void;
  }>();
  readonly #listeners = new Set<(event: HubEvent) => void>();
  readonly #logins = new Map<string, AbortController>();
  readonly #validator = new SchemaValidator();
  readonly #store: TokenStore;
  #nextRequest = 0;
  #closed = false;

  /** `store` keeps OAuth tokens (default: the file `mcp-inspect auth login` writes). */
  constructor(options: { store?: TokenStore | undefined } = {}) {
    this.#store = options.store ?? new FileTokenStore();
  }

  /** Receives every event until the returned function is called. */
  subscribe(listener: (event: HubEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: HubEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  #emitServers(): void {
    this.#emit({ type: "servers", servers: this.servers() });
  }

  /** Every server, in the order they were added. */
  servers(): ServerSummary[] {
    return [...this.#connections.values()].map((connection) => connection.summary());
  }

  /** The requests still waiting for an answer. */
  pending(): PendingRequest[] {
    return [...this.#pending.values()].map((entry) => entry.request);
  }

  /** Adds a server and connects to it; the connection's outcome arrives as events. */
  add(name: string, config: ServerConfig): void {
    if (this.#closed) throw new HubError("The inspector is closing", 503);
    if (!NAME.test(name)) {
      throw new HubError(
        `Invalid server name "${name}": use letters, digits, "_", "." or "-" (at most 64)`,
      );
    }
    if (this.#connections.has(name)) throw new HubError(`A server named "${name}" exists`, 409);
    const connection = new Connection(name, checkedConfig(config));
    this.#connections.set(name, connection);
    this.#emitServers();
    void this.#connect(connection);
  }

  /** Closes a server's connection and forgets it. */
  async remove(name: string): Promise<void> {
    const connection = this.#get(name);
    this.#connections.delete(name);
    this.#emitServers();
    await this.#disconnect(connection);
  }

  /** Closes and opens a server's connection again; its wire log starts over. */
  async reconnect(name: string): Promise<void> {
    const connection = this.#get(name);
    await this.#disconnect(connection);
    const fresh = new Connection(name, connection.config);
    if (this.#connections.get(name) !== connection) return; // removed meanwhile
    this.#connections.set(name, fresh);
    this.#emitServers();
    void this.#connect(fresh);
  }

  /** The connected client of a server, or an error naming why there is none. */
  client(name: string): Client {
    const connection = this.#get(name);
    if (connection.status !== "connected" || !connection.client) {
      throw new HubError(`Server "${name}" is not connected (${connection.status})`, 409);
    }
    return connection.client;
  }

  /** The server's config, as given. */
  config(name: string): ServerConfig {
    return this.#get(name).config;
  }

  /** The wire log of a server as a recording (JSON Lines), secrets redacted. */
  recording(name: string): string {
    const connection = this.#get(name);
    const client = connection.status === "connected" ? connection.client : undefined;
    const header = {
      format: "mcp-inspect-recording",
      version: 1,
      tool: VERSION,
      protocolVersion: client?.protocolVersion,
      era: client?.era,
      server: connection.target,
      started: new Date(Date.now() - (performance.now() - connection.started)).toISOString(),
    };
    const lines = [header, ...connection.wire].map((line) => JSON.stringify(line));
    return lines.map((line) => connection.redactor.redact(line)).join("\n") + "\n";
  }

  /** The wire log of a server so far. */
  wire(name: string): WireEntry[] {
    return this.#get(name).wire;
  }

  /**
   * Lists a server's tools, asking the server (the page always wants the current list): those
   * its config's allow and deny lists allow, as the manager and the proxy would offer them.
   */
  async listTools(name: string): Promise<Tool[]> {
    const connection = this.#get(name);
    const listed = await this.client(name).listTools({ bypassCache: true });
    const tools = listed.filter((tool) => !toolRefusal(connection.config, tool.name));
    connection.tools = new Map(tools.map((tool) => [tool.name, tool]));
    return tools;
  }

  /**
   * Calls a tool. `callId` names the call for {@link cancel} and for its progress events. The
   * result comes with the check of its structured content against the tool's output schema.
   */
  async callTool(
    name: string,
    tool: string,
    args: JsonObject,
    callId: string,
  ): Promise<{ result: JsonObject; outputIssues?: string[] }> {
    const connection = this.#get(name);
    // The page lists no refused tool, but the API takes any name: refuse it here, unsent.
    const refused = toolRefusal(connection.config, tool);
    if (refused) {
      const denied = new ToolDeniedError(name, tool, refused.rule, refused.pattern);
      throw new HubError(denied.message, 403);
    }
    const client = this.client(name);
    if (connection.calls.has(callId)) throw new HubError(`Call "${callId}" is running`, 409);
    const controller = new AbortController();
    connection.calls.set(callId, controller);
    try {
      const result = await client.callTool(tool, args, {
        signal: controller.signal,
        onProgress: (progress) =>
          this.#emit({
            type: "progress",
            callId,
            progress: progress.progress,
            ...(progress.total !== undefined ? { total: progress.total } : {}),
            ...(progress.message !== undefined ? { message: progress.message } : {}),
          }),
      }) as unknown as JsonObject;
      const outputIssues = await this.#checkOutput(connection, tool, result);
      return outputIssues === undefined ? { result } : { result, outputIssues };
    } finally {
      connection.calls.delete(callId);
    }
  }

  async #checkOutput(
    connection: Connection,
    name: string,
    result: JsonObject,
  ): Promise<string[] | undefined> {
    // The list the page showed; asked again only for a tool it did not have.
    if (!connection.tools?.has(name)) {
      try {
        await this.listTools(connection.name);
      } catch {
        return undefined;
      }
    }
    const schema = connection.tools?.get(name)?.outputSchema;
    if (!schema || result.isError === true) return undefined;
    if (result.structuredContent === undefined) {
      return ["(root) the tool declares an output schema but the result has no structuredContent"];
    }
    await SchemaValidator.ready();
    try {
      return [...this.#validator.compile(schema as JsonObject)(result.structuredContent)];
    } catch (error) {
      return [`the tool's output schema cannot be used: ${(error as Error).message}`];
    }
  }

  /** Cancels a running tool call; false when no call has that id. */
  cancel(callId: string): boolean {
    for (const connection of this.#connections.values()) {
      const call = connection.calls.get(callId);
      if (call) {
        call.abort(new Error("Cancelled from the page"));
        return true;
      }
    }
    return false;
  }

  /** Answers a server's pending request: a result, or a refusal with an error. */
  answer(id: string, answer: { result: unknown } | { error: string }): void {
    const entry = this.#pending.get(id);
    if (!entry) throw new HubError(`No pending request "${id}" (answered, or cancelled)`, 404);
    this.#pending.delete(id);
    this.#emit({ type: "request-done", id });
    if ("result" in answer) entry.resolve(answer.result);
    else entry.reject(new McpError(-1, answer.error));
  }

  /** Sets the level of the log messages a server sends. */
  async setLogLevel(name: string, level: LoggingLevel): Promise<void> {
    await this.client(name).setLoggingLevel(level);
  }

  /** What is stored of a server's OAuth authorization (no secret), or null. */
  async authStatus(name: string): Promise<unknown> {
    const config = this.#get(name).config;
    if ("command" in config) throw new HubError(`Server "${name}" runs on stdio: no OAuth`);
    return await new OAuthProvider({ serverUrl: config.url, store: this.#store })
      .status() ?? null;
  }

  /**
   * Logs in to a remote server's authorization server, step by step: every request and answer
   * of discovery, registration and the token exchange arrives as an event, and the authorization
   * URL is handed to the page to open.
   */
  async login(name: string, interaction: {
    redirectUri: string;
    openAuthorizationUrl(url: URL, options: { signal?: AbortSignal }): Promise<URL | string>;
  }): Promise<unknown> {
    const connection = this.#get(name);
    const config = connection.config;
    if ("command" in config) throw new HubError(`Server "${name}" runs on stdio: no OAuth`);
    if (this.#logins.has(name)) throw new HubError(`A login to "${name}" is running`, 409);
    const controller = new AbortController();
    this.#logins.set(name, controller);
    const step = (step: AuthStep) => this.#emit({ type: "auth", server: name, step });
    const redact = (text: string) => connection.redactor.redact(text);
    try {
      const provider = new OAuthProvider({
        serverUrl: config.url,
        store: this.#store,
        signal: controller.signal,
        interaction: {
          redirectUri: interaction.redirectUri,
          openAuthorizationUrl: (url, options) => {
            step({ phase: "authorize", label: "Authorization", detail: { url: url.href } });
            return interaction.openAuthorizationUrl(url, options);
          },
        },
        onLog: (line) => step({ phase: "note", label: redact(line) }),
        fetch: tracedFetch(step, redact),
      });
      const status = await provider.authorize();
      step({ phase: "done", label: "Authorized", detail: status });
      return status;
    } catch (error) {
      step({ phase: "failed", label: (error as Error).message });
      throw error;
    } finally {
      this.#logins.delete(name);
    }
  }

  /** Forgets the tokens stored for a remote server. */
  async logout(name: string): Promise<boolean> {
    const config = this.#get(name).config;
    if ("command" in config) throw new HubError(`Server "${name}" runs on stdio: no OAuth`);
    return await new OAuthProvider({ serverUrl: config.url, store: this.#store })
      .logout();
  }

  #get(name: string): Connection {
    const connection = this.#connections.get(name);
    if (!connection) throw new HubError(`No server named "${name}"`, 404);
    return connection;
  }

  #ask(server: string, kind: PendingRequest["kind"], params: unknown, signal?: AbortSignal) {
    const id = `r${++this.#nextRequest}`;
    const request: PendingRequest = { id, server, kind, params };
    return new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, { request, resolve, reject });
      this.#emit({ type: "request", request });
      signal?.addEventListener("abort", () => {
        if (!this.#pending.delete(id)) return;
        this.#emit({ type: "request-done", id });
        reject(signal.reason);
      }, { once: true });
    });
  }

  #dropRequests(server: string): void {
    for (const [id, entry] of this.#pending) {
      if (entry.request.server !== server) continue;
      this.#pending.delete(id);
      this.#emit({ type: "request-done", id });
      entry.reject(new Error(`Server "${server}" disconnected`));
    }
  }

  async #connect(connection: Connection): Promise<void> {
    const { name } = connection;
    const live = () => this.#connections.get(name) === connection;
    try {
      let transport: Transport = transportFor(connection, this.#store, (line) => {
        if (live()) {
          this.#emit({ type: "stderr", server: name, line: connection.redactor.redact(line) });
        }
      });
      const record = (dir: WireEntry["dir"]) => (msg: JsonRpcMessage) => {
        const entry = { t: Math.round(performance.now() - connection.started), dir, msg };
        connection.wire.push(entry);
        if (connection.wire.length > MAX_WIRE_ENTRIES) {
          connection.wire.shift();
          connection.wireDropped++;
        }
        if (live()) this.#emit({ type: "wire", server: name, entry });
      };
      transport = new TapTransport(transport, { sent: record("send"), received: record("recv") });
      const client = await Client.connect(transport, {
        name,
        // Checked here instead, so that the page shows a result beside what is wrong with it.
        validateOutput: false,
        elicitationModes: ["form", "url"],
        onSampling: (params, { signal }) =>
          this.#ask(name, "sampling", params, signal) as Promise<SamplingResult>,
        onElicitation: (params, { signal }) =>
          this.#ask(name, "elicitation", params, signal) as Promise<ElicitationResult>,
        roots: () => this.#ask(name, "roots", {}) as Promise<Root[]>,
        onDiagnostic: (diagnostic) => {
          const kept = { ...diagnostic, message: connection.redactor.redact(diagnostic.message) };
          if (diagnostic.data !== undefined) {
            kept.data = connection.redactor.redact(diagnostic.data);
          }
          connection.diagnostics.push(kept);
          if (live()) this.#emitServers();
        },
        listeners: {
          log: (message) =>
            this.#emit({
              type: "log",
              server: name,
              level: message.level,
              logger: message.logger,
              data: message.data,
            }),
          toolsListChanged: () => {
            connection.tools = undefined;
            this.#emit({ type: "changed", server: name, list: "tools" });
          },
          promptsListChanged: () => this.#emit({ type: "changed", server: name, list: "prompts" }),
          resourcesListChanged: () =>
            this.#emit({ type: "changed", server: name, list: "resources" }),
          resourceUpdated: ({ uri }) => this.#emit({ type: "updated", server: name, uri }),
          close: (reason) => {
            if (connection.status !== "connected") return;
            connection.status = "closed";
            connection.error = connection.redactor.redact(reason.message);
            this.#dropRequests(name);
            if (live()) this.#emitServers();
          },
        },
      });
      connection.client = client;
      if (!live() || this.#closed) {
        await client.close();
        return;
      }
      connection.status = "connected";
    } catch (error) {
      connection.status = "failed";
      connection.error = connection.redactor.redact((error as Error).message ?? String(error));
    }
    if (live()) this.#emitServers();
  }

  async #disconnect(connection: Connection): Promise<void> {
    for (const call of connection.calls.values()) call.abort(new Error("Disconnected"));
    this.#dropRequests(connection.name);
    const client = connection.client;
    connection.status = "closed";
    connection.client = undefined;
    await client?.close();
  }

  /** Closes every connection and ends every login. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const login of this.#logins.values()) login.abort(new Error("The inspector closed"));
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.allSettled(connections.map((connection) => this.#disconnect(connection)));
    this.#listeners.clear();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** The config of a server added from the page, checked field by field. */
function checkedConfig(value: unknown): ServerConfig {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HubError("A server config is an object with a command or a url");
  }
  const config = value as Record<string, unknown>;
  const strings = (key: string) => {
    const item = config[key];
    if (item === undefined) return undefined;
    if (!Array.isArray(item) || !item.every((entry) => typeof entry === "string")) {
      throw new HubError(`"${key}" must be an array of strings`);
    }
    return item as string[];
  };
  const record = (key: string) => {
    const item = config[key];
    if (item === undefined) return undefined;
    if (
      typeof item !== "object" || item === null || Array.isArray(item) ||
      !Object.values(item).every((entry) => typeof entry === "string")
    ) throw new HubError(`"${key}" must be an object of strings`);
    return item as Record<string, string>;
  };
  // Servers of a config file come through here too: without their lists, the page would offer
  // and call the tools those lists hide from the manager and the proxy.
  const allow = strings("allow");
  const deny = strings("deny");
  const policy = { ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) };
  if (typeof config.command === "string" && config.command !== "") {
    const args = strings("args");
    const env = record("env");
    const cwd = config.cwd;
    if (cwd !== undefined && typeof cwd !== "string") throw new HubError(`"cwd" must be a string`);
    return {
      command: config.command,
      ...(args ? { args } : {}),
      ...(env ? { env } : {}),
      ...(cwd ? { cwd } : {}),
      ...policy,
    };
  }
  if (typeof config.url === "string") {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new HubError(`Invalid URL "${config.url}"`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new HubError(`Invalid URL "${config.url}": only http: and https: are served`);
    }
    const headers = record("headers");
    const type = config.type;
    if (type !== undefined && type !== "http" && type !== "sse") {
      throw new HubError(`"type" must be "http" or "sse"`);
    }
    return {
      url: url.href,
      ...(headers ? { headers } : {}),
      ...(type ? { type } : {}),
      ...policy,
    };
  }
  throw new HubError("A server config needs a non-empty command or a url");
}

function transportFor(
  connection: Connection,
  store: TokenStore,
  stderr: (line: string) => void,
): Transport {
  const config = connection.config;
  if ("command" in config) {
    return new StdioTransport({
      command: config.command,
      name: connection.name,
      args: config.args,
      env: config.env,
      cwd: config.cwd || undefined,
      stderr,
    });
  }
  const headers = config.headers ?? {};
  const own = Object.keys(headers).some((key) => key.toLowerCase() === "authorization");
  // Tokens stored by a login (here or with `mcp-inspect auth login`) are used unless the config
  // sends its own Authorization header.
  const provider = own ? undefined : new OAuthProvider({ serverUrl: config.url, store });
  return new HttpTransport({
    url: config.url,
    headers,
    transport: config.type === "sse" ? "sse" : "auto",
    ...(provider ? { fetch: provider.fetch } : {}),
  });
}
