// The client-side request handlers: the capabilities they justify (a capability is advertised
// only when its handler is given), installed on a legacy session, or answering the input requests
// of a modern one.

import { McpError, ProtocolError } from "../errors.ts";
import { ErrorCode, type JsonObject } from "../jsonrpc.ts";
import type { Session } from "../session.ts";
import type { ClientCapabilities, JsonSchema, Root } from "../types.ts";
import type { InputRequest } from "./_modern.ts";
import type {
  ElicitationHandler,
  ElicitationRequest,
  HandlerContext,
  SamplingHandler,
  SamplingRequest,
} from "./handlers.ts";

/** The roots a client offers: a list, or a function returning them. */
export type RootsOption = readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>);

/** The client-side request handlers and what they make the client advertise. */
export interface HandlerOptions {
  roots?: RootsOption | undefined;
  onSampling?: SamplingHandler | undefined;
  onElicitation?: ElicitationHandler | undefined;
  elicitationModes?: readonly ("form" | "url")[] | undefined;
}

/** The capabilities that the given handlers justify. */
export function handlerCapabilities(options: HandlerOptions): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (options.roots !== undefined) capabilities.roots = { listChanged: true };
  if (options.onSampling) capabilities.sampling = {};
  if (options.onElicitation) {
    const modes = options.elicitationModes ?? ["form"];
    capabilities.elicitation = {};
    if (modes.includes("form")) capabilities.elicitation.form = {};
    if (modes.includes("url")) capabilities.elicitation.url = {};
  }
  return capabilities;
}

/** A handler of one server-to-client request. */
export type ClientHandler = (params: JsonObject, context: HandlerContext) => Promise<JsonObject>;

/**
 * The handlers the options justify, by method. The legacy era installs them on the session (the
 * server sends requests); the modern era calls them for the `inputRequests` of a multi round-trip
 * request. Either way the user's code sees the same calls.
 */
export function clientHandlers(
  options: HandlerOptions,
  roots: () => RootsOption | undefined,
): Map<string, ClientHandler> {
  const handlers = new Map<string, ClientHandler>();
  if (options.roots !== undefined) {
    handlers.set("roots/list", async () => {
      // The current roots: setRoots() may have replaced the options' ones.
      const current = roots();
      return { roots: [...(await (typeof current === "function" ? current() : current ?? []))] };
    });
  }
  const onSampling = options.onSampling;
  if (onSampling) {
    handlers.set("sampling/createMessage", async (params, context) => {
      return { ...(await onSampling(params as SamplingRequest, context)) };
    });
  }
  const onElicitation = options.onElicitation;
  if (onElicitation) {
    const modes = options.elicitationModes ?? ["form"];
    handlers.set("elicitation/create", async (params, context) => {
      const request = params as ElicitationRequest;
      const mode = request.mode ?? "form";
      if (!modes.includes(mode)) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Elicitation mode "${mode}" is not supported by this client`,
        );
      }
      const result = await onElicitation(request, context);
      return mode === "form" && result.action === "accept"
        ? { ...result, content: withDefaults(request.requestedSchema, result.content ?? {}) }
        : { ...result };
    });
  }
  return handlers;
}

/** Installs the handlers on a session, for servers of the legacy era. */
export function installHandlers(session: Session, handlers: Map<string, ClientHandler>): void {
  for (const [method, handler] of handlers) {
    session.setRequestHandler(method, (params, { signal }) => handler(params, { signal }));
  }
}

/**
 * Answers the `inputRequests` of a modern multi round-trip result (or of a task) through the
 * handlers, all at once. A request without a handler fails the exchange: the client never
 * declared it could answer one.
 */
export async function answerInputRequests(
  handlers: Map<string, ClientHandler>,
  method: string,
  requests: Record<string, InputRequest>,
  signal: AbortSignal | undefined,
): Promise<JsonObject> {
  const context = { signal: signal ?? new AbortController().signal };
  const answers = await Promise.all(
    Object.entries(requests).map(async ([key, request]) => {
      const handler = handlers.get(request.method);
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

/**
 * Fills in the `default` of each top-level property of a form schema that the answer left out
 * (SEP-1034: the client applies defaults, so a user who accepts gets what the form showed).
 */
export function withDefaults(
  schema: JsonSchema | undefined,
  content: Record<string, unknown>,
): Record<string, unknown> {
  const properties = schema?.properties;
  if (typeof properties !== "object" || properties === null) return content;
  const filled: Record<string, unknown> = { ...content };
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (filled[name] !== undefined || typeof property !== "object" || property === null) continue;
    if ("default" in property) filled[name] = (property as { default: unknown }).default;
  }
  return filled;
}
