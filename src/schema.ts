/**
 * JSON Schema validation of tool arguments and structured results, through Ajv (draft 2020-12,
 * and draft-07 where a schema declares it).
 *
 * @module
 */

import type { ErrorObject, ValidateFunction } from "ajv";
import type { JsonSchema } from "./types.ts";

/** The two drafts a schema is checked with. */
export type Draft = "modern" | "draft07";

/** What `schema_engine.ts` provides once loaded: Ajv engines for both drafts. */
export interface SchemaEngines {
  /** A fresh engine that compiles schemas (without checking them against the meta-schema). */
  compiler(draft: Draft): { compile(schema: JsonSchema): ValidateFunction };
  /** The process-wide engine that checks schemas against their meta-schema. */
  checker(draft: Draft): { validateSchema(schema: JsonSchema, throwOnError: true): unknown };
}

// Ajv is ~60–80 ms to load: it is imported when a validator is first needed, not with the root
// module. A module that needs validation synchronously imports `schema_engine.ts` itself, which
// installs the engines as it loads.
let engines: SchemaEngines | undefined;
let loading: Promise<void> | undefined;

/** Called by `schema_engine.ts` as it loads. */
export function installSchemaEngines(loaded: SchemaEngines): void {
  engines = loaded;
}

/**
 * The outcome of checking a value: an empty list means valid.
 *
 * @example Telling a valid value from an invalid one
 * ```ts
 * import { type SchemaIssues, SchemaValidator } from "@mcp-inspect/client";
 * await SchemaValidator.ready();
 * const issues: SchemaIssues = new SchemaValidator().compile({ type: "integer" })(1.5);
 * console.log(issues.length === 0 ? "valid" : issues.join("; ")); // "(root) must be integer"
 * ```
 */
export type SchemaIssues = string[];

/**
 * Compiles JSON Schemas once and checks values against them.
 *
 * Schemas come from servers, so the validator is lenient about what it does not know (unknown
 * keywords and formats are ignored, not errors) and strict about what it does. A schema that
 * declares draft-07 (or older) is checked with draft-07 rules; every other schema with draft
 * 2020-12, the default of MCP since 2025-11-25.
 *
 * @example Checking structured content
 * ```ts
 * import { SchemaValidator } from "@mcp-inspect/client";
 * await SchemaValidator.ready(); // loads Ajv, once per process
 * const validator = new SchemaValidator();
 * const check = validator.compile({ type: "object", properties: { sum: { type: "number" } }, required: ["sum"] });
 * console.log(check({ sum: 3 })); // []
 * console.log(check({ sum: "3" })); // ["/sum must be number"]
 * ```
 */
export class SchemaValidator {
  readonly #engines: Partial<Record<Draft, { compile(schema: JsonSchema): ValidateFunction }>> = {};
  readonly #cache = new WeakMap<JsonSchema, (value: unknown) => SchemaIssues>();

  /**
   * Loads the validation engine (Ajv) once per process; {@link SchemaValidator.compile} needs it.
   *
   * @example Loading the engine before compiling
   * ```ts
   * import { SchemaValidator } from "@mcp-inspect/client";
   * await SchemaValidator.ready();
   * console.log(new SchemaValidator().compile({ type: "string" })(1)); // ["(root) must be string"]
   * ```
   */
  static ready(): Promise<void> {
    if (engines) return Promise.resolve();
    loading ??= import("./schema_engine.ts").then(() => {});
    return loading;
  }

  /**
   * Whether {@link SchemaValidator.ready} has completed, so that `compile()` works.
   *
   * @example Loading the engine only when needed
   * ```ts
   * import { SchemaValidator } from "@mcp-inspect/client";
   * if (!SchemaValidator.isReady) await SchemaValidator.ready();
   * ```
   */
  static get isReady(): boolean {
    return engines !== undefined;
  }

  /**
   * Compiles a schema into a check that returns the list of violations. Needs the engine:
   * `await SchemaValidator.ready()` first.
   *
   * @throws {Error} when the schema itself is invalid, naming why, or when the engine is not
   *   loaded yet.
   *
   * @example Checking tool arguments against an input schema
   * ```ts
   * import { SchemaValidator } from "@mcp-inspect/client";
   * await SchemaValidator.ready();
   * const check = new SchemaValidator().compile({ type: "object", required: ["path"] });
   * console.log(check({ path: "/tmp" })); // []
   * console.log(check({})); // ["(root) must have required property 'path'"]
   * ```
   *
   * @example A schema that is itself invalid
   * ```ts
   * import { SchemaValidator } from "@mcp-inspect/client";
   * await SchemaValidator.ready();
   * try {
   *   new SchemaValidator().compile({ type: "no-such-type" });
   * } catch (error) {
   *   console.log((error as Error).message.startsWith("Invalid JSON Schema")); // true
   * }
   * ```
   */
  compile(schema: JsonSchema): (value: unknown) => SchemaIssues {
    const cached = this.#cache.get(schema);
    if (cached) return cached;
    if (!engines) {
      throw new Error("The JSON Schema engine is not loaded: await SchemaValidator.ready() first");
    }
    const declared = typeof schema.$schema === "string" ? schema.$schema : "";
    const draft: Draft = /draft-0[4-7]/.test(declared) ? "draft07" : "modern";
    let validate: ValidateFunction;
    try {
      // Throws "schema is invalid: …" as Ajv's own compile does with validateSchema on.
      engines.checker(draft).validateSchema(schema, true);
      validate = (this.#engines[draft] ??= engines.compiler(draft)).compile(schema);
    } catch (error) {
      throw new Error(`Invalid JSON Schema: ${(error as Error).message}`, { cause: error });
    }
    const check = (value: unknown): SchemaIssues =>
      validate(value) ? [] : (validate.errors ?? []).map(formatIssue);
    this.#cache.set(schema, check);
    return check;
  }
}

function formatIssue(error: ErrorObject): string {
  const where = error.instancePath === "" ? "(root)" : error.instancePath;
  const extra = error.keyword === "additionalProperties"
    ? ` (${(error.params as { additionalProperty: string }).additionalProperty})`
    : "";
  return `${where} ${error.message ?? "is invalid"}${extra}`;
}
