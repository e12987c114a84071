// Reading a server's lists (tools, resources and templates, prompts) for the registry. Only what
// the server advertises is asked for; a list that fails keeps its last value, so a server with
// one broken list still offers the others.

import type { Client } from "../client/client.ts";
import type { Prompt, Resource, ResourceTemplate, Tool } from "../types.ts";

/** The lists a server offers. */
export type ListKind = "tools" | "resources" | "prompts";

/** Every list a server can offer. */
export const ALL_KINDS: readonly ListKind[] = ["tools", "resources", "prompts"];

/** A server's lists as last read. */
export interface Lists {
  tools: Tool[];
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
}

/** Reads `kinds` from the client; `previous` fills in for lists that fail. */
export async function fetchLists(
  client: Client,
  kinds: readonly ListKind[],
  previous: Readonly<Lists>,
  report: (what: string, error: Error) => void,
): Promise<Partial<Lists>> {
  const caps = client.serverCapabilities;
  const attempt = async <T>(what: string, list: () => Promise<T[]>, keep: T[]): Promise<T[]> => {
    try {
      return await list();
    } catch (error) {
      report(what, error as Error);
      return keep;
    }
  };
  const lists: Partial<Lists> = {};
  const jobs: Promise<void>[] = [];
  if (kinds.includes("tools")) {
    jobs.push((async () => {
      const tools = caps.tools
        ? await attempt("tools", () => client.listTools(), previous.tools)
        : [];
      const seen = new Set<string>();
      lists.tools = tools.filter((tool) => !seen.has(tool.name) && seen.add(tool.name));
    })());
  }
  if (kinds.includes("resources")) {
    jobs.push((async () => {
      [lists.resources, lists.templates] = caps.resources
        ? await Promise.all([
          attempt("resources", () => client.listResources(), previous.resources),
          attempt("resource templates", () => client.listResourceTemplates(), previous.templates),
        ])
        : [[], []];
    })());
  }
  if (kinds.includes("prompts")) {
    jobs.push((async () => {
      lists.prompts = caps.prompts
        ? await attempt("prompts", () => client.listPrompts(), previous.prompts)
        : [];
    })());
  }
  await Promise.all(jobs);
  return lists;
}
