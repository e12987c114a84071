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
  #modern: AjvInstance | undefined;
  #draft07: AjvInstance | undefined;
  readonly #cache = new WeakMap<JsonSchema, (value: unknown) => SchemaIssues>();

  /**
   * Compiles a schema into a check that returns the list of violations.
   *
   * @throws {Error} when the schema itself is invalid, naming why.
   */
  compile(schema: JsonSchema): (value: unknown) => SchemaIssues {
    const cached = this.#cache.get(schema);
    if (cached) return cached;
    const ajv = this.#engineFor(schema);
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      throw new Error(`Invalid JSON Schema: ${(error as Error).message}`, { cause: error });
    }
    const check = (value: unknown): SchemaIssues =>
      validate(value) ? [] : (validate.errors ?? []).map(formatIssue);
    this.#cache.set(schema, check);
    return check;
  }

  #engineFor(schema: JsonSchema): AjvInstance {
    const declared = typeof schema.$schema === "string" ? schema.$schema : "";
    const options = {
      strict: false,
      allErrors: true,
      // Never register a schema's $id: two tools may reuse one id with different contents.
      addUsedSchema: false,
      validateSchema: true,
    } as const;
    if (/draft-0[4-7]/.test(declared)) {
      return this.#draft07 ??= addFormats(new AjvDraft07(options));
    }
    return this.#modern ??= addFormats(new Ajv2020(options));
  }
}

function formatIssue(error: ErrorObject): string {
  const where = error.instancePath === "" ? "(root)" : error.instancePath;
  const extra = error.keyword === "additionalProperties"
    ? ` (${(error.params as { additionalProperty: string }).additionalProperty})`
    : "";
  return `${where} ${error.message ?? "is invalid"}${extra}`;
}
