// One managed server: its connection, its lists, its calls, and the restart of an idle server on
// the next call. Reconnection with backoff lives in _reconnect.ts; liveness checks and idle
// shutdown in _health.ts.

import { Client } from "../client/client.ts";
import type { ServerConfig } from "../config/config.ts";
import type { Diagnostic } from "../errors.ts";
import { Redactor } from "../redact.ts";
import type { RequestOptions } from "../session.ts";
import { StdioTransport } from "../transport/stdio.ts";
import type { Transport } from "../transport/transport.ts";
import type {
  CallToolResult,
  DiscoveryVerdict,
  Implementation,
  LogMessage,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from "../types.ts";
import { toolRefusal } from "../config/policy.ts";
import { HealthCheck, IdleTimer } from "./_health.ts";
import { ALL_KINDS, fetchLists, type ListKind, type Lists } from "./_lists.ts";
import { Reconnection, resubscribe } from "./_reconnect.ts";
import { relayedHandlers, type ServerSettings } from "./_settings.ts";
import { CallRecorder } from "../stats/recorder.ts";
import { tracedToolCall } from "./_tracing.ts";
import { ServerUnavailableError, ToolDeniedError } from "./errors.ts";
import type { JsonObject } from "../jsonrpc.ts";

/** Where a server is, apart from being toggled off. */
export type Phase = "connecting" | "ready" | "failed" | "idle" | "closed";

export type { ListKind } from "./_lists.ts";

/** What a server tells the manager. */
export interface ServerHooks {
  stateChanged(server: ManagedServer): void;
  listsChanged(server: ManagedServer, kinds: readonly ListKind[]): void;
  log(server: ManagedServer, message: LogMessage): void;
  resourceUpdated(server: ManagedServer, uri: string): void;
  diagnostic(server: ManagedServer, diagnostic: Diagnostic): void;
}

/** Options of one call through the manager. */
export interface CallOptions extends RequestOptions {
  whileReconnecting?: "wait" | "fail";
  waitTimeoutMs?: number;
  meta?: JsonObject | undefined;
}

export class ManagedServer implements Lists {
  readonly name: string;
  config: ServerConfig;
  /** Resources watched through the manager: subscribed again on every new connection. */
  readonly subscriptions = new Set<string>();
  readonly #settings: ServerSettings;
  readonly #hooks: ServerHooks;
  readonly #stop = new AbortController();
  readonly #reconnection: Reconnection;
  readonly #health: HealthCheck;
  readonly #idle: IdleTimer;
  #phase: Phase = "idle";
  #enabled: boolean;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #generation = 0;
  #connecting: Promise<Client> | undefined;
  /** Clients being closed in the background; close() waits for them so nothing outlives it. */
  readonly #closingClients = new Set<Promise<void>>();
  #discovery: DiscoveryVerdict | undefined;
  #everConnected = false;
  tools: Tool[] = [];
  resources: Resource[] = [];
  templates: ResourceTemplate[] = [];
  prompts: Prompt[] = [];
  lastError: Error | undefined;
  connectedAt: number | undefined;
  connectMs: number | undefined;
  lastCallAt: number | undefined;
  reconnects = 0;
  pid: number | undefined;
  era: "modern" | "legacy" | undefined;
  protocolVersion: string | undefined;
  serverInfo: Implementation | undefined;
  /** Counts of the tool calls that reached this server (refused ones never do). */
  readonly stats: CallRecorder;

  constructor(name: string, config: ServerConfig, settings: ServerSettings, hooks: ServerHooks) {
    this.name = name;
    this.config = config;
    this.#settings = settings;
    this.stats = new CallRecorder(settings.stats);
    this.#hooks = hooks;
    this.#enabled = !config.disabled;
    this.#reconnection = new Reconnection(settings);
    this.#health = new HealthCheck(this, settings, (reason) => {
      this.#retire(this.#detach());
      this.#fail(reason);
    });
    this.#idle = new IdleTimer(this, settings, () => {
      this.#retire(this.#detach());
      this.#setPhase("idle");
    });
  }

  get phase(): Phase {
    return this.#phase;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /** The connected client, if any. */
  get client(): Client | undefined {
    return this.#client;
  }

  /** Connects unless the config says the server is disabled. Rejects when the first try fails. */
  async start(): Promise<void> {
    if (!this.#enabled) {
      this.#hooks.stateChanged(this);
      return;
    }
    await this.#connect();
  }

  /** Applies policy changes (allow, deny, disabled, idle timeout) without reconnecting. */
  async update(config: ServerConfig): Promise<void> {
    this.config = config;
    this.#idle.arm();
    this.#hooks.listsChanged(this, ["tools"]);
    await this.setEnabled(!config.disabled);
  }

  async setEnabled(enabled: boolean): Promise<void> {
    if (enabled === this.#enabled) return;
    this.#enabled = enabled;
    this.#hooks.stateChanged(this);
    this.#hooks.listsChanged(this, ALL_KINDS);
    if (enabled && !this.#everConnected && this.#phase === "idle") await this.#connect();
  }

  #setPhase(phase: Phase): void {
    if (this.#phase === phase) return;
    this.#phase = phase;
    this.#hooks.stateChanged(this);
  }

  #connect(): Promise<Client> {
    if (this.#connecting) return this.#connecting;
    if (this.#phase === "closed") {
      return Promise.reject(new ServerUnavailableError(this.name, "closed", this.lastError));
    }
    this.#reconnection.cancel();
    const generation = ++this.#generation;
    this.#setPhase("connecting");
    const attempt = this.#open(generation).then(
      (client) => {
        this.#connecting = undefined;
        return client;
      },
      (error) => {
        this.#connecting = undefined;
        if (generation === this.#generation && this.#phase !== "closed") this.#fail(error);
        throw error;
      },
    );
    this.#connecting = attempt;
    return attempt;
  }

  async #open(generation: number): Promise<Client> {
    const started = performance.now();
    const transport = this.#settings.createTransport(this.name, this.config);
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new Error(`no answer within ${this.#settings.connectTimeoutMs} ms`)),
      this.#settings.connectTimeoutMs,
    );
    const current = () => generation === this.#generation;
    let client: Client;
    try {
      client = await Client.connect(transport, {
        ...this.#settings.clientOptions,
        ...relayedHandlers(this.name, this.#settings.serverRequests),
        name: this.name,
        signal: AbortSignal.any([this.#stop.signal, timeout.signal]),
        ...(this.#discovery ? { discovery: this.#discovery } : {}),
        onDiagnostic: (diagnostic) => this.#hooks.diagnostic(this, diagnostic),
        listeners: {
          close: (reason) => current() && this.#lost(reason),
          toolsListChanged: () => current() && void this.#refresh(["tools"]),
          promptsListChanged: () => current() && void this.#refresh(["prompts"]),
          resourcesListChanged: () => current() && void this.#refresh(["resources"]),
          log: (message) => this.#hooks.log(this, message),
          resourceUpdated: ({ uri }) => this.#hooks.resourceUpdated(this, uri),
        },
      });
    } finally {
      clearTimeout(timer);
    }
    if (!current() || this.#phase === "closed") {
      await client.close();
      throw new ServerUnavailableError(this.name, "closed");
    }
    this.#client = client;
    this.#transport = transport;
    this.#discovery = client.discovery;
    this.era = client.era;
    this.protocolVersion = client.protocolVersion;
    this.serverInfo = client.serverInfo;
    this.pid = transport instanceof StdioTransport ? transport.pid : undefined;
    await this.#fetch(client, ALL_KINDS);
    if (!current()) throw new ServerUnavailableError(this.name, this.#phase, this.lastError);
    if (this.#everConnected) this.reconnects++;
    this.#everConnected = true;
    this.#reconnection.connected();
    this.connectedAt = Date.now();
    this.connectMs = performance.now() - started;
    this.#setPhase("ready");
    this.#hooks.listsChanged(this, ALL_KINDS);
    resubscribe(client, this.subscriptions, (d) => this.#hooks.diagnostic(this, d));
    this.#health.arm();
    this.#idle.arm();
    this.#reconnection.resolve(client);
    return client;
  }

  /** Reads the lists the server advertises; a list that fails keeps its last value. */
  async #fetch(client: Client, kinds: readonly ListKind[]): Promise<void> {
    const lists = await fetchLists(
      client,
      kinds,
      this,
      (what, error) =>
        this.#hooks.diagnostic(this, {
          kind: "unexpected-message",
          message: `Cannot list ${what} of server "${this.name}": ${error.message}`,
        }),
    );
    Object.assign(this, lists);
  }

  async #refresh(kinds: readonly ListKind[]): Promise<void> {
    const client = this.#client;
    if (!client) return;
    await this.#fetch(client, kinds);
    if (client === this.#client) this.#hooks.listsChanged(this, kinds);
  }

  /** The connection died on its own (the process exited, the socket dropped). */
  #lost(reason: Error): void {
    if (this.#phase !== "ready" && this.#phase !== "connecting") return;
    // A handshake that failed closes its client too; #connect reports why it failed, which says
    // more than "Connection closed by the client".
    if (!this.#client) return;
    this.#detach();
    this.#fail(reason);
  }

  #fail(error: Error): void {
    // The status is shown to people (servers --json, proxy logs): a server may echo its secrets.
    this.lastError = new Redactor().addServer(this.config).redactError(error);
    this.#setPhase("failed");
    this.#reconnection.schedule(
      () => this.#connect().catch(() => {}),
      () =>
        new ServerUnavailableError(this.name, "failed", this.lastError, "it gave up reconnecting"),
    );
  }

  /** Whether a retry is coming; false once the attempts are spent. */
  get retrying(): boolean {
    return this.#phase === "connecting" || (this.#phase === "failed" && !this.#reconnection.gaveUp);
  }

  #retire(client: Client | undefined): void {
    if (!client) return;
    const closing = client.close().catch(() => {}).finally(() =>
      this.#closingClients.delete(closing)
    );
    this.#closingClients.add(closing);
  }

  /** Forgets the current client so that its events are ignored; returns it for closing. */
  #detach(): Client | undefined {
    const client = this.#client;
    this.#generation++;
    this.#client = undefined;
    this.#transport = undefined;
    this.pid = undefined;
    this.#health.stop();
    this.#idle.stop();
    return client;
  }

  /** A client ready for a call: waits for a reconnection or restarts an idle server. */
  async acquire(options: CallOptions): Promise<{ client: Client; transport: Transport }> {
    if (!this.#enabled) throw new ServerUnavailableError(this.name, "disabled");
    if (this.#phase === "idle") await this.#connect();
    if (this.#phase === "closed") {
      throw new ServerUnavailableError(this.name, "closed", this.lastError);
    }
    if (this.#phase !== "ready") await this.#reconnection.wait(this, options);
    return { client: this.#client!, transport: this.#transport! };
  }

  /** Calls a tool, refusing denied ones without contacting the server. */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult> {
    const refused = toolRefusal(this.config, tool);
    if (refused) throw new ToolDeniedError(this.name, tool, refused.rule, refused.pattern);
    const { whileReconnecting: _w, waitTimeoutMs: _t, meta: incoming, ...request } = options;
    return await this.stats.track(
      tool,
      () =>
        this.use(() =>
          tracedToolCall(this.name, tool, incoming, async (meta) => {
            const { client } = await this.acquire(options);
            const traced = Object.keys(meta).length > 0 ? { ...request, meta } : request;
            return await client.callTool(tool, args, traced);
          })
        ),
    );
  }

  /** Runs work that uses the connection: the server does not go idle meanwhile. */
  async use<T>(work: () => Promise<T>): Promise<T> {
    this.#idle.begin();
    this.lastCallAt = Date.now();
    try {
      return await work();
    } finally {
      this.#idle.end();
    }
  }

  async close(): Promise<void> {
    if (this.#phase === "closed") return;
    this.#phase = "closed";
    this.#stop.abort(new ServerUnavailableError(this.name, "closed"));
    this.#reconnection.cancel();
    this.#reconnection.reject(new ServerUnavailableError(this.name, "closed"));
    const client = this.#detach();
    await Promise.allSettled([client?.close(), this.#connecting, ...this.#closingClients]);
    this.#hooks.stateChanged(this);
  }
}
