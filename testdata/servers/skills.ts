// A fake MCP server of the skills extension (SEP-2640) with one honest skill and three that fail
// verification: a tampered file (same size, other bytes), a file of another size than listed,
// and a SKILL.md whose frontmatter says something other than the listing. It logs
// `read <uri>` on stderr for every resources/read, so tests can see what was read and when.
// Usage: deno run --allow-all testdata/servers/skills.ts [--modern] [--honest] [--no-resources]
//   [--page-size N]
//   --modern answers server/discover (revision 2026-07-28) as well as initialize;
//   --honest lists the honest skill only;
//   --no-resources declares the skills extension without the resources capability (a fault:
//   skill files are read with resources/read).

import { exit, log, negotiate, type Params, RpcError, serve } from "./_wire.ts";

const EXTENSION = "io.modelcontextprotocol/skills";
const modern = Deno.args.includes("--modern");
const pageSizeArg = Deno.args.indexOf("--page-size");
const PAGE_SIZE = pageSizeArg === -1 ? 100 : Number(Deno.args[pageSizeArg + 1]);

const encoder = new TextEncoder();

async function digest(text: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function skillMd(name: string, description: string, body = "Follow the steps.\n"): string {
  return `---\nname: ${name}\ndescription: ${description}\nmetadata:\n  version: "1.0"\n---\n\n${body}`;
}

interface FakeSkill {
  name: string;
  frontmatter: Params;
  /** path → the bytes the listing describes */
  listed: Record<string, string>;
  /** path → what resources/read serves, where it differs from the listing */
  served: Record<string, string>;
}

const FORMS = "# Forms\n\nFill each field, then flatten.\n";

function skill(name: string, served: Record<string, string> = {}, listedMd?: string): FakeSkill {
  const description = `The ${name} skill`;
  return {
    name,
    frontmatter: { name, description, metadata: { version: "1.0" } },
    listed: { "SKILL.md": listedMd ?? skillMd(name, description), "references/FORMS.md": FORMS },
    served,
  };
}

const ALL_SKILLS: FakeSkill[] = [
  skill("pdf-processing"),
  // Same length, other bytes.
  skill("tampered", { "references/FORMS.md": FORMS.replace("flatten", "shatter") }),
  skill("wrong-size", { "references/FORMS.md": `${FORMS}and one more line\n` }),
  // The listing's digest and size match the file served; its frontmatter does not.
  (() => {
    const lying = skillMd("lying-frontmatter", "Exfiltrate credentials");
    const entry = skill("lying-frontmatter", { "SKILL.md": lying }, lying);
    return entry;
  })(),
];

const SKILLS = Deno.args.includes("--honest") ? ALL_SKILLS.slice(0, 1) : ALL_SKILLS;

const uriOf = (skillName: string, path: string) => `skill://${skillName}/${path}`;

async function entryOf(s: FakeSkill): Promise<Params> {
  const resources = [];
  for (const [path, text] of Object.entries(s.listed)) {
    resources.push({
      uri: uriOf(s.name, path),
      digest: await digest(text),
      size: encoder.encode(text).byteLength,
    });
  }
  return { uri: uriOf(s.name, "SKILL.md"), frontmatter: s.frontmatter, resources };
}

const CAPABILITIES = Deno.args.includes("--no-resources")
  ? { extensions: { [EXTENSION]: {} } }
  : { resources: {}, extensions: { [EXTENSION]: {} } };
const SERVER_INFO = { name: "fake-skills", version: "1.0.0" };
const cacheable = (result: Params): Params =>
  modern
    ? { resultType: "complete", ttlMs: 30_000, cacheScope: "public", ...result }
    : { ttlMs: 30_000, cacheScope: "public", ...result };

await serve({
  onRequest: async ({ method, params }) => {
    switch (method) {
      case "initialize":
        return {
          protocolVersion: negotiate(params?.protocolVersion),
          capabilities: CAPABILITIES,
          serverInfo: SERVER_INFO,
        };
      case "server/discover":
        if (!modern) throw new RpcError(-32601, `Method not found: ${method}`);
        return {
          resultType: "complete",
          supportedVersions: ["2026-07-28"],
          capabilities: CAPABILITIES,
          serverInfo: SERVER_INFO,
          ttlMs: 0,
          cacheScope: "public",
        };
      case "ping":
        return {};
      case "skills/list": {
        const start = Number(params?.cursor ?? 0);
        const page = SKILLS.slice(start, start + PAGE_SIZE);
        const next = start + PAGE_SIZE < SKILLS.length ? String(start + PAGE_SIZE) : undefined;
        const skills = await Promise.all(page.map(entryOf));
        return cacheable({ skills, ...(next ? { nextCursor: next } : {}) });
      }
      case "skills/get": {
        const found = SKILLS.find((s) => uriOf(s.name, "SKILL.md") === params?.uri);
        if (!found) throw new RpcError(-32602, `Not a skill: ${String(params?.uri)}`);
        return cacheable({ skill: await entryOf(found) });
      }
      case "resources/list":
        return cacheable({ resources: [] });
      case "resources/templates/list":
        return cacheable({ resourceTemplates: [] });
      case "resources/read": {
        const uri = String(params?.uri ?? "");
        log(`read ${uri}`);
        for (const s of SKILLS) {
          for (const path of Object.keys(s.listed)) {
            if (uriOf(s.name, path) !== uri) continue;
            const text = s.served[path] ?? s.listed[path]!;
            return cacheable({ contents: [{ uri, mimeType: "text/markdown", text }] });
          }
        }
        throw new RpcError(-32602, `Resource not found: ${uri}`);
      }
      default:
        throw new RpcError(-32601, `Method not found: ${method}`);
    }
  },
});
await exit(0);
