// The proxy's side of the skills extension (SEP-2640): the skills of every managed server, under
// URIs that carry the server's name as their first segment (`skill://<server>/<skill path>`), so
// that same-named skills of two servers stay apart. Files, digests and frontmatter are passed on
// unchanged, so a client verifies them against what the server itself listed.

import { ErrorCode, type JsonObject } from "../jsonrpc.ts";
import type { ManagedSkill, ManagerCallOptions, ServerManager } from "../manager/manager.ts";
import { McpError } from "../errors.ts";
import type { SkillEntry } from "../skills/skills.ts";
import type { ServerRequestHandler } from "./server.ts";

const SCHEME = "skill://";

/** The server's name as a URI segment: what a reg-name allows, anything else as `-`. */
function segmentOf(server: string): string {
  return server.replace(/[^A-Za-z0-9._~-]/g, "-").toLowerCase();
}

function outward(server: string, uri: string): string {
  return uri.startsWith(SCHEME) ? `${SCHEME}${segmentOf(server)}/${uri.slice(SCHEME.length)}` : uri;
}

function outwardEntry(skill: ManagedSkill): SkillEntry {
  const { entry, server } = skill;
  return {
    ...entry,
    uri: outward(server, entry.uri),
    resources: Array.isArray(entry.resources)
      ? entry.resources.map((file) => ({ ...file, uri: outward(server, file.uri) }))
      : entry.resources,
  };
}

/** The allowed skill of a proxied URI and the URI its server knows, if any skill lists it. */
async function resolve(
  manager: ServerManager,
  uri: string,
  options: ManagerCallOptions,
): Promise<{ skill: ManagedSkill; inner: string } | undefined> {
  if (!uri.startsWith(SCHEME)) return undefined;
  const { skills } = await manager.listSkills(options);
  for (const skill of skills) {
    const prefix = `${SCHEME}${segmentOf(skill.server)}/`;
    if (!uri.startsWith(prefix)) continue;
    const inner = `${SCHEME}${uri.slice(prefix.length)}`;
    const files = Array.isArray(skill.entry.resources) ? skill.entry.resources : [];
    if (skill.entry.uri === inner || files.some((f) => f.uri === inner)) return { skill, inner };
  }
  return undefined;
}

/** `skills/list`, `skills/get`, and the reads of skill files, for a proxy over `manager`. */
export function skillHandlers(manager: ServerManager): {
  handlers: Record<string, ServerRequestHandler>;
  read: (uri: string, options: ManagerCallOptions) => Promise<JsonObject | undefined>;
} {
  const handlers: Record<string, ServerRequestHandler> = {
    "skills/list": async (_params, context) => {
      const { skills } = await manager.listSkills({ signal: context.signal });
      return { skills: skills.map(outwardEntry) as unknown as JsonObject[] };
    },
    "skills/get": async (params, context) => {
      const uri = String(params.uri ?? "");
      const found = await resolve(manager, uri, { signal: context.signal });
      if (!found || found.skill.entry.uri !== found.inner) {
        throw new McpError(ErrorCode.InvalidParams, `Not a skill: ${uri}`);
      }
      return { skill: outwardEntry(found.skill) as unknown as JsonObject };
    },
  };
  /** A skill file's contents, or `undefined` when the URI is no allowed skill's file. */
  const read = async (uri: string, options: ManagerCallOptions) => {
    const found = await resolve(manager, uri, options);
    if (!found) return undefined;
    const result = await manager.readResource(found.skill.server, found.inner, options);
    return {
      ...result,
      contents: result.contents.map((c) => ({ ...c, uri: c.uri === found.inner ? uri : c.uri })),
    } as JsonObject;
  };
  return { handlers, read };
}
