// Forms generated from JSON Schema (a tool's input schema, an elicitation's requested schema):
// strings, numbers, integers, booleans, enums, arrays and nested objects, with defaults and
// required marks. What the form cannot express is edited as JSON, and the whole value can be.

import { h, pretty, replace } from "./dom.js";

let counter = 0;
const nextId = () => `field-${++counter}`;

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`) to the schema it names. */
function resolve(schema, root, depth = 0) {
  if (!schema || typeof schema !== "object" || depth > 32) return schema ?? {};
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#/")) {
    let target = root;
    for (const part of schema.$ref.slice(2).split("/")) {
      target = target?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
    }
    return resolve({ ...target, ...schema, $ref: undefined }, root, depth + 1);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && !schema.type) {
    return resolve({ ...schema.allOf[0], ...schema, allOf: undefined }, root, depth + 1);
  }
  // Optional values written as anyOf [T, null] (pydantic) edit as T.
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && !schema.type) {
    const real = variants.filter((variant) => variant?.type !== "null");
    if (real.length === 1) {
      return resolve(
        { ...real[0], ...schema, anyOf: undefined, oneOf: undefined },
        root,
        depth + 1,
      );
    }
  }
  return schema;
}

function typeOf(schema) {
  if (Array.isArray(schema.enum)) return "enum";
  if (schema.const !== undefined) return "const";
  const type = Array.isArray(schema.type)
    ? schema.type.find((item) => item !== "null")
    : schema.type;
  if (type === undefined && schema.properties) return "object";
  return type ?? "json";
}

/**
 * A field for one schema. Returns `{ element, read }`: `read()` gives `{ value, present }`
 * (present false: leave the key out) or throws an Error naming what is wrong.
 */
function field(schema, root, path, required, depth) {
  schema = resolve(schema, root);
  const type = depth > 8 ? "json" : typeOf(schema);
  const id = nextId();
  const title = schema.title ?? path.at(-1) ?? "value";
  const label = h(
    "label",
    { for: id, class: "field-label" },
    title,
    required ? h("span", { class: "required", title: "required" }, " *") : null,
    type === "json" ? h("span", { class: "muted" }, " (JSON)") : null,
  );
  const help = schema.description ? h("div", { class: "help" }, schema.description) : null;
  const where = path.length > 0 ? path.join(".") : "the value";
  const missing = () => {
    if (required) throw new Error(`${where} is required`);
    return { present: false };
  };
  const hasDefault = schema.default !== undefined;

  if (type === "object") {
    const properties = schema.properties ?? {};
    const needed = new Set(Array.isArray(schema.required) ? schema.required : []);
    const children = Object.entries(properties).map(([key, child]) => ({
      key,
      field: field(child, root, [...path, key], needed.has(key), depth + 1),
    }));
    const extra = schema.additionalProperties && typeof schema.additionalProperties === "object" ||
        (schema.properties === undefined && schema.additionalProperties !== false)
      ? field(
        { type: "json", description: "More properties, as a JSON object" },
        root,
        [...path, "(more)"],
        false,
        depth + 1,
      )
      : undefined;
    const element = path.length === 0
      ? h("div", { class: "object" }, children.map((child) => child.field.element), extra?.element)
      : h(
        "fieldset",
        { class: "object" },
        h("legend", null, title, required ? h("span", { class: "required" }, " *") : null),
        help,
        children.map((child) => child.field.element),
        extra?.element,
      );
    return {
      element,
      read() {
        const value = {};
        for (const child of children) {
          const result = child.field.read();
          if (result.present) value[child.key] = result.value;
        }
        if (extra) {
          const more = extra.read();
          if (more.present) {
            if (
              typeof more.value !== "object" || more.value === null || Array.isArray(more.value)
            ) {
              throw new Error(`${where} (more): expected a JSON object`);
            }
            Object.assign(value, more.value);
          }
        }
        if (path.length > 0 && Object.keys(value).length === 0 && !required) {
          return { present: false };
        }
        return { present: true, value };
      },
    };
  }

  if (type === "array" && depth <= 8) {
    const items = resolve(schema.items ?? {}, root);
    const rows = [];
    const list = h("div", { class: "array-items" });
    const add = (initial) => {
      const item = field(
        initial === undefined ? items : { ...items, default: initial },
        root,
        [...path, String(rows.length)],
        true,
        depth + 1,
      );
      const row = { item, element: null };
      row.element = h(
        "div",
        { class: "array-item" },
        item.element,
        h("button", {
          type: "button",
          class: "small",
          "aria-label": `Remove item of ${title}`,
          onclick: () => {
            rows.splice(rows.indexOf(row), 1);
            row.element.remove();
          },
        }, "Remove"),
      );
      rows.push(row);
      list.append(row.element);
    };
    if (Array.isArray(schema.default)) { for (const value of schema.default) add(value); }
    const element = h(
      "fieldset",
      { class: "array", id },
      h("legend", null, title, required ? h("span", { class: "required" }, " *") : null),
      help,
      list,
      h("button", { type: "button", class: "small", onclick: () => add() }, `Add ${title} item`),
    );
    return {
      element,
      read() {
        if (rows.length === 0 && !required) return { present: false };
        return { present: true, value: rows.map((row) => row.item.read().value) };
      },
    };
  }

  if (type === "boolean") {
    // Optional booleans have three states: unset, true, false.
    const input = required
      ? h("input", { id, type: "checkbox", checked: schema.default === true, name: path.join(".") })
      : h(
        "select",
        { id, name: path.join(".") },
        h("option", { value: "" }, "(unset)"),
        h("option", { value: "true", selected: schema.default === true }, "true"),
        h("option", { value: "false", selected: schema.default === false }, "false"),
      );
    return {
      element: h("div", { class: "field" }, label, input, help),
      read() {
        if (required) return { present: true, value: input.checked };
        if (input.value === "") return missing();
        return { present: true, value: input.value === "true" };
      },
    };
  }

  if (type === "enum" || type === "const") {
    const values = type === "const" ? [schema.const] : schema.enum;
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    const input = h(
      "select",
      { id, name: path.join(".") },
      required && hasDefault ? null : h("option", { value: "" }, "(choose)"),
      values.map((value, index) =>
        h("option", {
          value: String(index),
          selected: hasDefault && JSON.stringify(value) === JSON.stringify(schema.default),
        }, names[index] ?? (typeof value === "string" ? value : JSON.stringify(value)))
      ),
    );
    return {
      element: h("div", { class: "field" }, label, input, help),
      read() {
        if (input.value === "") return missing();
        return { present: true, value: values[Number(input.value)] };
      },
    };
  }

  if (type === "number" || type === "integer") {
    const input = h("input", {
      id,
      type: "number",
      name: path.join("."),
      step: type === "integer" ? "1" : "any",
      min: schema.minimum,
      max: schema.maximum,
      value: hasDefault ? String(schema.default) : undefined,
      placeholder: hasDefault ? undefined : type,
    });
    return {
      element: h("div", { class: "field" }, label, input, help),
      read() {
        if (input.value.trim() === "") return missing();
        const value = Number(input.value);
        if (!Number.isFinite(value)) throw new Error(`${where}: "${input.value}" is not a number`);
        if (type === "integer" && !Number.isInteger(value)) {
          throw new Error(`${where}: ${input.value} is not an integer`);
        }
        return { present: true, value };
      },
    };
  }

  if (type === "string") {
    const long = (schema.maxLength ?? 0) > 200 ||
      /text|body|content|description|query/i.test(title);
    const input = h(long ? "textarea" : "input", {
      id,
      name: path.join("."),
      type: long ? undefined : inputType(schema.format),
      value: hasDefault ? String(schema.default) : undefined,
      placeholder: schema.format ?? (schema.pattern ? `pattern ${schema.pattern}` : undefined),
      rows: long ? 3 : undefined,
    });
    return {
      element: h("div", { class: "field" }, label, input, help),
      read() {
        if (input.value === "" && !(required && hasDefault)) return missing();
        return { present: true, value: input.value };
      },
    };
  }

  // Anything else (unions, null, no type): JSON.
  const input = h("textarea", {
    id,
    name: path.join("."),
    class: "code",
    rows: 3,
    value: hasDefault ? pretty(schema.default) : "",
    placeholder: "JSON",
  });
  return {
    element: h("div", { class: "field" }, label, input, help),
    read() {
      if (input.value.trim() === "") return missing();
      try {
        return { present: true, value: JSON.parse(input.value) };
      } catch (error) {
        throw new Error(`${where}: not JSON (${error.message})`);
      }
    },
  };
}

function inputType(format) {
  if (format === "email") return "email";
  if (format === "uri" || format === "url") return "url";
  if (format === "date") return "date";
  return "text";
}

/**
 * A form for an object schema, with a switch to a raw JSON editor of the whole value.
 * Returns `{ element, read }`; `read()` returns the value or throws an Error naming the field.
 */
export function schemaForm(schema, options = {}) {
  const root = schema && typeof schema === "object" ? schema : { type: "object" };
  const resolved = resolve(root, root);
  const generated = field(
    resolved.type ? resolved : { ...resolved, type: "object" },
    root,
    [],
    true,
    0,
  );
  const raw = h("textarea", {
    class: "code raw-json",
    rows: 8,
    "aria-label": options.label ?? "Arguments as JSON",
  });
  let useRaw = false;
  const body = h("div", { class: "form-body" }, generated.element);
  const toggle = h("button", {
    type: "button",
    class: "small link",
    onclick: () => {
      if (!useRaw) {
        let value = {};
        try {
          value = generated.read().value ?? {};
        } catch { /* start from what can be read */ }
        raw.value = pretty(value);
        replace(body, raw);
        toggle.textContent = "Edit as form";
      } else {
        replace(body, generated.element);
        toggle.textContent = "Edit as JSON";
      }
      useRaw = !useRaw;
    },
  }, "Edit as JSON");
  return {
    element: h("div", { class: "schema-form" }, toggle, body),
    read() {
      if (useRaw) {
        let value;
        try {
          value = raw.value.trim() === "" ? {} : JSON.parse(raw.value);
        } catch (error) {
          throw new Error(`The JSON is invalid: ${error.message}`);
        }
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          throw new Error("The arguments must be a JSON object");
        }
        return value;
      }
      return generated.read().value ?? {};
    },
  };
}
