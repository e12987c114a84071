// Answering the server's elicitation requests from the terminal: a form prompted field by field
// on a TTY (typed by the schema, defaults shown), or a fixed policy for scripts.

import type { ElicitationHandler, ElicitationRequest } from "../../mod.ts";
import type { Output } from "./command.ts";

/** What to do with elicitation requests: ask on a TTY, accept the defaults, or decline. */
export type ElicitPolicy = "ask" | "accept-defaults" | "decline";

interface Field {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
}

/** Reads one line from the terminal; `null` at end of input. */
export type ReadLine = (question: string) => string | null;

export function elicitationHandler(
  policy: ElicitPolicy,
  out: Output,
  readLine: ReadLine = (question) => prompt(question),
  terminal: () => boolean = () => Deno.stdin.isTerminal(),
): ElicitationHandler {
  return (request) => {
    const interactive = policy === "ask" && terminal();
    if (request.mode === "url") {
      out.stderr(`[elicitation] ${request.message}\n  open: ${request.url ?? "(no URL)"}`);
      if (!interactive) return { action: policy === "decline" ? "decline" : "accept" };
      const answer = readLine("Done? [y/N]")?.trim().toLowerCase();
      return { action: answer === "y" || answer === "yes" ? "accept" : "decline" };
    }
    if (policy === "decline" || (policy === "ask" && !interactive)) {
      out.stderr(
        `[elicitation] declined: ${request.message}${
          policy === "ask" ? " (not a terminal; pass --elicit accept-defaults to accept)" : ""
        }`,
      );
      return { action: "decline" };
    }
    if (policy === "accept-defaults") return { action: "accept", content: {} };
    return askForm(request, out, readLine);
  };
}

function askForm(request: ElicitationRequest, out: Output, readLine: ReadLine) {
  out.stderr(`[elicitation] ${request.message}`);
  const properties = (request.requestedSchema?.properties ?? {}) as Record<string, Field>;
  const required = new Set((request.requestedSchema?.required ?? []) as string[]);
  const content: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(properties)) {
    while (true) {
      const hint = [
        field.type ?? "string",
        field.enum ? `one of ${field.enum.join("/")}` : "",
        field.default !== undefined ? `default ${JSON.stringify(field.default)}` : "",
        required.has(name) ? "required" : "",
      ].filter(Boolean).join(", ");
      const line = readLine(`${field.title ?? name} (${hint}):`);
      if (line === null) return { action: "cancel" as const };
      if (line.trim() === "") {
        if (required.has(name) && field.default === undefined) {
          out.stderr(`  ${name} is required`);
          continue;
        }
        break; // the client fills in the default
      }
      const value = typed(line.trim(), field);
      if (value === undefined) {
        out.stderr(`  expected ${field.enum ? `one of ${field.enum.join(", ")}` : field.type}`);
        continue;
      }
      content[name] = value;
      break;
    }
  }
  return { action: "accept" as const, content };
}

function typed(text: string, field: Field): unknown {
  if (field.enum && !field.enum.map(String).includes(text)) return undefined;
  switch (field.type) {
    case "integer":
      return /^-?\d+$/.test(text) ? Number(text) : undefined;
    case "number":
      return Number.isFinite(Number(text)) ? Number(text) : undefined;
    case "boolean":
      return ["y", "yes", "true"].includes(text.toLowerCase())
        ? true
        : ["n", "no", "false"].includes(text.toLowerCase())
        ? false
        : undefined;
    default:
      return text;
  }
}
