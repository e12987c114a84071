// The skills of every managed server (SEP-2640): listed per server, named like tools
// (`mcp__<server>__<skill>`), filtered by the server's allow and deny lists, and loaded from the
// server that listed them. Listing reads no skill file.

import { type LoadedSkill, Skills } from "../skills/skills.ts";
import { toolRefusal } from "../config/policy.ts";
import { assignQualifiedNames, type NameRequest } from "./_names.ts";
import type { ManagedServer } from "./_server.ts";
import { ServerUnavailableError, SkillDeniedError, UnknownToolError } from "./errors.ts";
import type { ManagedSkill, ManagedSkillListing, ManagerCallOptions } from "./types.ts";

/** Lists the skills of every enabled, connected server that declares the extension. */
export async function listSkills(
  servers: Iterable<ManagedServer>,
  options: ManagerCallOptions,
): Promise<ManagedSkillListing> {
  const errors: Record<string, Error> = {};
  const found: {
    request: NameRequest;
    server: string;
    skill: Omit<ManagedSkill, "qualifiedName">;
  }[] = [];
  const listings = [...servers].filter((s) => s.enabled && s.client).map(async (server) => {
    const skills = new Skills(server.client!);
    if (!skills.available) return;
    try {
      const { skills: entries } = await skills.list(options);
      for (const entry of entries) {
        const name = typeof entry.frontmatter?.name === "string"
          ? entry.frontmatter.name
          : String(entry.uri);
        if (toolRefusal(server.config, name)) continue;
        found.push({
          request: { server: server.name, name },
          server: server.name,
          skill: { server: server.name, name, entry },
        });
      }
    } catch (error) {
      errors[server.name] = error as Error;
    }
  });
  await Promise.all(listings);
  found.sort((a, b) => a.server < b.server ? -1 : a.server > b.server ? 1 : 0);
  const names = assignQualifiedNames(found.map((f) => f.request));
  const skills = found.map((f) => ({ ...f.skill, qualifiedName: names.get(f.request)! }));
  return { skills, errors };
}

/** Loads a skill from the server that listed it, after checking the server's lists again. */
export async function loadSkill(
  servers: ReadonlyMap<string, ManagedServer>,
  skill: ManagedSkill | string,
  options: ManagerCallOptions,
): Promise<LoadedSkill> {
  let managed: ManagedSkill | undefined;
  if (typeof skill === "string") {
    const { skills } = await listSkills(servers.values(), options);
    managed = skills.find((s) => s.qualifiedName === skill);
    if (!managed) throw new UnknownToolError(skill, "skill");
  } else managed = skill;
  const server = servers.get(managed.server);
  if (!server?.client || !server.enabled) {
    throw new ServerUnavailableError(managed.server, server ? server.phase : "unknown");
  }
  const refused = toolRefusal(server.config, managed.name);
  if (refused) {
    throw new SkillDeniedError(managed.server, managed.name, refused.rule, refused.pattern);
  }
  return await new Skills(server.client).load(managed.entry, options);
}
