// `mcp-inspect skills list|show|load`: the skills a server ships (the SEP-2640 extension). Listing
// and showing read no skill file; `load` reads and verifies every file of one skill, and writes
// them with --out only once all of them passed. A server from a config file keeps its entry's
// allow and deny lists, matched against skill names as the manager matches them: `list` hides
// what they refuse, and `show` or `load` of a refused skill fails before any file is read.

import { dirname, relative, resolve } from "node:path";
import { type SkillEntry, skillEntryProblems, type SkillFileEntry, Skills } from "../../mod.ts";
import { closest, UsageError } from "./args.ts";
import { type Command, type Context, printJson } from "./command.ts";
import { oneLine, table } from "./format.ts";

function skillsOf(context: Context): Skills {
  const skills = new Skills(context.client);
  if (!skills.available) {
    throw new UsageError(
      'The server does not declare the skills extension ("io.modelcontextprotocol/skills")',
    );
  }
  return skills;
}

function options(context: Context) {
  return {
    signal: context.signal,
    timeoutMs: context.args.timeoutMs,
  };
}

/** A skill's name as the manager names it, and matches it against the lists. */
function nameOf(entry: SkillEntry): string {
  const name = entry.frontmatter?.name;
  return typeof name === "string" ? name : String(entry.uri);
}

/** The skills the config's lists allow (all without lists); `note` says how many they hid. */
function allowedSkills(context: Context, entries: SkillEntry[], note: boolean): SkillEntry[] {
  const { out, policy } = context;
  if (!policy) return entries;
  const say = note ? (line: string) => out.stderr(out.errStyle.dim(line)) : undefined;
  return policy.allowedSkills(entries, nameOf, say);
}

/** The entry a command names: by frontmatter name, or by URI (looked up with skills/get). */
async function find(context: Context, skills: Skills, wanted: string): Promise<SkillEntry> {
  const { skills: entries } = await skills.list(options(context));
  const named = entries.filter((e) => nameOf(e) === wanted || e.uri === wanted);
  const byName = allowedSkills(context, named, false);
  // A skill the lists refuse is refused as such, as `tools call` refuses a tool: not "unknown".
  if (byName.length === 0 && named.length > 0) context.policy?.check(nameOf(named[0]!), "skill");
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) {
    throw new UsageError(
      `Several skills are named "${wanted}": ${byName.map((e) => e.uri).join(", ")}; give a URI`,
    );
  }
  // A listing may be partial: a URI is asked for directly, and its name checked like the rest.
  if (wanted.includes("://")) {
    const entry = await skills.get(wanted, options(context));
    context.policy?.check(nameOf(entry), "skill");
    return entry;
  }
  // Among the allowed skills only: a refused one is no suggestion for a misspelt name.
  const suggestion = await closest(wanted, allowedSkills(context, entries, false).map(nameOf));
  throw new UsageError(
    `Unknown skill "${wanted}"${suggestion ? `; did you mean "${suggestion}"?` : ""}`,
  );
}

const skillsList: Command = {
  words: ["skills", "list"],
  async run(context) {
    const listing = await skillsOf(context).list(options(context));
    const skills = allowedSkills(context, listing.skills, true);
    if (context.args.json) {
      printJson(context, { ...listing, skills });
      return 0;
    }
    context.out.stdout(
      skills.length === 0 ? "No skills." : table(
        skills.map((e) => [
          nameOf(e),
          Array.isArray(e.resources) ? String(e.resources.length) : String(e.resources ?? "?"),
          oneLine(String(e.frontmatter?.description ?? ""), 60),
          skillEntryProblems(e).length > 0 ? "invalid entry" : "",
        ]),
        ["NAME", "FILES", "DESCRIPTION", ""].map(context.out.style.bold),
      ),
    );
    return 0;
  },
};

const skillsShow: Command = {
  words: ["skills", "show"],
  async run(context) {
    const [wanted] = context.positionals;
    if (wanted === undefined) throw new UsageError("Usage: skills show <name|uri>");
    const entry = await find(context, skillsOf(context), wanted);
    if (context.args.json) {
      printJson(context, entry);
      return 0;
    }
    const { bold } = context.out.style;
    const lines = [`${bold("uri:")} ${entry.uri}`];
    for (const [key, value] of Object.entries(entry.frontmatter ?? {})) {
      lines.push(`${bold(`${key}:`)} ${typeof value === "string" ? value : JSON.stringify(value)}`);
    }
    if (Array.isArray(entry.resources)) {
      lines.push(bold("files:"));
      for (const file of entry.resources) {
        lines.push(`  ${file.uri}  ${file.size} bytes  ${file.digest}`);
      }
    } else lines.push(`${bold("files:")} ${String(entry.resources)}`);
    for (const problem of skillEntryProblems(entry)) lines.push(`invalid entry: ${problem}`);
    context.out.stdout(lines.join("\n"));
    return 0;
  },
};

/** `<dir>/<name>/<path>` for each file, refusing any that would land outside `<dir>/<name>`. */
function targets(dir: string, name: string, paths: readonly string[]): string[] {
  const root = resolve(dir, name);
  if (relative(resolve(dir), root).startsWith("..") || name.includes("/") || name === "..") {
    throw new UsageError(`The skill's name "${name}" is not a folder name`);
  }
  return paths.map((path) => {
    const target = resolve(root, path);
    const inside = relative(root, target);
    if (inside.startsWith("..") || resolve(root, inside) !== target) {
      throw new UsageError(`The skill file "${path}" would be written outside ${root}`);
    }
    return target;
  });
}

const skillsLoad: Command = {
  words: ["skills", "load"],
  async run(context) {
    const [wanted] = context.positionals;
    if (wanted === undefined) throw new UsageError("Usage: skills load <name|uri> [--out <dir>]");
    const skills = skillsOf(context);
    const entry = await find(context, skills, wanted);
    // Every file is read and verified before anything is written: a failure writes nothing.
    const skill = await skills.load(entry, options(context));
    // A loaded skill had a file list: a dynamic one is refused by load().
    const digests = new Map(
      (skill.entry.resources as SkillFileEntry[]).map((r) => [r.uri, r.digest]),
    );
    const files = skill.files.map((f) => ({
      path: f.path,
      uri: f.uri,
      size: f.bytes.byteLength,
      digest: digests.get(f.uri)!,
    }));
    const dir = context.args.outDir;
    const written = dir === undefined ? [] : targets(dir, skill.name, files.map((f) => f.path));
    for (const [i, target] of written.entries()) {
      await Deno.mkdir(dirname(target), { recursive: true });
      await Deno.writeFile(target, skill.files[i]!.bytes);
    }
    if (context.args.json) {
      const out = dir === undefined ? {} : { written: written };
      context.out.stdout(
        JSON.stringify({ name: skill.name, uri: entry.uri, files, ...out }, null, 2),
      );
      return 0;
    }
    for (const file of files) context.out.stderr(`verified ${file.path} (${file.size} bytes)`);
    if (dir === undefined) {
      context.out.stdout(new TextDecoder().decode(skill.files[0]!.bytes));
    } else {
      context.out.stdout(
        `${skill.name}: ${files.length} file(s) written to ${resolve(dir, skill.name)}`,
      );
    }
    return 0;
  },
};

/** The `skills` commands. */
export const SKILLS_COMMANDS: readonly Command[] = [skillsList, skillsShow, skillsLoad];

/** What `check` records: a level, the check's name and a detail. */
type Add = (level: "ok" | "warning" | "problem", check: string, detail: string) => void;

/**
 * The skills part of `check`: every listed entry is validated, and every skill with a file list
 * is loaded to verify its files' sizes, digests and frontmatter (unless the server cannot serve
 * files at all: one problem says so).
 */
export async function checkSkills(context: Context, add: Add): Promise<void> {
  const skills = new Skills(context.client);
  let entries: SkillEntry[];
  try {
    entries = (await skills.list(options(context))).skills;
  } catch (error) {
    add("problem", "skills/list", (error as Error).message);
    return;
  }
  add("ok", "skills/list", `${entries.length} skill(s)`);
  // Skill files are read with resources/read: without the capability none can be, and saying so
  // once names the fault instead of failing every skill with the same error.
  const readable = context.client.serverCapabilities.resources !== undefined;
  if (!readable) {
    add(
      "problem",
      "skills",
      "the server declares the skills extension but not the resources capability, so none of " +
        "its skills' files can be read",
    );
  }
  const names = new Map<string, number>();
  for (const entry of entries) names.set(nameOf(entry), (names.get(nameOf(entry)) ?? 0) + 1);
  for (const [name, count] of names) {
    if (count > 1) add("warning", "skills", `"${name}" is listed ${count} times`);
  }
  for (const entry of entries) {
    const label = `skill ${nameOf(entry)}`;
    const problems = skillEntryProblems(entry);
    if (problems.length > 0) {
      add("problem", label, `invalid entry: ${problems.join("; ")}`);
      continue;
    }
    if (entry.resources === "dynamic") {
      add("warning", label, "dynamic: its files cannot be verified");
      continue;
    }
    if (!readable) continue;
    try {
      const loaded = await skills.load(entry, options(context));
      add("ok", label, `${loaded.files.length} file(s) verified`);
    } catch (error) {
      add("problem", label, (error as Error).message);
    }
  }
}
