/**
 * JSON Schema validation of tool arguments and structured results, through Ajv (draft 2020-12,
 * and draft-07 where a schema declares it).
 *
 * @module
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv as AjvDraft07, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "./types.ts";

type AjvInstance = InstanceType<typeof Ajv2020> | InstanceType<typeof AjvDraft07>;

// ajv-formats is CommonJS; its default export arrives wrapped under Deno's interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: AjvInstance) => AjvInstance;

/** The two drafts a schema is checked with. */
type Draft = "modern" | "draft07";

function engine(draft: Draft, validateSchema: boolean): AjvInstance {
  const options = {
    strict: false,
    allErrors: true,
    // Never register a schema's $id: two tools may reuse one id with different contents.
    addUsedSchema: false,
    validateSchema,
  } as const;
  return addFormats(draft === "draft07" ? new AjvDraft07(options) : new Ajv2020(options));
}

// Checking a schema against its meta-schema first compiles the meta-schema, ~20–70 ms per engine,
// which every connection paid on its first validated call. One checking engine per draft serves
// the whole process (it keeps nothing of what it checks); the engines that compile the tools'
// schemas stay per validator, since they keep every schema they compile, and skip that check.
const checkers: Partial<Record<Draft, AjvInstance>> = {};

/** The outcome of checking a value: an empty list means valid. */
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
 * const validator = new SchemaValidator();
 * const check = validator.compile({ type: "object", properties: { sum: { type: "number" } }, required: ["sum"] });
 * console.log(check({ sum: 3 })); // []
 * console.log(check({ sum: "3" })); // ["/sum must be number"]
 * ```
 */
export class SchemaValidator {
  readonly #engines: Partial<Record<Draft, AjvInstance>> = {};
  readonly #cache = new WeakMap<JsonSchema, (value: unknown) => SchemaIssues>();

  /**
   * Compiles a schema into a check that returns the list of violations.
   *
   * @throws {Error} when the schema itself is invalid, naming why.
   */
  compile(schema: JsonSchema): (value: unknown) => SchemaIssues {
    const cached = this.#cache.get(schema);
    if (cached) return cached;
    const declared = typeof schema.$schema === "string" ? schema.$schema : "";
    const draft: Draft = /draft-0[4-7]/.test(declared) ? "draft07" : "modern";
    let validate: ValidateFunction;
    try {
      // Throws "schema is invalid: …" as Ajv's own compile does with validateSchema on.
      (checkers[draft] ??= engine(draft, true)).validateSchema(schema, true);
      validate = (this.#engines[draft] ??= engine(draft, false)).compile(schema);
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
