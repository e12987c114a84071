// Human output for mcp-inspect: aligned tables and readable content. Colour only on a TTY and
// never with NO_COLOR (https://no-color.org).

import type { CallToolResult, Content, JsonSchema, ResourceContents } from "../../mod.ts";

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
}

export function style(stream: { isTerminal(): boolean }): Style {
  let colour = false;
  try {
    colour = stream.isTerminal() && Deno.env.get("NO_COLOR") === undefined;
  } catch {
    colour = false;
  }
  const wrap = (open: number, close: number) => (text: string) =>
    colour ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39) };
}

/** First line of a description, shortened to fit a table cell. */
export function oneLine(text: string | undefined, max = 80): string {
  const line = (text ?? "").split("\n")[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Columns padded to the widest cell; the last column is not padded. */
export function table(rows: readonly (readonly string[])[], header?: readonly string[]): string {
  const all = header ? [header, ...rows] : rows;
  const widths: number[] = [];
  for (const row of all) {
    row.forEach((cell, i) => widths[i] = Math.max(widths[i] ?? 0, [...cell].length));
  }
  return all.map((row) =>
    row.map((cell, i) => i === row.length - 1 ? cell : cell.padEnd(widths[i]!)).join("  ").trimEnd()
  ).join("\n");
}

/** A tool's arguments as `name: type` with `*` marking required ones. */
export function describeArguments(schema: JsonSchema | undefined): string {
  const properties = (schema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = new Set((schema?.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const type = Array.isArray(property.type) ? property.type.join("|") : property.type ?? "any";
    return `${name}${required.has(name) ? "*" : "?"}: ${type}`;
  }).join(", ");
}

function byteSize(base64: string): string {
  const bytes = Math.floor(base64.replace(/=+$/, "").length * 3 / 4);
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** One content item as readable text. */
export function renderContent(item: Content): string {
  switch (item.type) {
    case "text":
      return item.text ?? "";
    case "image":
    case "audio":
      return `[${item.type} ${item.mimeType ?? "?"}, ${byteSize(item.data ?? "")}]`;
    case "resource_link":
      return `[resource link ${item.uri ?? "?"}]`;
    case "resource":
      return item.resource ? renderResource(item.resource) : "[resource]";
    default:
      return `[${item.type}] ${JSON.stringify(item)}`;
  }
}

/** A resource's contents: text as text, binary as a typed summary. */
export function renderResource(contents: ResourceContents): string {
  if (typeof contents.text === "string") return contents.text;
  if (typeof contents.blob === "string") {
    return `[${contents.mimeType ?? "binary"} ${contents.uri}, ${byteSize(contents.blob)}]`;
  }
  return `[${contents.uri}]`;
}

/** A tool result: each content item, then structured content when present. */
export function renderToolResult(result: CallToolResult): string {
  const parts = result.content.map(renderContent);
  if (result.structuredContent !== undefined && parts.length === 0) {
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  }
  return parts.join("\n");
}
