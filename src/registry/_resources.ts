// The resource meta-tools agent hosts give a model (Claude Code's ListMcpResources and
// ReadMcpResource): the resources of every connected server, listed and read through tools,
// with the server's name as a parameter since two servers may offer the same URI. Failures are
// tool execution errors the model can read and correct, never thrown.

import type { ServerManager } from "../manager/manager.ts";
import type { CallToolResult, Content } from "../types.ts";
import type { LocalTool } from "./types.ts";

/** The names of the meta-tools. */
export const LIST_RESOURCES = "ListMcpResources";
export const READ_RESOURCE = "ReadMcpResource";

const SERVER = {
  type: "string",
  description: "The name of the MCP server, as ListMcpResources reports it.",
};

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function unknownServer(manager: ServerManager, server: string): CallToolResult | undefined {
  const names = manager.servers().map((status) => status.name);
  if (names.includes(server)) return undefined;
  return failure(
    `Unknown server "${server}"; the servers are: ${names.map((n) => `"${n}"`).join(", ")}`,
  );
}

/** The two meta-tools over a manager. */
export function resourceTools(manager: ServerManager): LocalTool[] {
  const list: LocalTool = {
    name: LIST_RESOURCES,
    description:
      "Lists the resources (and resource templates) of the connected MCP servers, or of one server.",
    inputSchema: {
      type: "object",
      properties: { server: { ...SERVER, description: "Only this server's resources." } },
      additionalProperties: false,
    },
    annotations: { title: "List MCP resources", readOnlyHint: true, openWorldHint: false },
    handler: (args) => {
      const server = args.server as string | undefined;
      if (server !== undefined) {
        const unknown = unknownServer(manager, server);
        if (unknown) return unknown;
      }
      const mine = (name: string) => server === undefined || name === server;
      const resources = manager.allResources().filter((r) => mine(r.server)).map((r) => ({
        server: r.server,
        ...r.resource,
      }));
      const templates = manager.allResourceTemplates().filter((t) => mine(t.server)).map((t) => ({
        server: t.server,
        ...t.template,
      }));
      const structured = { resources, resourceTemplates: templates };
      return {
        content: [{ type: "text", text: JSON.stringify(structured, null, 2) }],
        structuredContent: structured,
      };
    },
  };
  const read: LocalTool = {
    name: READ_RESOURCE,
    description: "Reads a resource of an MCP server by its URI.",
    inputSchema: {
      type: "object",
      properties: {
        server: SERVER,
        uri: { type: "string", description: "The URI of the resource to read." },
      },
      required: ["server", "uri"],
      additionalProperties: false,
    },
    annotations: { title: "Read an MCP resource", readOnlyHint: true, openWorldHint: false },
    handler: async (args, context) => {
      const server = String(args.server);
      const uri = String(args.uri);
      const unknown = unknownServer(manager, server);
      if (unknown) return unknown;
      try {
        const { contents } = await manager.readResource(server, uri, { signal: context.signal });
        const content: Content[] = contents.map((item) =>
          typeof item.text === "string"
            ? { type: "text", text: item.text }
            : { type: "resource", resource: item }
        );
        return { content, structuredContent: { server, contents } };
      } catch (error) {
        return failure(`Cannot read "${uri}" from server "${server}": ${(error as Error).message}`);
      }
    },
  };
  return [list, read];
}
