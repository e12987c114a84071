// The servers the page inspects: one connection each, with its wire log, its faults, and the
// requests the server is waiting for the user to answer. Everything that happens becomes an
// event that the page's live channel receives.

import {
  Client,
  type ElicitationResult,
  type JsonObject,
  type JsonRpcMessage,
  type LoggingLevel,
  type Root,
  type SamplingResult,
  SchemaValidator,
  TapTransport,
  type Tool,
  type Transport,
} from "../../mod.ts";
import type { ServerConfig } from "../config/config.ts";
import { toolRefusal } from "../config/policy.ts";
import { refusalMessage } from "../manager/errors.ts";
import { configTransport } from "../manager/transport.ts";
import { FileTokenStore, type TokenStore } from "../auth/mod.ts";
import { recordingHeader } from "../record/record.ts";
import { checkedConfig } from "./_checked_config.ts";
import { Connection, type ServerSummary, type WireEntry } from "./_connection.ts";
import { HubError } from "./_hub_error.ts";
import type { AuthStep } from "./_login_trace.ts";
import { Logins, type PageInteraction } from "./_logins.ts";
import { type PendingRequest, type UserRequestEvent, UserRequests } from "./_user_requests.ts";

/** Everything the live channel carries. */
export type HubEvent =
  | { type: "servers"; servers: ServerSummary[] }
  | { type: "wire"; server: string; entry: WireEntry }
  | { type: "log"; server: string; level: string; logger?: string | undefined; data: unknown }
  | { type: "stderr"; server: string; line: string }
  | { type: "changed"; server: string; list: "tools" | "prompts" | "resources" }
  | { type: "updated"; server: string; uri: string }
  | { type: "progress"; callId: string; progress: number; total?: number; message?: string }
  | UserRequestEvent
  | { type: "auth"; server: string; step: AuthStep };

/** A server name the page may use: what config files allow, without path or markup tricks. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The servers of one page, and the channel of their events. */
export class Hub implements AsyncDisposable {
  readonly #connections = new Map<string, Connection>();
  readonly #requests = new UserRequests((event) => this.#emit(event));
  readonly #listeners = new Set<(event: HubEvent) => void>();
  readonly #logins: Logins;
  readonly #validator = new SchemaValidator();
  #closed = false;

  /** `store` keeps OAuth tokens (default: the file `mcp-inspect auth login` writes). */
  constructor(options: { store?: TokenStore | undefined } = {}) {
    this.#logins = new Logins(options.store ?? new FileTokenStore());
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
    return this.#requests.list();
  }

  /**
   * The server's config as {@link add} would keep it; throws the {@link HubError} that `add`
   * would (a bad name or field, a disabled server, a name taken), having changed nothing.
   */
  checked(name: string, config: unknown): ServerConfig {
    if (this.#closed) throw new HubError("The inspector is closing", 503);
    if (!NAME.test(name)) {
      throw new HubError(
        `Invalid server name "${name}": use letters, digits, "_", "." or "-" (at most 64)`,
      );
    }
    if (this.#connections.has(name)) throw new HubError(`A server named "${name}" exists`, 409);
    return checkedConfig(name, config);
  }

  /** Adds a server and connects to it; the connection's outcome arrives as events. */
  add(name: string, config: ServerConfig): void {
    const connection = new Connection(name, this.checked(name, config));
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
    // The connection's clock is performance.now(); the header wants the wall-clock time.
    const started = new Date(Date.now() - (performance.now() - connection.started));
    const header = recordingHeader(connection.target, started, client);
    const lines = [header, ...connection.wire].map((line) => JSON.stringify(line));
    return lines.map((line) => connection.redactor.redact(line)).join("\n") + "\n";
  }

  /** The wire log of a server so far. */
  wire(name: string): WireEntry[] {
    return this.#get(name).wire;
  }

  /**
   * Lists a server's tools, asking the server (the page always wants the current list): those
   * its config's allow and deny lists allow, as the manager and the proxy would offer them, and
   * how many the lists hid, so that the page can say so (as `tools list --config` does).
   */
  async listTools(name: string): Promise<{ tools: Tool[]; hidden: number }> {
    const connection = this.#get(name);
    const listed = await this.client(name).listTools({ bypassCache: true });
    const tools = listed.filter((tool) => !toolRefusal(connection.config, tool.name));
    connection.tools = new Map(tools.map((tool) => [tool.name, tool]));
    return { tools, hidden: listed.length - tools.length };
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
      throw new HubError(refusalMessage("Tool", name, tool, refused.rule, refused.pattern), 403);
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
    this.#requests.answer(id, answer);
  }

  /** Sets the level of the log messages a server sends. */
  async setLogLevel(name: string, level: LoggingLevel): Promise<void> {
    await this.client(name).setLoggingLevel(level);
  }

  /** What is stored of a server's OAuth authorization (no secret), or null. */
  async authStatus(name: string): Promise<unknown> {
    return await this.#logins.status(name, this.#get(name).config);
  }

  /**
   * Logs in to a remote server's authorization server, step by step: every request and answer
   * of discovery, registration and the token exchange arrives as an event, and the authorization
   * URL is handed to the page to open.
   */
  async login(name: string, interaction: PageInteraction): Promise<unknown> {
    const connection = this.#get(name);
    return await this.#logins.login(name, connection.config, {
      interaction,
      step: (step) => this.#emit({ type: "auth", server: name, step }),
      redact: (text) => connection.redactor.redact(text),
    });
  }

  /** Forgets the tokens stored for a remote server. */
  async logout(name: string): Promise<boolean> {
    return await this.#logins.logout(name, this.#get(name).config);
  }

  #get(name: string): Connection {
    const connection = this.#connections.get(name);
    if (!connection) throw new HubError(`No server named "${name}"`, 404);
    return connection;
  }

  async #connect(connection: Connection): Promise<void> {
    const { name } = connection;
    const live = () => this.#connections.get(name) === connection;
    try {
      let transport: Transport = configTransport(name, connection.config, {
        stderr: (line) => {
          if (live()) {
            this.#emit({ type: "stderr", server: name, line: connection.redactor.redact(line) });
          }
        },
        fetch: this.#logins.connectionFetch(connection.config),
      });
      const record = (dir: WireEntry["dir"]) => (msg: JsonRpcMessage) => {
        const entry = connection.log(dir, msg);
        if (live()) this.#emit({ type: "wire", server: name, entry });
      };
      transport = new TapTransport(transport, { sent: record("send"), received: record("recv") });
      const client = await Client.connect(transport, {
        name,
        // Checked here instead, so that the page shows a result beside what is wrong with it.
        validateOutput: false,
        elicitationModes: ["form", "url"],
        onSampling: (params, { signal }) =>
          this.#requests.ask(name, "sampling", params, signal) as Promise<SamplingResult>,
        onElicitation: (params, { signal }) =>
          this.#requests.ask(name, "elicitation", params, signal) as Promise<ElicitationResult>,
        roots: () => this.#requests.ask(name, "roots", {}) as Promise<Root[]>,
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
            this.#requests.drop(name);
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
    this.#requests.drop(connection.name);
    const client = connection.client;
    connection.status = "closed";
    connection.client = undefined;
    await client?.close();
  }

  /** Closes every connection and ends every login. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#logins.abortAll(new Error("The inspector closed"));
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.allSettled(connections.map((connection) => this.#disconnect(connection)));
    this.#listeners.clear();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
