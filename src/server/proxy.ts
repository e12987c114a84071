/**
 * The proxy: every server of a {@link ServerManager} served as one MCP server. Tools and prompts
 * appear under their qualified names (`mcp__<server>__<tool>`), resources under their own URIs;
 * calls, progress, cancellation, logs, list changes, resource subscriptions and completions are
 * forwarded, and allow and deny lists apply. With a {@link ServerRequestRelay}, the servers'
 * sampling and elicitation requests reach the proxy client whose call caused them. The proxy never starts a process because a client asked: it serves only the servers
 * its manager was configured with. Given a {@link ToolRegistry} instead, it serves the
 * registry's tools, local ones included, which is how a program offers its own tools as an MCP
 * server.
 *
 * @module
 */

import { CapabilityError, McpError, ValidationError } from "../errors.ts";
import { ErrorCode, type JsonObject } from "../jsonrpc.ts";
import type { ManagerCallOptions, ServerManager } from "../manager/manager.ts";
import { ServerUnavailableError, ToolDeniedError, UnknownToolError } from "../manager/errors.ts";
import { ToolRegistry } from "../registry/registry.ts";
import type {
  CallToolResult,
  CompletionReference,
  Implementation,
  ServerCapabilities,
  Tool,
} from "../types.ts";
import { VERSION } from "../version.ts";
import { trackCall } from "./_calls.ts";
import { InputRounds } from "./_rounds.ts";
import { skillHandlers } from "./_skills.ts";
import { SKILLS_EXTENSION } from "../skills/skills.ts";
import type { ServerRequestRelay } from "./relay.ts";
import { McpServer, type ServerRequestContext, type ServerRequestHandler } from "./server.ts";

/**
 * Options of {@link createProxyServer}.
 *
 * @example A gateway that names itself
 * ```ts
 * import type { ProxyOptions } from "@mcp-inspect/client/server";
 * const options: ProxyOptions = { serverInfo: { name: "my-gateway", version: "1.0.0" } };
 * ```
 */
export interface ProxyOptions {
  /** How the proxy introduces itself (default `mcp-inspect-proxy`). */
  serverInfo?: Implementation;
  /** Guidance for the model. */
  instructions?: string;
  /** Time a forwarded call may run without progress (default 10 minutes). */
  callTimeoutMs?: number;
  /**
   * The relay given to the manager as `serverRequests`: the servers' sampling and elicitation
   * requests then go to the proxy client whose call caused them. In the modern era they travel
   * as `input_required` rounds, which a client must come back to within `callTimeoutMs`.
   */
  relay?: ServerRequestRelay;
  /**
   * Where the full text of a failure goes (a backend's stderr, paths, stacks); the client gets
   * an error code and a short message. See {@link ServerDefinition.onError}.
   */
  onError?: (error: unknown, method: string) => void;
}

/**
 * A proxy server and the means to stop forwarding.
 *
 * @example Serving a proxy over stdio until the client leaves
 * ```ts ignore
 * using proxy = createProxyServer(manager);
 * await proxy.server.serve(new StdioServerTransport());
 * ```
 */
export interface ProxyServer extends Disposable {
  /** The MCP server to serve over any transport. */
  readonly server: McpServer;
  /** Stops forwarding the manager's events. */
  close(): void;
}

/** Keys of an incoming `_meta` that belong to the hop between client and proxy. */
function forwardable(meta: JsonObject): JsonObject | undefined {
  const kept = Object.entries(meta).filter(([key]) =>
    key !== "progressToken" && !key.startsWith("io.modelcontextprotocol/")
  );
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

function callOptions(context: ServerRequestContext, timeoutMs: number): ManagerCallOptions {
  const meta = forwardable(context.meta);
  return {
    signal: context.signal,
    timeoutMs,
    resetTimeoutOnProgress: true,
    onProgress: context.meta.progressToken !== undefined ? context.progress : undefined,
    meta,
  };
}

/** The manager's refusals are the caller's mistakes: invalid params, as the spec says. */
function asWireError(error: unknown): unknown {
  if (error instanceof ToolDeniedError || error instanceof UnknownToolError) {
    return new McpError(ErrorCode.InvalidParams, error.message);
  }
  if (error instanceof ServerUnavailableError) {
    // The last error (with the backend's stderr) stays local: the client learns the state only.
    const why = error.state === "unknown" ? "no server has that name" : `it is ${error.state}`;
    return new McpError(
      ErrorCode.InternalError,
      `Server "${error.server}" is not available: ${why}`,
      { server: error.server, state: error.state },
    );
  }
  return error;
}

/** Where a failure's full text goes before the client gets its short form. */
type OnError = ((error: unknown, method: string) => void) | undefined;

async function forward<T>(work: () => Promise<T>, onError?: OnError): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const wire = asWireError(error);
    if (wire !== error && error instanceof ServerUnavailableError) onError?.(error, "forward");
    throw wire;
  }
}

/**
 * Runs a forwarded call, letting the server it reaches (looked up only when relaying) ask the
 * calling client for input.
 */
type Relayed = (
  server: () => string | undefined,
  params: JsonObject,
  context: ServerRequestContext,
  work: (options: ManagerCallOptions) => Promise<JsonObject>,
) => Promise<JsonObject>;

function relaying(
  relay: ServerRequestRelay | undefined,
  rounds: InputRounds,
  timeoutMs: number,
  onError: OnError,
): Relayed {
  return async (server, params, context, work) => {
    const options = callOptions(context, timeoutMs);
    const owner = relay ? server() : undefined;
    if (!relay || owner === undefined) return await forward(() => work(options), onError);
    const capabilities = context.clientCapabilities;
    if (context.era === "legacy") {
      const ask = (method: string, request: JsonObject) => context.request(method, request);
      const untrack = trackCall(relay, owner, { capabilities, ask });
      return await forward(() => work(options), onError).finally(untrack);
    }
    return await rounds.round(params, context, (handle) => {
      const untrack = trackCall(relay, owner, { capabilities, ask: handle.ask });
      const relayed = { ...options, signal: handle.signal, onProgress: handle.progress };
      return forward(() => work(relayed), onError).finally(untrack);
    });
  };
}

/** Where the proxy's tools come from: the manager's, or a registry's. */
interface ToolSide {
  list(): Tool[];
  call(
    name: string,
    args: Record<string, unknown>,
    options: ManagerCallOptions,
  ): Promise<CallToolResult>;
  onChange(listener: () => void): () => void;
}

function managerTools(manager: ServerManager): ToolSide {
  return {
    list: () =>
      manager.allTools().map(({ qualifiedName, tool }) => ({ ...tool, name: qualifiedName })),
    call: (name, args, options) => manager.callTool(name, args, options),
    onChange: (listener) => manager.on("toolsChanged", listener),
  };
}

function registryTools(registry: ToolRegistry): ToolSide {
  return {
    list: () => registry.list().map((entry) => entry.tool),
    call: async (name, args, options) => {
      try {
        return await registry.call(name, args, options);
      } catch (error) {
        // Spec 2025-11-25 (tools): invalid arguments are a tool execution error, so that the
        // model can read what was wrong and try again.
        if (!(error instanceof ValidationError)) throw error;
        return { content: [{ type: "text", text: error.message }], isError: true };
      }
    },
    onChange: (listener) => registry.on("changed", listener),
  };
}

/**
 * Builds an MCP server that serves every tool, resource and prompt of a manager, or every tool
 * of a registry (local tools included) with the resources and prompts of its manager, if any.
 *
 * @example Serving a config file's servers over stdio
 * ```ts ignore
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { createProxyServer, StdioServerTransport } from "@mcp-inspect/client/server";
 * await using manager = new ServerManager();
 * await manager.watch("mcp.json");
 * using proxy = createProxyServer(manager);
 * await proxy.server.serve(new StdioServerTransport());
 * ```
 * @example Offering a program's own tools as an MCP server over HTTP
 * ```ts
 * import { Client, StreamableHttpTransport } from "@mcp-inspect/client";
 * import { ToolRegistry } from "@mcp-inspect/client/manager";
 * import { createProxyServer, serveHttp } from "@mcp-inspect/client/server";
 *
 * using registry = new ToolRegistry();
 * registry.register({ name: "now", inputSchema: { type: "object" }, handler: () => Date() });
 * using proxy = createProxyServer(registry, { serverInfo: { name: "clock", version: "1.0.0" } });
 * await using http = serveHttp(proxy.server, { port: 0 });
 * await using client = await Client.connect(new StreamableHttpTransport({ url: http.url }));
 * console.log((await client.listTools()).map((t) => t.name)); // ["now"]
 * ```
 */
export function createProxyServer(
  source: ServerManager | ToolRegistry,
  options: ProxyOptions = {},
): ProxyServer {
  const timeoutMs = options.callTimeoutMs ?? 600_000;
  const tools = source instanceof ToolRegistry ? registryTools(source) : managerTools(source);
  const manager = source instanceof ToolRegistry ? source.manager : source;
  const rounds = new InputRounds(timeoutMs);
  const relayed = relaying(options.relay, rounds, timeoutMs, options.onError);
  const capabilities: ServerCapabilities = manager
    ? {
      tools: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
      extensions: { [SKILLS_EXTENSION]: {} },
    }
    : { tools: { listChanged: true }, logging: {} };
  const server = new McpServer({
    serverInfo: options.serverInfo ?? { name: "mcp-inspect-proxy", version: VERSION },
    capabilities,
    instructions: options.instructions,
    onError: options.onError,
    handlers: {
      "tools/list": () => ({ tools: tools.list() }),
      "tools/call": (params, context) => {
        const name = String(params.name ?? "");
        const args = (params.arguments ?? {}) as Record<string, unknown>;
        return relayed(() => manager?.findTool(name)?.server, params, context, async (options) => ({
          ...await tools.call(name, args, options),
        }));
      },
      ...(manager ? managerHandlers(manager, relayed) : {}),
    },
    subscriptions: manager
      ? {
        subscribe: (uri: string) => forward(() => manager.subscribeResource(uri), options.onError),
        unsubscribe: (uri: string) => manager.unsubscribeResource(uri),
      }
      : undefined,
  });
  const unsubscribe = [
    tools.onChange(() => server.listChanged("tools")),
    ...(manager ? managerEvents(manager, server) : []),
  ];
  const proxy: ProxyServer = {
    server,
    close: () => {
      for (const off of unsubscribe) off();
      rounds.close();
      server.closeAll();
    },
    [Symbol.dispose]: () => proxy.close(),
  };
  return proxy;
}

/** Resources, prompts and completions of the manager's servers. */
function managerHandlers(
  manager: ServerManager,
  relayed: Relayed,
): Record<string, ServerRequestHandler> {
  const skills = skillHandlers(manager);
  return {
    "resources/list": () => ({ resources: manager.allResources().map((r) => r.resource) }),
    "resources/templates/list": () => ({
      resourceTemplates: manager.allResourceTemplates().map((t) => t.template),
    }),
    ...skills.handlers,
    "resources/read": async (params, context) => {
      const uri = String(params.uri ?? "");
      // A skill file is read from the server whose skill lists it, and only then.
      const skillFile = await skills.read(uri, { signal: context.signal });
      if (skillFile) return skillFile;
      const owner = () =>
        manager.allResources().find((entry) => entry.resource.uri === uri)?.server;
      return relayed(owner, params, context, async (options) => ({
        ...await manager.readResource(uri, options),
      }));
    },
    "prompts/list": () => ({
      prompts: manager.allPrompts().map(({ qualifiedName, prompt }) => ({
        ...prompt,
        name: qualifiedName,
      })),
    }),
    "prompts/get": (params, context) => {
      const name = String(params.name ?? "");
      const args = (params.arguments ?? {}) as Record<string, string>;
      const owner = () =>
        manager.allPrompts().find((entry) => entry.qualifiedName === name)?.server;
      return relayed(owner, params, context, async (options) => ({
        ...await manager.getPrompt(name, args, options),
      }));
    },
    "completion/complete": (params, context) =>
      relayed(() => undefined, params, context, async (options) => {
        const context = (params.context as { arguments?: Record<string, string> } | undefined)
          ?.arguments;
        try {
          return {
            ...await manager.complete(
              params.ref as CompletionReference,
              params.argument as { name: string; value: string },
              { ...options, context },
            ),
          };
        } catch (error) {
          // A server without completions has none to offer: an empty list, as for no match.
          if (error instanceof CapabilityError) return { completion: { values: [] } };
          throw error;
        }
      }),
  };
}

/** List changes of resources and prompts, and the servers' logs, passed on. */
function managerEvents(manager: ServerManager, server: McpServer): (() => void)[] {
  return [
    manager.on("resourcesChanged", () => server.listChanged("resources")),
    manager.on("promptsChanged", () => server.listChanged("prompts")),
    manager.on("resourceUpdated", ({ uri }) => server.resourceUpdated(uri)),
    manager.on("log", ({ server: name, message }) =>
      server.log({
        level: message.level,
        logger: message.logger ? `${name}/${message.logger}` : name,
        data: message.data,
      })),
  ];
}
