// Setting a client up: the transport started (and closed again when it cannot start), the client's
// parts built and joined to its session before anything is sent, the client's options read as
// those of the negotiation, and the context the private modules share once the era is known.

import type { Diagnostic } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import { Session } from "../session.ts";
import type { Transport } from "../transport/transport.ts";
import type { ClientCapabilities, Implementation } from "../types.ts";
import { VERSION } from "../version.ts";
import { TtlCache } from "./_cache.ts";
import type { CallContext } from "./_call.ts";
import { clientCapabilities } from "./_capabilities.ts";
import { clientEvents, type NotificationTargets, routeNotifications } from "./_events.ts";
import {
  answerInputRequests,
  type ClientHandler,
  clientHandlers,
  installHandlers,
  type RootsOption,
} from "./_handlers.ts";
import { Listener } from "./_listen.ts";
import type { ModernContext } from "./_modern.ts";
import { negotiate, type Negotiated } from "./_negotiate.ts";
import type { ListContext } from "./_pages.ts";
import { ToolSchemas } from "./_tools.ts";
import type { CacheOptions, ClientOptions } from "./types.ts";

/** What the private modules need of the client, for one negotiated era. */
export type EraContext = CallContext & ModernContext & ListContext;

/**
 * What a client is made of besides its requests: the session over its transport, and what the
 * server's messages reach through it (events, the cache and tool schemas that notifications make
 * stale, the modern listen stream, the handlers of server requests).
 */
export interface ClientParts extends NotificationTargets {
  readonly transport: Transport;
  readonly session: Session;
  readonly handlers: Map<string, ClientHandler>;
  /** What the client advertises: its handlers' capabilities, then the caller's own. */
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation;
  /** Hands a diagnostic to the options' `onDiagnostic`. */
  readonly diagnose: (diagnostic: Diagnostic) => void;
  readonly hooks: ClientHooks;
}

/** What the parts and the era's context need of the client itself. */
export interface ClientHooks {
  /** The client's `request()`: capability gating, and the era's way of sending. */
  request: (method: string, params: JsonObject, options: CacheOptions) => Promise<JsonObject>;
  /** Sends one request of the modern era with the client's `_meta` (one round of it). */
  send: ModernContext["send"];
  /** The client's `listTools()`, which keeps the tool schemas. */
  listTools: CallContext["listTools"];
  /** Whether the server advertised a capability, as negotiation found. */
  hasCapability: CallContext["hasCapability"];
  /** Keeps the server's identity from a modern result. */
  onServerInfo: ModernContext["onServerInfo"];
  /** The roots as they are now: `setRoots()` may have replaced the options' ones. */
  roots: () => RootsOption | undefined;
}

/** Starts a transport; one that fails to start is closed again, so that nothing is left running. */
export async function startTransport(transport: Transport): Promise<void> {
  try {
    await transport.start();
  } catch (error) {
    await transport.close();
    throw error;
  }
}

/**
 * Builds a client's parts over a started transport. The handlers and the notification routes are
 * in place before this returns, so that nothing the server sends early is missed.
 */
export function clientParts(
  transport: Transport,
  options: ClientOptions,
  hooks: ClientHooks,
): ClientParts {
  const diagnose = (diagnostic: Diagnostic): void => {
    try {
      options.onDiagnostic?.(diagnostic);
    } catch {
      // a faulty diagnostics sink must not break the client
    }
  };
  const events = clientEvents(options.listeners, diagnose);
  const tools = new ToolSchemas(diagnose);
  const { requestTimeoutMs, maxTotalTimeoutMs } = options;
  const session = new Session(transport, {
    requestTimeoutMs,
    maxTotalTimeoutMs,
    onDiagnostic: diagnose,
    onClose: (reason) => events.emit("close", reason),
  });
  const parts: ClientParts = {
    transport,
    session,
    events,
    tools,
    cache: new TtlCache(),
    listener: new Listener(hooks.send, diagnose),
    handlers: clientHandlers(options, hooks.roots),
    capabilities: clientCapabilities(options),
    clientInfo: options.clientInfo ?? { name: "mcp-inspect", version: VERSION },
    diagnose,
    hooks,
  };
  installHandlers(session, parts.handlers);
  routeNotifications(session, parts);
  return parts;
}

/**
 * Agrees on the era and revision as the client's options ask (`protocol`, a `discovery` verdict,
 * the probe's timeout), telling the transport the revision chosen before anything is sent in it.
 * `label` names the server in errors.
 */
export function negotiateEra(
  parts: ClientParts,
  options: ClientOptions,
  label: () => string,
): Promise<Negotiated> {
  const { transport } = parts;
  return negotiate(parts.session, {
    protocol: options.protocol ?? "auto",
    verdict: options.discovery,
    capabilities: parts.capabilities,
    clientInfo: parts.clientInfo,
    probeTimeoutMs: options.probeTimeoutMs ?? 5_000,
    signal: options.signal,
    label,
    onVersion: (version) => transport.setProtocolVersion?.(version),
  });
}

/**
 * The context the private modules share for one negotiated era: the parts they use, the options
 * with their defaults, and the client's hooks.
 */
export function eraContext(
  era: Negotiated["era"],
  parts: ClientParts,
  options: ClientOptions,
): EraContext {
  const { hooks, handlers } = parts;
  return {
    era,
    tools: parts.tools,
    cache: parts.cache,
    maxPages: options.maxPages,
    maxRounds: options.maxInputRounds ?? 10,
    validateArguments: options.validateArguments ?? false,
    validateOutput: options.validateOutput ?? true,
    request: hooks.request,
    send: hooks.send,
    answer: (method, requests, signal) => answerInputRequests(handlers, method, requests, signal),
    hasCapability: hooks.hasCapability,
    listTools: hooks.listTools,
    diagnose: parts.diagnose,
    onServerInfo: hooks.onServerInfo,
  };
}
