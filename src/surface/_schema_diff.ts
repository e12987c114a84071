// Changes between two JSON Schemas of a tool, classified for the callers of the old one. An input
// schema constrains what callers send, so narrowing it breaks them (a new required property, a
// removed type or enum value, a new constraint); an output schema describes what they receive, so
// widening it does (a property that may now be missing, a new type or enum value).

import canonicalize from "canonicalize";

type Schema = Record<string, unknown>;
type Change = { severity: "breaking" | "compatible"; detail: string };

/** Keywords that restrict values: adding or changing one narrows the schema. */
const CONSTRAINTS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "additionalProperties",
  "const",
];

const ALL_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"];

function asSchema(value: unknown): Schema | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Schema
    : undefined;
}

/** The types a schema allows (every type when it names none). */
function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (typeof type === "string") return type === "number" ? ["integer", "number"] : [type];
  if (Array.isArray(type)) {
    return [...new Set(type.flatMap((t) => t === "number" ? ["integer", "number"] : [String(t)]))];
  }
  return ALL_TYPES;
}

const show = (types: string[]) => types.length === ALL_TYPES.length ? "any" : types.join("|");

/**
 * The changes from `before` to `after` at `path`, for an `input` schema (what callers send) or
 * an `output` schema (what they receive).
 */
export function schemaChanges(
  direction: "input" | "output",
  before: unknown,
  after: unknown,
  path = direction === "input" ? "input" : "output",
): Change[] {
  const a = asSchema(before);
  const b = asSchema(after);
  // Narrowing breaks senders (input); widening breaks receivers (output).
  const narrowing = direction === "input" ? "breaking" : "compatible";
  const widening = direction === "input" ? "compatible" : "breaking";
  if (!a && !b) return [];
  if (!a) return [{ severity: narrowing, detail: `${path} schema added` }];
  if (!b) return [{ severity: widening, detail: `${path} schema removed` }];
  if (canonicalize(a) === canonicalize(b)) return [];
  const changes: Change[] = [];

  const oldTypes = typesOf(a);
  const newTypes = typesOf(b);
  const lost = oldTypes.filter((t) => !newTypes.includes(t));
  const gained = newTypes.filter((t) => !oldTypes.includes(t));
  if (lost.length > 0) {
    changes.push({
      severity: narrowing,
      detail: `${path}: type narrowed from ${show(oldTypes)} to ${show(newTypes)}`,
    });
  }
  if (gained.length > 0) {
    changes.push({
      severity: widening,
      detail: `${path}: type widened from ${show(oldTypes)} to ${show(newTypes)}`,
    });
  }

  if (Array.isArray(a.enum) || Array.isArray(b.enum)) {
    const oldValues = Array.isArray(a.enum) ? a.enum.map((v) => canonicalize(v)) : undefined;
    const newValues = Array.isArray(b.enum) ? b.enum.map((v) => canonicalize(v)) : undefined;
    const removed = oldValues === undefined
      ? ["(any value)"]
      : newValues === undefined
      ? []
      : oldValues.filter((v) => !newValues.includes(v));
    const added = newValues === undefined
      ? ["(any value)"]
      : oldValues === undefined
      ? []
      : newValues.filter((v) => !oldValues.includes(v));
    if (removed.length > 0) {
      changes.push({ severity: narrowing, detail: `${path}: enum lost ${removed.join(", ")}` });
    }
    if (added.length > 0) {
      changes.push({ severity: widening, detail: `${path}: enum gained ${added.join(", ")}` });
    }
  }

  for (const keyword of CONSTRAINTS) {
    const was = canonicalize(a[keyword]);
    const is = canonicalize(b[keyword]);
    if (was === is) continue;
    changes.push(
      b[keyword] === undefined ? { severity: widening, detail: `${path}: ${keyword} dropped` } : {
        severity: narrowing,
        detail: `${path}: ${keyword} ${a[keyword] === undefined ? "added" : "changed"} (${is})`,
      },
    );
  }

  const oldProps = asSchema(a.properties) ?? {};
  const newProps = asSchema(b.properties) ?? {};
  const oldRequired = new Set(Array.isArray(a.required) ? a.required.map(String) : []);
  const newRequired = new Set(Array.isArray(b.required) ? b.required.map(String) : []);
  for (const name of Object.keys(oldProps)) {
    const at = `${path}.${name}`;
    if (!(name in newProps)) {
      changes.push({ severity: "breaking", detail: `${at}: property removed` });
      continue;
    }
    if (!oldRequired.has(name) && newRequired.has(name)) {
      changes.push({ severity: narrowing, detail: `${at}: became required` });
    }
    if (oldRequired.has(name) && !newRequired.has(name)) {
      changes.push({ severity: widening, detail: `${at}: became optional` });
    }
    changes.push(...schemaChanges(direction, oldProps[name], newProps[name], at));
  }
  for (const name of Object.keys(newProps)) {
    if (name in oldProps) continue;
    const at = `${path}.${name}`;
    changes.push(
      newRequired.has(name) && direction === "input"
        ? { severity: "breaking", detail: `${at}: required property added` }
        : {
          severity: "compatible",
          detail: `${at}: ${newRequired.has(name) ? "required" : "optional"} property added`,
        },
    );
  }
  changes.push(...schemaChanges(direction, a.items, b.items, `${path}[]`));

  if (changes.length === 0) {
    // Only annotations (description, title, examples…) differ.
    changes.push({ severity: "compatible", detail: `${path}: description or annotations changed` });
  }
  return changes;
}
