// What the client knows of the server's tools, for validating arguments and structured output.

import { type Diagnostic, ValidationError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import { SchemaValidator } from "../schema.ts";
import type { CallToolResult, Tool } from "../types.ts";

export class ToolSchemas {
  readonly #validator = new SchemaValidator();
  readonly #tools = new Map<string, Tool>();
  /** Listings in flight, by the limits they were started with. */
  readonly #listings = new Map<string, Promise<void>>();
  readonly #diagnose: (diagnostic: Diagnostic) => void;
  #known = false;

  constructor(diagnose: (diagnostic: Diagnostic) => void) {
    this.#diagnose = diagnose;
  }

  /** Whether a full tool list has been seen since the last change. */
  get known(): boolean {
    return this.#known;
  }

  /** A full list: it replaces what was known. */
  replace(tools: readonly Tool[]): void {
    this.#tools.clear();
    this.add(tools);
    this.#known = true;
  }

  /** One page: it adds to what is known. */
  add(tools: readonly Tool[]): void {
    for (const tool of tools) this.#tools.set(tool.name, tool);
  }

  /** The list changed: what we knew is stale, and so is a listing in flight. */
  forget(): void {
    this.#tools.clear();
    this.#listings.clear();
    this.#known = false;
  }

  /**
   * Joins the listing in flight under the same `key`, or starts one with `list`: a burst of calls
   * on a fresh connection lists the tools once instead of once per call.
   */
  listOnce(key: string, list: () => Promise<void>): Promise<void> {
    let listing = this.#listings.get(key);
    if (!listing) {
      const started: Promise<void> = list().finally(() => {
        if (this.#listings.get(key) === started) this.#listings.delete(key);
      });
      this.#listings.set(key, started);
      listing = started;
    }
    return listing;
  }

  /** The tool, if known. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** Listing failed: stop trying on every call, and validate nothing. */
  giveUp(): void {
    this.#known = true;
  }

  /**
   * Whether checking the tool's input or output schema first needs the engine loaded: Ajv takes
   * 60–80 ms to load, so it loads for the first schema to check, not with the client.
   */
  needsEngine(name: string, which: "inputSchema" | "outputSchema"): boolean {
    return !SchemaValidator.isReady && isSchema(this.#tools.get(name)?.[which]);
  }

  validateArguments(name: string, args: Record<string, unknown>): void {
    const tool = this.#tools.get(name);
    if (!tool) return;
    const issues = this.#check(tool.inputSchema, args, `input schema of tool "${name}"`);
    if (issues.length > 0) {
      throw new ValidationError(`Invalid arguments for tool "${name}"`, issues);
    }
  }

  /** Checks `structuredContent` against the tool's `outputSchema` (a tool error is exempt). */
  validateOutput(name: string, result: CallToolResult): void {
    const schema = this.#tools.get(name)?.outputSchema;
    if (!schema || result.isError) return;
    if (result.structuredContent === undefined) {
      throw new ValidationError(
        `Tool "${name}" declares an output schema but returned no structuredContent`,
        [],
      );
    }
    const issues = this.#check(schema, result.structuredContent, `output schema of tool "${name}"`);
    if (issues.length > 0) {
      throw new ValidationError(
        `Structured content of tool "${name}" does not match its output schema`,
        issues,
      );
    }
  }

  #check(schema: unknown, value: unknown, what: string): string[] {
    if (typeof schema !== "object" || schema === null) return [];
    try {
      return this.#validator.compile(schema as JsonObject)(value);
    } catch (error) {
      this.#diagnose({
        kind: "unexpected-message",
        message: `Skipped validation: the ${what} does not compile: ${(error as Error).message}`,
      });
      return [];
    }
  }
}

function isSchema(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null;
}
