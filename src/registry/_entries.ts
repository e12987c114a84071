// Registry entries: hints with the specification's defaults, local tool checks, and the diff
// that keeps the MCP entries in step with the manager.

import type { ManagedTool } from "../manager/types.ts";
import type { SchemaValidator } from "../schema.ts";
import type { Tool } from "../types.ts";
import { ToolRegistrationError } from "./errors.ts";
import type { LocalTool, RegisteredTool, RegistryChange, ToolHints } from "./types.ts";

/** What model APIs accept as a tool name; the registry's names are sent to them as they are. */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Spec (tools, annotations): defaults are readOnly false, destructive true, idempotent false,
 * openWorld true; destructive and idempotent are meaningful only when not read-only. */
export function hintsOf(tool: Tool): ToolHints {
  const annotations = tool.annotations ?? {};
  const readOnly = annotations.readOnlyHint === true;
  const hints: ToolHints = {
    readOnly,
    destructive: !readOnly && annotations.destructiveHint !== false,
    idempotent: annotations.idempotentHint === true,
    openWorld: annotations.openWorldHint !== false,
  };
  const title = tool.title ?? annotations.title;
  if (typeof title === "string") hints.title = title;
  return hints;
}

/** Checks a local tool and builds its entry. @throws {ToolRegistrationError} */
export function localEntry(tool: LocalTool, validator: SchemaValidator): RegisteredTool {
  const { name } = tool;
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new ToolRegistrationError(
      String(name),
      "invalid-name",
      "a tool name is 1 to 64 characters of A-Z, a-z, 0-9, _ and -",
    );
  }
  if (name.startsWith("mcp__")) {
    throw new ToolRegistrationError(
      name,
      "reserved-name",
      `names starting with "mcp__" belong to the tools of MCP servers`,
    );
  }
  if (tool.inputSchema?.type !== "object") {
    throw new ToolRegistrationError(name, "invalid-schema", `inputSchema must have type "object"`);
  }
  for (
    const [which, schema] of [["inputSchema", tool.inputSchema], [
      "outputSchema",
      tool.outputSchema,
    ]] as const
  ) {
    if (schema === undefined) continue;
    try {
      validator.compile(schema);
    } catch (error) {
      throw new ToolRegistrationError(
        name,
        "invalid-schema",
        `${which}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }
  const definition: Tool = { name, inputSchema: tool.inputSchema };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.description !== undefined) definition.description = tool.description;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  return { name, source: "local", tool: definition, hints: hintsOf(definition) };
}

function mcpEntry({ server, qualifiedName, tool }: ManagedTool): RegisteredTool {
  const definition: Tool = { ...tool, name: qualifiedName };
  return {
    name: qualifiedName,
    source: "mcp",
    tool: definition,
    hints: hintsOf(definition),
    server,
    serverTool: tool.name,
  };
}

/**
 * The MCP entries the manager lists now, and how they differ from `current`. Unchanged entries
 * keep their identity.
 */
export function diffMcp(
  current: ReadonlyMap<string, RegisteredTool>,
  tools: readonly ManagedTool[],
): { next: Map<string, RegisteredTool>; change: RegistryChange } {
  const next = new Map<string, RegisteredTool>();
  const change: RegistryChange = { added: [], removed: [], updated: [] };
  for (const managed of tools) {
    const fresh = mcpEntry(managed);
    const old = current.get(fresh.name);
    const same = old !== undefined && old.server === fresh.server &&
      JSON.stringify(old.tool) === JSON.stringify(fresh.tool);
    if (!old) change.added.push(fresh.name);
    else if (!same) change.updated.push(fresh.name);
    next.set(fresh.name, same ? old : fresh);
  }
  for (const name of current.keys()) if (!next.has(name)) change.removed.push(name);
  return { next, change };
}

/** Whether a change changed anything. */
export function changed(change: RegistryChange): boolean {
  return change.added.length + change.removed.length + change.updated.length > 0;
}
