// The index of every server's tools, prompts and resources, with qualified names (the manager's; the
// public tool registry, local tools included, is ToolRegistry in src/registry/).
// Names are assigned over every known item, visible or not, so that toggling a server or editing
// a deny list never renames the tools of another server.

import type { CompletionReference, Prompt, Resource, ResourceTemplate, Tool } from "../types.ts";
import { UnknownToolError } from "./errors.ts";
import { toolRefusal } from "../config/policy.ts";
import type { ManagedServer } from "./_server.ts";
import { assignQualifiedNames, type NameRequest } from "./_names.ts";

/** A tool with its server and qualified name. */
export interface Entry<T> {
  server: ManagedServer;
  qualifiedName: string;
  item: T;
  visible: boolean;
}

export class ItemIndex {
  #tools: Entry<Tool>[] | undefined;
  #prompts: Entry<Prompt>[] | undefined;
  #toolIndex = new Map<string, Entry<Tool>>();
  #promptIndex = new Map<string, Entry<Prompt>>();
  readonly #servers: () => ManagedServer[];

  constructor(servers: () => ManagedServer[]) {
    this.#servers = servers;
  }

  /** Forgets the computed lists; they are rebuilt on next use. */
  invalidate(): void {
    this.#tools = undefined;
    this.#prompts = undefined;
  }

  #sorted(): ManagedServer[] {
    return this.#servers().sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  }

  tools(): Entry<Tool>[] {
    if (!this.#tools) {
      this.#tools = this.#build(
        (server) => server.tools,
        (server, tool) => server.enabled && !toolRefusal(server.config, tool.name),
      );
      this.#toolIndex = new Map(this.#tools.map((entry) => [entry.qualifiedName, entry]));
    }
    return this.#tools;
  }

  prompts(): Entry<Prompt>[] {
    if (!this.#prompts) {
      this.#prompts = this.#build((server) => server.prompts, (server) => server.enabled);
      this.#promptIndex = new Map(this.#prompts.map((entry) => [entry.qualifiedName, entry]));
    }
    return this.#prompts;
  }

  findTool(qualifiedName: string): Entry<Tool> | undefined {
    this.tools();
    return this.#toolIndex.get(qualifiedName);
  }

  findPrompt(qualifiedName: string): Entry<Prompt> | undefined {
    this.prompts();
    return this.#promptIndex.get(qualifiedName);
  }

  /** The server a completion reference belongs to, and the reference in that server's names. */
  completionTarget(ref: CompletionReference): [ManagedServer, CompletionReference] {
    if (ref.type === "ref/prompt") {
      const entry = this.findPrompt(ref.name);
      if (!entry) throw new UnknownToolError(ref.name, "prompt");
      return [entry.server, { type: "ref/prompt", name: entry.item.name }];
    }
    const server = this.templates().find((t) => t.template.uriTemplate === ref.uri)?.server ??
      this.resourceOwner(ref.uri);
    if (!server) throw new UnknownToolError(ref.uri, "resource");
    return [server, ref];
  }

  resources(): { server: ManagedServer; resource: Resource }[] {
    return this.#sorted().filter((server) => server.enabled).flatMap((server) =>
      server.resources.map((resource) => ({ server, resource }))
    );
  }

  templates(): { server: ManagedServer; template: ResourceTemplate }[] {
    return this.#sorted().filter((server) => server.enabled).flatMap((server) =>
      server.templates.map((template) => ({ server, template }))
    );
  }

  /**
   * The server to read a URI from: the one listing it, else one with a template whose literal
   * start matches, else the only enabled server offering resources at all.
   */
  resourceOwner(uri: string): ManagedServer | undefined {
    const listed = this.resources().find((entry) => entry.resource.uri === uri);
    if (listed) return listed.server;
    const byTemplate = this.templates()
      .map(({ server, template }) => ({ server, prefix: template.uriTemplate.split("{")[0]! }))
      .filter(({ prefix }) => prefix !== "" && uri.startsWith(prefix))
      .sort((a, b) => b.prefix.length - a.prefix.length)[0];
    if (byTemplate) return byTemplate.server;
    const offering = this.#sorted().filter((server) =>
      server.enabled && server.client?.serverCapabilities.resources
    );
    return offering.length === 1 ? offering[0] : undefined;
  }

  #build<T extends { name: string }>(
    items: (server: ManagedServer) => T[],
    visible: (server: ManagedServer, item: T) => boolean,
  ): Entry<T>[] {
    const requests: (NameRequest & { owner: ManagedServer; item: T })[] = [];
    for (const server of this.#sorted()) {
      for (const item of items(server)) {
        requests.push({ server: server.name, name: item.name, owner: server, item });
      }
    }
    const names = assignQualifiedNames(requests);
    return requests.map((request) => ({
      server: request.owner,
      qualifiedName: names.get(request)!,
      item: request.item,
      visible: visible(request.owner, request.item),
    }));
  }
}
