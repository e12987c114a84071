// Capabilities on both sides: what the client advertises (its handlers, the caller's extras, the
// tasks extension), and the gate that refuses a request the server never advertised support for.

import type { ClientCapabilities, ServerCapabilities } from "../types.ts";
import { handlerCapabilities } from "./_handlers.ts";
import { TASKS_EXTENSION } from "./_tasks.ts";
import type { ClientOptions } from "./types.ts";

/** The server capability each gated method needs, as a dotted path. */
export const REQUIRED_CAPABILITY: Record<string, string> = {
  "tools/list": "tools",
  "tools/call": "tools",
  "resources/list": "resources",
  "resources/templates/list": "resources",
  "resources/read": "resources",
  "resources/subscribe": "resources.subscribe",
  "resources/unsubscribe": "resources.subscribe",
  "prompts/list": "prompts",
  "prompts/get": "prompts",
  "completion/complete": "completions",
  "logging/setLevel": "logging",
};

/** The capabilities the client advertises: those its handlers imply, then the caller's own. */
export function clientCapabilities(options: ClientOptions): ClientCapabilities {
  const capabilities: ClientCapabilities = {
    ...handlerCapabilities(options),
    ...options.capabilities,
  };
  if (options.tasks) {
    const extensions = (capabilities.extensions ?? {}) as Record<string, unknown>;
    capabilities.extensions = { ...extensions, [TASKS_EXTENSION]: {} };
  }
  return capabilities;
}

/** Whether the server advertised `path` (e.g. `"resources.subscribe"`): present and not `false`. */
export function hasCapability(capabilities: ServerCapabilities, path: string): boolean {
  // Walks the path by index rather than split("."): the gate runs on every request, and the
  // array split allocates showed in profiles of a fresh client's first calls.
  let node: unknown = capabilities;
  let start = 0;
  while (true) {
    if (typeof node !== "object" || node === null) return false;
    const dot = path.indexOf(".", start);
    const part = dot === -1 ? path.slice(start) : path.slice(start, dot);
    node = (node as Record<string, unknown>)[part];
    if (dot === -1) break;
    start = dot + 1;
  }
  return node !== undefined && node !== null && node !== false;
}
