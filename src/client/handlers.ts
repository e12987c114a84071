/**
 * Handlers for the requests a server sends to the client: roots, sampling and elicitation.
 * A capability is advertised only when its handler is given.
 *
 * @module
 */

import { ErrorCode, type JsonObject } from "../jsonrpc.ts";
import { McpError } from "../errors.ts";
import type { Session } from "../session.ts";
import type { ClientCapabilities, Content, JsonSchema, Root } from "../types.ts";

/**
 * What a handler knows about the server's request.
 *
 * @example
 * ```ts ignore
 * const onSampling: SamplingHandler = async (params, { signal }) => callModel(params, signal);
 * ```
 */
export interface HandlerContext {
  /** Aborted when the server cancels the request or the connection closes. */
  signal: AbortSignal;
}

/**
 * The parameters of `sampling/createMessage`.
 *
 * @example
 * ```ts ignore
 * const onSampling = (params: SamplingRequest) => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "m" });
 * ```
 */
export interface SamplingRequest {
  /** The conversation to continue. */
  messages: { role: "user" | "assistant"; content: Content | Content[] }[];
  /** The most tokens to sample. */
  maxTokens: number;
  /** A system prompt the server asks for. */
  systemPrompt?: string;
  /** Model preferences (hints and priorities). */
  modelPreferences?: JsonObject;
  [key: string]: unknown;
}

/**
 * The answer to `sampling/createMessage`.
 *
 * @example
 * ```ts
 * import type { SamplingResult } from "@mcp-inspect/client";
 * const result: SamplingResult = { role: "assistant", content: { type: "text", text: "Hi" }, model: "test" };
 * ```
 */
export interface SamplingResult {
  /** Always `"assistant"`. */
  role: "assistant";
  /** The sampled content. */
  content: Content | Content[];
  /** The model that produced it. */
  model: string;
  /** Why sampling stopped. */
  stopReason?: string;
  [key: string]: unknown;
}

/**
 * The parameters of `elicitation/create`: a form (`requestedSchema`) or, since 2025-11-25, a URL
 * the user should open.
 *
 * @example
 * ```ts ignore
 * const onElicitation = (request: ElicitationRequest) =>
 *   request.mode === "url" ? { action: "decline" } : { action: "accept", content: {} };
 * ```
 */
export interface ElicitationRequest {
  /** `"form"` (the default) or `"url"`. */
  mode?: "form" | "url";
  /** What to tell the user. */
  message: string;
  /** The fields of a form: a flat object schema. */
  requestedSchema?: JsonSchema;
  /** The URL to open, in URL mode. */
  url?: string;
  /** The id of a URL-mode elicitation. */
  elicitationId?: string;
  [key: string]: unknown;
}

/**
 * The user's answer to an elicitation.
 *
 * @example
 * ```ts
 * import type { ElicitationResult } from "@mcp-inspect/client";
 * const answer: ElicitationResult = { action: "accept", content: { name: "Ada" } };
 * ```
 */
export interface ElicitationResult {
  /** What the user did. */
  action: "accept" | "decline" | "cancel";
  /** The submitted values, with `accept` in form mode. */
  content?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * Answers `sampling/createMessage`.
 *
 * @example
 * ```ts
 * import type { SamplingHandler } from "@mcp-inspect/client";
 * const onSampling: SamplingHandler = () => ({ role: "assistant", content: { type: "text", text: "4" }, model: "calc" });
 * ```
 */
export type SamplingHandler = (
  request: SamplingRequest,
  context: HandlerContext,
) => SamplingResult | Promise<SamplingResult>;

/**
 * Answers `elicitation/create`. Defaults from the form's schema fill the fields an accepting
 * answer leaves out.
 *
 * @example
 * ```ts
 * import type { ElicitationHandler } from "@mcp-inspect/client";
 * const onElicitation: ElicitationHandler = () => ({ action: "accept", content: {} });
 * ```
 */
export type ElicitationHandler = (
  request: ElicitationRequest,
  context: HandlerContext,
) => ElicitationResult | Promise<ElicitationResult>;

/** The client-side request handlers and what they make the client advertise. */
export interface HandlerOptions {
  roots?: readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>) | undefined;
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

/** Installs the handlers on a session; `roots` reads the current roots each time. */
export function installHandlers(
  session: Session,
  options: HandlerOptions,
  roots: () => readonly Root[] | Promise<readonly Root[]>,
): void {
  if (options.roots !== undefined) {
    session.setRequestHandler("roots/list", async () => ({ roots: [...(await roots())] }));
  }
  const onSampling = options.onSampling;
  if (onSampling) {
    session.setRequestHandler("sampling/createMessage", async (params, { signal }) => {
      return { ...(await onSampling(params as SamplingRequest, { signal })) };
    });
  }
  const onElicitation = options.onElicitation;
  if (onElicitation) {
    const modes = options.elicitationModes ?? ["form"];
    session.setRequestHandler("elicitation/create", async (params, { signal }) => {
      const request = params as ElicitationRequest;
      const mode = request.mode ?? "form";
      if (!modes.includes(mode)) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Elicitation mode "${mode}" is not supported by this client`,
        );
      }
      const result = await onElicitation(request, { signal });
      return mode === "form" && result.action === "accept"
        ? { ...result, content: withDefaults(request.requestedSchema, result.content ?? {}) }
        : { ...result };
    });
  }
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
