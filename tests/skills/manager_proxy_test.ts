// Skills of many servers: the manager names them like tools and applies allow and deny lists;
// the proxy serves them under URIs that carry the server's name, verified end to end.

import assert from "node:assert/strict";
import { Client, MemoryTransport, Skills, SkillVerificationError } from "../../mod.ts";
import {
  type ServerConfig,
  ServerManager,
  SkillDeniedError,
  ToolDeniedError,
  UnknownToolError,
} from "../../src/manager/mod.ts";
import { createProxyServer } from "../../src/server/mod.ts";
import { fakeServer, rejectsWith } from "../_helpers.ts";

function skillsServer(args: string[], extra: Partial<ServerConfig> = {}): ServerConfig {
  const { command, args: all } = fakeServer("skills.ts", args);
  return { command, args: [...all!], ...extra } as ServerConfig;
}

async function manager(): Promise<ServerManager> {
  const m = new ServerManager({ healthIntervalMs: 0 });
  await m.setServers({
    docs: skillsServer(["--honest"]),
    mixed: skillsServer([], { deny: ["tampered", "wrong-*"] }),
  });
  return m;
}

Deno.test("the manager lists every server's skills under qualified names, deny lists applied", async () => {
  await using m = await manager();
  const { skills, errors } = await m.listSkills();
  assert.deepEqual(errors, {});
  assert.deepEqual(skills.map((s) => s.qualifiedName), [
    "mcp__docs__pdf-processing",
    "mcp__mixed__pdf-processing",
    "mcp__mixed__lying-frontmatter",
  ]);
  const loaded = await m.loadSkill("mcp__mixed__pdf-processing");
  assert.deepEqual(loaded.files.map((f) => f.path), ["SKILL.md", "references/FORMS.md"]);
  await assert.rejects(m.loadSkill("mcp__mixed__tampered"), UnknownToolError);
  await assert.rejects(m.loadSkill("mcp__mixed__lying-frontmatter"), SkillVerificationError);
});

Deno.test("loading a listed skill fails, naming it a skill, once the server's lists refuse it", async () => {
  await using m = await manager();
  const { skills } = await m.listSkills();
  const find = (name: string) => skills.find((s) => s.qualifiedName === name)!;
  // Lists apply without reconnecting, so a listing held by the caller can outlive them.
  await m.setServers({
    docs: skillsServer(["--honest"], { deny: ["pdf-*"] }),
    mixed: skillsServer([], { allow: ["tampered"], deny: ["tampered", "wrong-*"] }),
  });
  const denied = await rejectsWith(
    m.loadSkill(find("mcp__docs__pdf-processing")),
    SkillDeniedError,
  );
  assert.equal(
    denied.message,
    `Skill "pdf-processing" of server "docs" is refused: it matches the deny list ("pdf-*")`,
  );
  assert.equal(denied.name, "SkillDeniedError");
  assert.deepEqual([denied.server, denied.skill, denied.rule, denied.pattern], [
    "docs",
    "pdf-processing",
    "deny",
    "pdf-*",
  ]);
  // Still a refusal by the lists to code that catches refused tools (the proxy does).
  assert.ok(denied instanceof ToolDeniedError);
  const notAllowed = await rejectsWith(
    m.loadSkill(find("mcp__mixed__lying-frontmatter")),
    SkillDeniedError,
  );
  assert.equal(
    notAllowed.message,
    `Skill "lying-frontmatter" of server "mixed" is refused: it is not in the allow list`,
  );
});

Deno.test("the proxy serves every server's skills apart, and a client verifies them end to end", async () => {
  await using m = await manager();
  using proxy = createProxyServer(m);
  const transport = MemoryTransport.serving((serverEnd) => proxy.server.serve(serverEnd));
  const client = await Client.connect(transport, { protocol: "legacy" });
  try {
    const skills = new Skills(client);
    assert.ok(skills.available);
    const { skills: entries } = await skills.list();
    assert.deepEqual(entries.map((e) => e.uri), [
      "skill://docs/pdf-processing/SKILL.md",
      "skill://mixed/pdf-processing/SKILL.md",
      "skill://mixed/lying-frontmatter/SKILL.md",
    ]);
    const loaded = await skills.load("skill://mixed/pdf-processing/SKILL.md");
    assert.deepEqual(loaded.files.map((f) => f.path), ["SKILL.md", "references/FORMS.md"]);
    await assert.rejects(skills.load(entries[2]!), SkillVerificationError);
    // A denied skill is neither listed nor readable through the proxy.
    await assert.rejects(skills.get("skill://mixed/tampered/SKILL.md"), /Not a skill/);
    await assert.rejects(client.readResource("skill://mixed/tampered/SKILL.md"));
  } finally {
    await client.close();
  }
});
