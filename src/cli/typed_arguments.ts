// `key=value` arguments typed by a tool's input schema: the text of a value becomes the JSON value
// the schema asks for, or a usage error naming the argument and its type, never a value of
// another type (`1e400` sent as `null`, `yes` as a string for a boolean).

import type { Prompt, Tool } from "../feature_types.ts";
import { closest, UsageError } from "./args.ts";

/** A JSON Schema as a tool declares it. */
type Schema = Record<string, unknown>;

/**
 * Types `key=value` pairs by a JSON Schema: a string property keeps `007` as a string; numbers,
 * booleans, null, objects and arrays are parsed where the schema says so (by `type`, `enum`,
 * `const`, unions in `anyOf`/`oneOf`, `allOf`, and `$ref` to the schema's own definitions), and a
 * value that fits none of the property's types is a usage error naming the argument and its
 * type. A key given twice is a usage error too.
 */
export function typedArguments(
  pairs: readonly string[],
  schema: Schema | undefined,
): Record<string, unknown> {
  const properties = (isSchema(schema?.properties) ? schema.properties : {}) as Record<
    string,
    unknown
  >;
  return keyValues(pairs, (key, text) => {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    return typedValue(key, text, schemaTypes(property, schema));
  });
}

/** Prompt arguments are strings (spec: GetPromptRequest): `key=value` pairs as given. */
export function promptArguments(pairs: readonly string[]): Record<string, string> {
  return keyValues(pairs, (_key, text) => text);
}

/**
 * The arguments of `--args`: a JSON object, given inline or as `@file.json`. A file that cannot
 * be read, text that is not JSON, and JSON that is not an object are usage errors.
 */
export async function readArgsOption(value: string | undefined): Promise<Record<string, unknown>> {
  if (value === undefined) return {};
  let text = value;
  if (value.startsWith("@")) {
    try {
      text = await Deno.readTextFile(value.slice(1));
    } catch (error) {
      throw new UsageError(
        `Cannot read --args file "${value.slice(1)}": ${(error as Error).message}`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`Invalid --args JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError("Invalid --args: expected a JSON object");
  }
  return parsed as Record<string, unknown>;
}

/**
 * `key=value` pairs as an object, each value made from its text by `value`. A pair without a key,
 * or a key given twice, is a usage error.
 */
function keyValues<T>(
  pairs: readonly string[],
  value: (key: string, text: string) => T,
): Record<string, T> {
  const entries = new Map<string, T>();
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`Invalid argument "${pair}": expected key=value`);
    const key = pair.slice(0, eq);
    if (entries.has(key)) throw new UsageError(`Argument "${key}" is given twice`);
    entries.set(key, value(key, pair.slice(eq + 1)));
  }
  // fromEntries defines own properties: `__proto__=…` stays an argument, not the prototype.
  return Object.fromEntries(entries);
}

/**
 * Checks arguments a tool or prompt does not declare. Where the tool's schema forbids them
 * (`additionalProperties: false`) one is a usage error naming the closest declared argument, or
 * all of them; elsewhere a likely typo is a warning (returned) and the argument is sent as given,
 * since the server may take it.
 */
export async function undeclaredArguments(
  item: Tool | Prompt,
  args: Record<string, unknown>,
): Promise<string[]> {
  const kind = "inputSchema" in item ? "tool" : "prompt";
  const schema = "inputSchema" in item ? item.inputSchema as Schema : {};
  if (schema.patternProperties !== undefined) return [];
  const known = "inputSchema" in item
    ? Object.keys(isSchema(schema.properties) ? schema.properties : {})
    : (item.arguments ?? []).map((a) => a.name);
  const warnings: string[] = [];
  for (const key of Object.keys(args)) {
    if (known.includes(key)) continue;
    const suggestion = await closest(key, known);
    if (schema.additionalProperties === false) {
      const hint = suggestion !== undefined
        ? `; did you mean "${suggestion}"?`
        : known.length > 0
        ? ` (its arguments: ${known.join(", ")})`
        : " (it takes no arguments)";
      throw new UsageError(`Tool "${item.name}" has no argument "${key}"${hint}`);
    }
    if (suggestion !== undefined) {
      warnings.push(
        `${kind} "${item.name}" declares no argument "${key}"; did you mean "${suggestion}"? (sent as given)`,
      );
    }
  }
  return warnings;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The type of a JSON value, as JSON Schema names it. */
function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/**
 * The JSON types a property schema allows: its `type`, else those of its `enum` or `const`, its
 * `anyOf`/`oneOf` branches (any), its `allOf` branches (all), or the definition its `$ref` names
 * (`#/…` in the tool's own schema, the only kind a key=value argument can follow offline).
 */
function schemaTypes(property: unknown, root: Schema | undefined, seen = new Set()): string[] {
  if (!isSchema(property) || seen.has(property)) return [];
  seen.add(property);
  const own = property.type;
  if (typeof own === "string") return [own];
  if (Array.isArray(own)) return own.filter((t): t is string => typeof t === "string");
  const values = Array.isArray(property.enum)
    ? property.enum
    : "const" in property
    ? [property.const]
    : undefined;
  if (values) return [...new Set(values.map(jsonType))];
  if (typeof property.$ref === "string") {
    return schemaTypes(resolve(property.$ref, root), root, seen);
  }
  const branches = [property.anyOf, property.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (branches) {
    return [...new Set(branches.flatMap((branch) => schemaTypes(branch, root, seen)))];
  }
  if (Array.isArray(property.allOf)) {
    const lists = property.allOf.map((branch) => schemaTypes(branch, root, seen))
      .filter((list) => list.length > 0);
    return [...new Set(lists.flat())].filter((t) => lists.every((list) => allows(list, t)));
  }
  return [];
}

/** Whether a list of JSON types admits `type` (every integer is a number). */
function allows(types: readonly string[], type: string): boolean {
  return types.includes(type) || (type === "integer" && types.includes("number"));
}

/** The subschema a local `$ref` (a JSON pointer into the tool's own schema) names. */
function resolve(ref: string, root: Schema | undefined): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const part = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isSchema(node) && !Array.isArray(node)) return undefined;
    node = Object.hasOwn(node, part) ? (node as Record<string, unknown>)[part] : undefined;
  }
  return node;
}

// JSON's number syntax: decimal only, so `0x10`, `1_000`, `Infinity` and ` 1` are not numbers.
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

function typedValue(key: string, raw: string, types: readonly string[]): unknown {
  if (types.length === 0) {
    // No schema for it: JSON when it looks like an object or array, else the text as given.
    if (!/^[[{]/.test(raw)) return raw;
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  if (types.includes("string")) return raw;
  const wanted = types.map((t) => (/^[aeiou]/.test(t) ? `an ${t}` : t === "null" ? t : `a ${t}`))
    .join(" or ");
  const fail = (why: string) =>
    new UsageError(`Argument "${key}" must be ${wanted}, got "${raw}": ${why}`);
  const numeric = types.includes("number") || types.includes("integer");
  if (numeric && JSON_NUMBER.test(raw)) {
    const value = Number(raw);
    if (!Number.isFinite(value)) throw fail("it is too large for a JSON number");
    // 1e-400 parses as 0: refused like 1e400, rather than sent as another number.
    if (value === 0 && /[1-9]/.test(raw.replace(/[eE].*$/, ""))) {
      throw fail("it is too small for a JSON number (it would be sent as 0)");
    }
    if (!types.includes("number")) {
      if (!Number.isInteger(value)) throw fail("it is not a whole number");
      if (!Number.isSafeInteger(value)) {
        throw fail("it is beyond ±2^53 and would not be sent exactly");
      }
    }
    return value;
  }
  if (types.includes("boolean") && (raw === "true" || raw === "false")) return raw === "true";
  if (types.includes("null") && raw === "null") return null;
  const structured = types.filter((t) => t === "object" || t === "array");
  if (structured.length > 0 && /^[[{]/.test(raw)) {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw fail(`it is not valid JSON (${(error as Error).message})`);
    }
    const kind = Array.isArray(value) ? "array" : "object";
    if (structured.includes(kind)) return value;
    throw fail(`it is JSON of type ${kind}`);
  }
  const hints: string[] = [];
  if (numeric) {
    hints.push(
      types.includes("number") ? "a decimal number such as 42 or 1.5" : "a whole number such as 42",
    );
  }
  if (types.includes("boolean")) hints.push("true or false");
  if (types.includes("null")) hints.push("null");
  if (structured.length > 0) hints.push(`JSON ${structured.join(" or ")}`);
  throw fail(
    hints.length > 0
      ? `expected ${hints.join(", or ")}`
      : "no value of that type can be written as key=value; use --args",
  );
}
