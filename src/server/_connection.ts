// One client connection to an McpServer: raw JSON-RPC dispatch for both eras. Every incoming
// message names the channel its related messages go out on (its progress, its logs, its
// response): stdout for stdio, the POST's own stream for HTTP. Messages that belong to no request
// (list changes, logs) go on the connection's default channel, or on `subscriptions/listen`
// streams in the modern era.

import { McpError } from "../errors.ts";
import { ErrorCode, type JsonObject, type JsonRpcMessage, type RequestId } from "../jsonrpc.ts";
import type { SubscriptionCounter } from "./_subscriptions.ts";
import { LEGACY_PROTOCOL_VERSIONS, type LoggingLevel, MODERN_PROTOCOL_VERSIONS } from "../types.ts";
import type { ServerDefinition, ServerRequestContext } from "./server.ts";
import { META } from "../protocol.ts";

/** Where outgoing messages go. */
export interface Channel {
  send(message: JsonRpcMessage): void;
}

const LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];
const META_VERSION = META.protocolVersion;
const META_LOG_LEVEL = META.logLevel;
const META_SERVER_INFO = META.serverInfo;
const META_SUBSCRIPTION = META.subscriptionId;
const META_CAPABILITIES = META.clientCapabilities;
/** Results the modern era lets clients cache; a proxy's lists change, so they say ttlMs 0. */
const CACHEABLE = new Set([
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
]);

export type ListKind = "tools" | "resources" | "prompts";
const FILTER_KEY = {
  tools: "toolsListChanged",
  resources: "resourcesListChanged",
  prompts: "promptsListChanged",
} as const;

function atLeast(level: string, threshold: string | undefined): boolean {
  if (threshold === undefined) return true;
  return LEVELS.indexOf(level as LoggingLevel) >= LEVELS.indexOf(threshold as LoggingLevel);
}

export class ServerConnection {
  readonly #definition: ServerDefinition;
  readonly #default: Channel | undefined;
  readonly #onClose: () => void;
  readonly #inFlight = new Map<RequestId, AbortController>();
  readonly #listens = new Map<
    RequestId,
    { filter: JsonObject; channel: Channel; resources: Set<string>; acquired: Set<string> }
  >();
  readonly #subscriptions: SubscriptionCounter;
  /** Resources this (legacy-era) client subscribed to with `resources/subscribe`. */
  readonly #subscribed = new Set<string>();
  /** Requests we sent the client, by id. */
  readonly #outgoing = new Map<RequestId, PromiseWithResolvers<JsonObject>>();
  #nextId = 0;
  #clientCapabilities: JsonObject = {};
  #legacy = false;
  #logLevel: string | undefined;
  #closed = false;

  constructor(
    definition: ServerDefinition,
    channel: Channel | undefined,
    subscriptions: SubscriptionCounter,
    onClose: () => void,
  ) {
    this.#definition = definition;
    this.#subscriptions = subscriptions;
    this.#default = channel;
    this.#onClose = onClose;
  }

  /** Whether a request is still being answered. */
  get busy(): boolean {
    return this.#inFlight.size > 0 || this.#listens.size > 0;
  }

  receive(message: JsonRpcMessage, channel: Channel | undefined = this.#default): void {
    if (this.#closed) return;
    if (!("method" in message)) return this.#settle(message);
    if (!("id" in message)) {
      if (message.method === "notifications/cancelled") {
        this.cancel(message.params?.requestId as RequestId);
      }
      return;
    }
    const { id, method } = message;
    const params = message.params ?? {};
    const reply = (body: { result: JsonObject } | { error: JsonObject }) =>
      channel?.send({ jsonrpc: "2.0", id, ...body } as JsonRpcMessage);
    const controller = new AbortController();
    this.#inFlight.set(id, controller);
    Promise.resolve()
      .then(() => this.#answer(method, params, id, controller.signal, channel))
      .then(
        (result) => result && !controller.signal.aborted && reply({ result }),
        (error) => {
          if (!(error instanceof McpError)) this.#definition.onError?.(error, method);
          if (!controller.signal.aborted) reply({ error: toWire(error) });
        },
      )
      .finally(() => {
        if (this.#inFlight.get(id) === controller) this.#inFlight.delete(id);
      });
  }

  /** Stops work on a request; spec: a cancelled request gets no response. */
  cancel(id: RequestId): void {
    this.#inFlight.get(id)?.abort(new Error("cancelled by the client"));
    this.#endListen(id);
  }

  #endListen(id: RequestId): void {
    const listen = this.#listens.get(id);
    if (!listen) return;
    this.#listens.delete(id);
    for (const uri of listen.acquired) this.#subscriptions.release(uri);
  }

  /** A response to one of our requests. */
  #settle(message: JsonRpcMessage): void {
    const id = (message as { id?: RequestId }).id;
    const waiting = id === undefined ? undefined : this.#outgoing.get(id);
    if (!waiting) return;
    this.#outgoing.delete(id!);
    if ("error" in message) {
      const { code, message: text, data } = message.error;
      waiting.reject(new McpError(code, text, data));
    } else if ("result" in message) {
      waiting.resolve(message.result as JsonObject);
    }
  }

  /**
   * Sends the client a request of its own (legacy era: sampling, elicitation, roots) on the
   * channel of the request being answered, and waits for the answer.
   */
  async #request(
    method: string,
    params: JsonObject,
    channel: Channel | undefined,
    signal: AbortSignal,
  ): Promise<JsonObject> {
    signal.throwIfAborted();
    if (!channel || this.#closed) throw new McpError(ErrorCode.InternalError, "Client is gone");
    const id = `mcp-inspect-server-${++this.#nextId}`;
    const waiting = Promise.withResolvers<JsonObject>();
    this.#outgoing.set(id, waiting);
    const onAbort = () => {
      if (!this.#outgoing.delete(id)) return;
      channel.send({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id, reason: String(signal.reason?.message ?? "cancelled") },
      });
      waiting.reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    channel.send({ jsonrpc: "2.0", id, method, params });
    try {
      return await waiting.promise;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  async #answer(
    method: string,
    params: JsonObject,
    id: RequestId,
    signal: AbortSignal,
    channel: Channel | undefined,
  ): Promise<JsonObject | undefined> {
    const definition = this.#definition;
    const meta = (params._meta ?? {}) as JsonObject;
    const requested = meta[META_VERSION];
    if (method === "initialize") {
      this.#legacy = true;
      this.#clientCapabilities = (params.capabilities ?? {}) as JsonObject;
      const offered = String(params.protocolVersion ?? "");
      const result: JsonObject = {
        protocolVersion: LEGACY_PROTOCOL_VERSIONS.includes(offered)
          ? offered
          : LEGACY_PROTOCOL_VERSIONS[0]!,
        capabilities: definition.capabilities,
        serverInfo: definition.serverInfo,
      };
      if (definition.instructions) result.instructions = definition.instructions;
      return result;
    }
    const modern = typeof requested === "string";
    if (modern && !MODERN_PROTOCOL_VERSIONS.includes(requested)) {
      throw new McpError(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
        supported: [...MODERN_PROTOCOL_VERSIONS],
        requested,
      });
    }
    let result: JsonObject;
    if (method === "ping") {
      result = {};
    } else if (method === "logging/setLevel") {
      this.#logLevel = String(params.level);
      result = {};
    } else if (method === "server/discover") {
      result = {
        supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
        capabilities: definition.capabilities,
        ttlMs: 0,
        cacheScope: "private",
      };
      if (definition.instructions) result.instructions = definition.instructions;
    } else if (method === "subscriptions/listen" && modern) {
      const filter = (params.notifications ?? {}) as JsonObject;
      // Routed at once: an update can arrive before the last subscription's answer is seen.
      const wanted = Array.isArray(filter.resourceSubscriptions)
        ? filter.resourceSubscriptions.filter((uri): uri is string => typeof uri === "string")
        : [];
      const listen = {
        filter,
        channel: channel ?? { send: () => {} },
        resources: new Set(wanted),
        acquired: new Set<string>(),
      };
      this.#listens.set(id, listen);
      const acquired = await this.#acquireAll(wanted);
      if (this.#listens.get(id) !== listen) {
        for (const uri of acquired) this.#subscriptions.release(uri); // cancelled meanwhile
        return undefined;
      }
      listen.acquired = acquired;
      for (const uri of wanted) if (!acquired.has(uri)) listen.resources.delete(uri);
      channel?.send({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { notifications: filter, _meta: { [META_SUBSCRIPTION]: id } },
      });
      return undefined; // open until the client cancels it or the connection ends
    } else if (
      (method === "resources/subscribe" || method === "resources/unsubscribe") &&
      !modern && this.#subscriptions.enabled
    ) {
      const uri = String(params.uri ?? "");
      if (method === "resources/unsubscribe") {
        if (this.#subscribed.delete(uri)) this.#subscriptions.release(uri);
      } else if (!this.#subscribed.has(uri)) {
        await this.#subscriptions.acquire(uri);
        if (this.#closed) this.#subscriptions.release(uri);
        else this.#subscribed.add(uri);
      }
      result = {};
    } else {
      const handler = Object.hasOwn(definition.handlers, method)
        ? definition.handlers[method]
        : undefined;
      if (!handler) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
      result = await handler(params, this.#context(meta, signal, channel, modern));
    }
    if (!modern && method !== "server/discover") return result;
    const decorated: JsonObject = {
      resultType: "complete",
      ...result,
      _meta: {
        ...(result._meta as JsonObject | undefined),
        [META_SERVER_INFO]: definition.serverInfo,
      },
    };
    if (CACHEABLE.has(method)) {
      decorated.ttlMs ??= 0;
      decorated.cacheScope ??= "private";
    }
    return decorated;
  }

  #context(
    meta: JsonObject,
    signal: AbortSignal,
    channel: Channel | undefined,
    modern: boolean,
  ): ServerRequestContext {
    const token = meta.progressToken;
    // Modern era: logs only when the request asked, at its level. Legacy: logging/setLevel.
    const threshold = modern ? meta[META_LOG_LEVEL] as string | undefined : this.#logLevel;
    return {
      signal,
      meta,
      era: modern ? "modern" : "legacy",
      clientCapabilities: modern
        ? (meta[META_CAPABILITIES] ?? {}) as JsonObject
        : this.#clientCapabilities,
      request: (method, params) => {
        if (modern) {
          return Promise.reject(
            new McpError(
              ErrorCode.InternalError,
              `A server cannot send ${method} in the modern era: answer with input_required`,
            ),
          );
        }
        return this.#request(method, params, channel, signal);
      },
      progress: (progress) => {
        if (token === undefined || signal.aborted) return;
        channel?.send({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token, ...progress },
        });
      },
      log: (message) => {
        if (signal.aborted || (modern && threshold === undefined)) return;
        if (!atLeast(message.level, threshold)) return;
        channel?.send({ jsonrpc: "2.0", method: "notifications/message", params: { ...message } });
      },
    };
  }

  /** Tells the client a list changed: on the default channel, or on listen streams. */
  listChanged(kind: ListKind): void {
    const method = `notifications/${kind}/list_changed`;
    if (this.#legacy) this.#default?.send({ jsonrpc: "2.0", method });
    for (const [id, { filter, channel }] of this.#listens) {
      if (filter[FILTER_KEY[kind]] !== true) continue;
      channel.send({ jsonrpc: "2.0", method, params: { _meta: { [META_SUBSCRIPTION]: id } } });
    }
  }

  /** Subscribes to every URI of a listen filter that can be; returns those it could. */
  async #acquireAll(uris: readonly string[]): Promise<Set<string>> {
    const acquired = new Set<string>();
    if (!this.#subscriptions.enabled) return acquired;
    await Promise.all(uris.map(async (uri) => {
      if (acquired.has(uri)) return;
      try {
        acquired.add(uri);
        await this.#subscriptions.acquire(uri);
      } catch {
        acquired.delete(uri); // the resource cannot be watched; the stream still opens
      }
    }));
    return acquired;
  }

  /** Tells the client a subscribed resource changed: legacy subscribers, or listen streams. */
  resourceUpdated(uri: string): void {
    const method = "notifications/resources/updated";
    if (this.#subscribed.has(uri)) this.#default?.send({ jsonrpc: "2.0", method, params: { uri } });
    for (const [id, { resources, channel }] of this.#listens) {
      if (!resources.has(uri)) continue;
      channel.send({ jsonrpc: "2.0", method, params: { uri, _meta: { [META_SUBSCRIPTION]: id } } });
    }
  }

  /** Sends a log message that belongs to no request (legacy era only). */
  log(message: { level: LoggingLevel; logger?: string; data: unknown }): void {
    if (!this.#legacy || !atLeast(message.level, this.#logLevel)) return;
    this.#default?.send({ jsonrpc: "2.0", method: "notifications/message", params: message });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const controller of this.#inFlight.values()) controller.abort(new Error("closed"));
    this.#inFlight.clear();
    for (const id of [...this.#listens.keys()]) this.#endListen(id);
    for (const uri of this.#subscribed) this.#subscriptions.release(uri);
    this.#subscribed.clear();
    for (const waiting of this.#outgoing.values()) {
      waiting.reject(new McpError(ErrorCode.InternalError, "Client disconnected"));
    }
    this.#outgoing.clear();
    this.#onClose();
  }
}

function toWire(error: unknown): JsonObject {
  if (error instanceof McpError) {
    const wire: JsonObject = { code: error.code, message: error.message };
    if (error.data !== undefined) wire.data = error.data;
    return wire;
  }
  // Anything else is ours, not the protocol's: its message may quote a stack, a local path or a
  // backend's stderr, so only its class name goes out.
  const name = error instanceof Error && error.name !== "Error" ? ` (${error.name})` : "";
  return { code: ErrorCode.InternalError, message: `Internal error${name}` };
}
