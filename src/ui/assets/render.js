// Showing what servers send: tool results, resource contents and prompt messages, by content
// type. Every string is text; images and audio are shown only from base64 data of an image or
// audio type, as data: URLs the page's Content-Security-Policy allows.

import { h, jsonBlock, pretty, safeLink } from "./dom.js";

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;
const MEDIA_TYPE = /^[a-z]+\/[a-z0-9.+-]+$/i;

/** Text, or pretty JSON when the text is a JSON object or array. */
export function textBlock(text) {
  const trimmed = String(text).trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return jsonBlock(JSON.parse(trimmed));
    } catch { /* not JSON: shown as written */ }
  }
  return h("pre", { class: "text" }, String(text));
}

function media(kind, data, mimeType) {
  const type = String(mimeType ?? "");
  if (
    !type.startsWith(`${kind}/`) || !MEDIA_TYPE.test(type) || typeof data !== "string" ||
    !BASE64.test(data)
  ) {
    return h(
      "div",
      { class: "problem" },
      `${kind} content with an invalid type or data (${type || "no type"})`,
    );
  }
  const src = `data:${type};base64,${data.replace(/\s/g, "")}`;
  return kind === "image"
    ? h("img", { class: "content-image", src, alt: `image (${type})` })
    : h("audio", { controls: true, src });
}

/** One content block of a tool result or prompt message. */
export function contentBlock(block) {
  if (!block || typeof block !== "object") return h("pre", null, pretty(block));
  switch (block.type) {
    case "text":
      return textBlock(block.text ?? "");
    case "image":
      return media("image", block.data, block.mimeType);
    case "audio":
      return media("audio", block.data, block.mimeType);
    case "resource_link":
      return h(
        "div",
        { class: "resource-link" },
        h("span", { class: "badge" }, "link"),
        " ",
        h("strong", null, block.title ?? block.name ?? ""),
        " ",
        h("code", null, String(block.uri ?? "")),
        block.mimeType ? h("span", { class: "muted" }, ` ${block.mimeType}`) : null,
        block.description ? h("div", { class: "help" }, block.description) : null,
      );
    case "resource":
      return h(
        "div",
        { class: "embedded" },
        h("span", { class: "badge" }, "resource"),
        " ",
        h("code", null, String(block.resource?.uri ?? "")),
        resourceContents(block.resource ?? {}),
      );
    default:
      return h(
        "div",
        null,
        h("span", { class: "badge" }, String(block.type)),
        h("pre", null, pretty(block)),
      );
  }
}

/** One item of a resource read: text, or base64 data (images and audio shown, else its size). */
export function resourceContents(item) {
  const type = item.mimeType ? h("div", { class: "muted" }, item.mimeType) : null;
  if (typeof item.text === "string") return h("div", null, type, textBlock(item.text));
  if (typeof item.blob === "string") {
    const kind = String(item.mimeType ?? "").split("/")[0];
    if (kind === "image" || kind === "audio") {
      return h("div", null, type, media(kind, item.blob, item.mimeType));
    }
    return h(
      "div",
      null,
      type,
      h("div", { class: "muted" }, `binary, ${Math.floor(item.blob.length * 3 / 4)} bytes`),
    );
  }
  return h("pre", null, pretty(item));
}

/** A tool result: its content, its structured content with the output check, and isError. */
export function toolResult(answer) {
  const result = answer.result ?? {};
  const issues = answer.outputIssues;
  const content = Array.isArray(result.content) ? result.content : [];
  return h(
    "div",
    { class: result.isError ? "result is-error" : "result", "data-testid": "tool-result" },
    result.isError
      ? h("div", { class: "error-banner" }, "The tool reported an error (isError)")
      : null,
    content.map(contentBlock),
    result.structuredContent !== undefined
      ? h(
        "div",
        { class: "structured" },
        h("h4", null, "Structured content"),
        jsonBlock(result.structuredContent),
      )
      : null,
    issues === undefined
      ? null
      : issues.length === 0
      ? h("div", { class: "ok" }, "✓ matches the output schema")
      : h(
        "div",
        { class: "problem" },
        "Does not match the output schema:",
        h("ul", null, issues.map((issue) => h("li", null, issue))),
      ),
  );
}

/** A rendered prompt: its messages with role. */
export function promptMessages(result) {
  return h(
    "div",
    { class: "result" },
    result.description ? h("p", { class: "help" }, result.description) : null,
    (result.messages ?? []).map((message) =>
      h(
        "div",
        { class: `message role-${message.role === "assistant" ? "assistant" : "user"}` },
        h("div", { class: "role" }, String(message.role)),
        [message.content].flat().map(contentBlock),
      )
    ),
  );
}

export { safeLink };
