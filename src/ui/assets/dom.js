// Building the page from data without ever parsing markup: every string becomes a text node or
// an attribute value, so a server's `<img onerror>` stays text.

/**
 * Creates an element. `props` keys starting with "on" add listeners; `class`, `dataset` and
 * element properties (value, checked, …) are set as such; other keys become attributes.
 * Children may be nodes, strings, numbers, arrays of them, or null/undefined/false (skipped).
 */
export function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "class") {
      element.className = value;
    } else if (key === "dataset") {
      Object.assign(element.dataset, value);
    } else if (key === "value" || key === "checked" || key === "selected" || key === "disabled") {
      element[key] = value;
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

/** Appends children as {@link h} takes them. */
export function append(element, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Replaces an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

/** Pretty JSON for display. */
export function pretty(value) {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A value shown as pretty JSON in a block of its own. */
export function jsonBlock(value) {
  return h("pre", { class: "json" }, pretty(value));
}

/** A value shown as pretty JSON, folded under a summary line. */
export function jsonDetails(summary, value) {
  return h("details", null, h("summary", null, summary), jsonBlock(value));
}

/** A link only for http(s) URLs; anything else (javascript:, data:) is shown as text. */
export function safeLink(href, label) {
  let url;
  try {
    url = new URL(href);
  } catch {
    return h("code", null, label ?? String(href));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return h("code", null, label ?? String(href));
  }
  return h(
    "a",
    { href: url.href, target: "_blank", rel: "noopener noreferrer" },
    label ?? url.href,
  );
}
