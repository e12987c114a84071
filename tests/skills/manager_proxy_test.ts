// Skills of many servers: the manager names them like tools and applies allow and deny lists;
// the proxy serves them under URIs that carry the server's name, verified end to end.

import assert from "node:assert/strict";
import { Client, MemoryTransport, Skills, SkillVerificationError } from "../../mod.ts";
import { type ServerConfig, ServerManager, UnknownToolError } from "../../src/manager/mod.ts";
import { createProxyServer } from "../../src/server/mod.ts";
import { fakeServer } from "../_helpers.ts";

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

Deno.test("the proxy serves every server's skills apart, and a client verifies them end to end", async () => {
  await using m = await manager();
  using proxy = createProxyServer(m);
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const serving = proxy.server.serve(serverEnd);
  const client = await Client.connect(clientEnd, { protocol: "legacy" });
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
    await serving;
  }
});
