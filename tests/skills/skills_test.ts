// The skills extension against a fake server: nothing is read before a skill is loaded, an
// honest skill loads verified, and each kind of tampering stops the load with a typed error.

import assert from "node:assert/strict";
import {
  CapabilityError,
  Client,
  type SkillEntry,
  SkillEntryError,
  skillEntryProblems,
  Skills,
  SkillVerificationError,
  StdioTransport,
} from "../../mod.ts";
import { fakeServer } from "../_helpers.ts";

/** A client on the skills fake, with every `read <uri>` line it logged. */
async function connect(args: string[] = [], protocol: "legacy" | "modern" = "legacy") {
  const reads: string[] = [];
  const client = await Client.connect(
    new StdioTransport(
      fakeServer("skills.ts", args, {
        stderr: (line) => line.startsWith("read ") && reads.push(line.slice(5)),
      }),
    ),
    { protocol },
  );
  return { client, reads };
}

const uri = (name: string, path = "SKILL.md") => `skill://${name}/${path}`;

for (const protocol of ["legacy", "modern"] as const) {
  const args = protocol === "modern" ? ["--modern"] : [];

  Deno.test(`an honest skill loads verified, SKILL.md first (${protocol} era)`, async () => {
    const { client, reads } = await connect(args, protocol);
    await using _ = client;
    const skills = new Skills(client);
    assert.ok(skills.available);
    const { skills: entries, ttlMs, cacheScope } = await skills.list();
    assert.deepEqual(entries.map((e) => e.frontmatter.name), [
      "pdf-processing",
      "tampered",
      "wrong-size",
      "lying-frontmatter",
    ]);
    assert.equal(ttlMs, 30_000);
    assert.equal(cacheScope, "public");
    assert.deepEqual(reads, [], "listing reads no file");
    const loaded = await skills.load(entries[0]!);
    assert.equal(loaded.name, "pdf-processing");
    assert.deepEqual(loaded.files.map((f) => f.path), ["SKILL.md", "references/FORMS.md"]);
    assert.match(new TextDecoder().decode(loaded.files[0]!.bytes), /^---\nname: pdf-processing/);
    assert.deepEqual(reads, [uri("pdf-processing"), uri("pdf-processing", "references/FORMS.md")]);
  });
}

Deno.test("nothing is read on connect or listing, only when a skill is loaded", async () => {
  const { client, reads } = await connect(["--page-size", "1"]);
  await using _ = client;
  const skills = new Skills(client);
  const { skills: entries } = await skills.list(); // four pages of one
  assert.equal(entries.length, 4);
  await skills.get(uri("tampered"));
  await client.ping(); // the fake has written every log line of the calls above
  assert.deepEqual(reads, []);
});

Deno.test("a tampered file of the same size fails its digest; nothing after it is returned", async () => {
  const { client, reads } = await connect();
  await using _ = client;
  const skills = new Skills(client);
  const error = await skills.load(uri("tampered")).then(() => assert.fail("loaded"), (e) => e);
  assert.ok(error instanceof SkillVerificationError, String(error));
  assert.equal(error.kind, "digest");
  assert.equal(error.file, uri("tampered", "references/FORMS.md"));
  assert.match(error.expected, /^sha256:[0-9a-f]{64}$/);
  assert.notEqual(error.actual, error.expected);
  assert.match(error.message, /skill:\/\/tampered\/references\/FORMS\.md failed verification/);
  assert.deepEqual(reads, [uri("tampered"), uri("tampered", "references/FORMS.md")]);
});

Deno.test("a file of another size than listed fails on its size", async () => {
  const { client } = await connect();
  await using _ = client;
  const error = await new Skills(client).load(uri("wrong-size")).then(
    () => assert.fail("loaded"),
    (e) => e,
  );
  assert.ok(error instanceof SkillVerificationError);
  assert.equal(error.kind, "size");
  assert.match(error.message, /its size is \d+ bytes, the listing says \d+ bytes/);
});

Deno.test("a SKILL.md whose frontmatter differs from the listing stops the load before any other file", async () => {
  const { client, reads } = await connect();
  await using _ = client;
  const error = await new Skills(client).load(uri("lying-frontmatter")).then(
    () => assert.fail("loaded"),
    (e) => e,
  );
  assert.ok(error instanceof SkillVerificationError);
  assert.equal(error.kind, "frontmatter");
  assert.equal(error.file, uri("lying-frontmatter"));
  assert.match(error.actual, /description: listed "The lying-frontmatter skill", file "Exfiltrate/);
  await client.ping();
  assert.deepEqual(reads, [uri("lying-frontmatter")], "FORMS.md is never asked for");
});

Deno.test("a URI that is not a skill, and invalid or dynamic entries, are refused before any read", async () => {
  const { client, reads } = await connect();
  await using _ = client;
  const skills = new Skills(client);
  await assert.rejects(skills.load("skill://nothing/SKILL.md"), /Not a skill/);
  const dynamic: SkillEntry = {
    uri: uri("pdf-processing"),
    frontmatter: { name: "pdf-processing" },
    resources: "dynamic",
  };
  await assert.rejects(skills.load(dynamic), SkillEntryError);
  const escaping = {
    uri: uri("pdf-processing"),
    frontmatter: {},
    resources: [
      { uri: uri("pdf-processing"), digest: `sha256:${"a".repeat(64)}`, size: 1 },
      { uri: "skill://pdf-processing/../other/SKILL.md", digest: "md5:x", size: -1 },
    ],
  } as SkillEntry;
  const problems = skillEntryProblems(escaping);
  assert.ok(problems.some((p) => /not inside the skill's folder/.test(p)), problems.join("\n"));
  assert.ok(problems.some((p) => /digest is not sha256/.test(p)));
  assert.ok(problems.some((p) => /size is not a whole number/.test(p)));
  await assert.rejects(skills.load(escaping), SkillEntryError);
  await client.ping();
  assert.deepEqual(reads, []);
});

Deno.test("a server without the extension is never asked for skills", async () => {
  await using client = await Client.connect(new StdioTransport(fakeServer("fast.ts")), {
    protocol: "legacy",
  });
  const skills = new Skills(client);
  assert.equal(skills.available, false);
  await assert.rejects(skills.list(), CapabilityError);
});
