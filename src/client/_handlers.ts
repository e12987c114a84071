// Installs the client-side request handlers on a session and derives the capabilities they
// justify: a capability is advertised only when its handler is given.

import { McpError } from "../errors.ts";
import { ErrorCode } from "../jsonrpc.ts";
import type { Session } from "../session.ts";
import type { ClientCapabilities, JsonSchema, Root } from "../types.ts";
import type {
  ElicitationHandler,
  ElicitationRequest,
  SamplingHandler,
  SamplingRequest,
} from "./handlers.ts";

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
