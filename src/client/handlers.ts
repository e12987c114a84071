/**
 * Handlers for the requests a server sends to the client: roots, sampling and elicitation.
 * A capability is advertised only when its handler is given.
 *
 * @module
 */

import type { JsonObject } from "../jsonrpc.ts";
import type { Content, JsonSchema } from "../types.ts";

/**
 * What a handler knows about the server's request.
 *
 * @example Passing the cancellation signal on to the model call
 * ```ts
 * import type { SamplingHandler, SamplingRequest } from "@mcp-inspect/client";
 *
 * // The host's model call: the signal stops the HTTP request when the server cancels
 * async function callModel(params: SamplingRequest, signal: AbortSignal) {
 *   const init = { method: "POST", body: JSON.stringify(params), signal };
 *   const response = await fetch("https://llm.example/v1/sample", init);
 *   return await response.json();
 * }
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
 * @example A sampling handler that reads the request
 * ```ts
 * import type { SamplingRequest } from "@mcp-inspect/client";
 * const onSampling = (params: SamplingRequest) => ({
 *   role: "assistant",
 *   content: { type: "text", text: `Read ${params.messages.length} messages` },
 *   model: "m",
 * });
 * console.log(onSampling({ messages: [], maxTokens: 100 }).content.text); // "Read 0 messages"
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
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * The answer to `sampling/createMessage`.
 *
 * @example A text answer from a model
 * ```ts
 * import type { SamplingResult } from "@mcp-inspect/client";
 * const result: SamplingResult = {
 *   role: "assistant",
 *   content: { type: "text", text: "Hi" },
 *   model: "test",
 * };
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
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * The parameters of `elicitation/create`: a form (`requestedSchema`) or, since 2025-11-25, a URL
 * the user should open.
 *
 * @example Declining URLs, accepting forms with their defaults
 * ```ts
 * import type { ElicitationRequest } from "@mcp-inspect/client";
 * const onElicitation = (request: ElicitationRequest) =>
 *   request.mode === "url" ? { action: "decline" } : { action: "accept", content: {} };
 * console.log(onElicitation({ mode: "url", message: "Sign in", url: "https://example.com" }));
 * // { action: "decline" }
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
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * The user's answer to an elicitation.
 *
 * @example Accepting a form with one field
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
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * Answers `sampling/createMessage`.
 *
 * @example A handler with a fixed answer
 * ```ts
 * import type { SamplingHandler } from "@mcp-inspect/client";
 * const onSampling: SamplingHandler = () => ({
 *   role: "assistant",
 *   content: { type: "text", text: "4" },
 *   model: "calc",
 * });
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
 * @example A handler that accepts every form with its defaults
 * ```ts
 * import type { ElicitationHandler } from "@mcp-inspect/client";
 * const onElicitation: ElicitationHandler = () => ({ action: "accept", content: {} });
 * ```
 */
export type ElicitationHandler = (
  request: ElicitationRequest,
  context: HandlerContext,
) => ElicitationResult | Promise<ElicitationResult>;
