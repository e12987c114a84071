/**
 * The check of a skill's entry before anything of it is read: its `SKILL.md` URI, its
 * frontmatter, and its file list (each file's URI, digest and size, `SKILL.md` among them).
 *
 * @module
 */

import { relativePath, skillRoot } from "./_paths.ts";

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * Why an entry cannot be loaded as listed (an empty list when it can). `dynamic` skills are
 * valid entries but have no file list to verify against: {@link Skills.load} declines them.
 *
 * @example Listing what is wrong with an entry
 * ```ts
 * import { skillEntryProblems } from "@mcp-inspect/client";
 * console.log(skillEntryProblems({ uri: "skill://a/SKILL.md", frontmatter: {} }));
 * ```
 */
export function skillEntryProblems(entry: unknown): string[] {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return ["the entry is not an object"];
  }
  const { uri, frontmatter, resources } = entry as Record<string, unknown>;
  const problems: string[] = [];
  const root = typeof uri === "string" ? skillRoot(uri) : undefined;
  if (typeof uri !== "string") problems.push("uri is missing");
  else if (root === undefined) problems.push(`uri ${uri} does not name a SKILL.md`);
  if (typeof frontmatter !== "object" || frontmatter === null || Array.isArray(frontmatter)) {
    problems.push("frontmatter is missing or not an object");
  }
  if (resources === "dynamic") return problems;
  if (!Array.isArray(resources)) {
    problems.push('resources is missing, and not "dynamic"');
    return problems;
  }
  resources.forEach((file: unknown, i) => {
    const f = (typeof file === "object" && file !== null ? file : {}) as Record<string, unknown>;
    const label = typeof f.uri === "string" ? f.uri : `resources[${i}]`;
    if (typeof f.uri !== "string") problems.push(`${label}: uri is missing`);
    else if (root !== undefined && relativePath(root, f.uri) === undefined) {
      problems.push(`${label}: not inside the skill's folder ${root}/`);
    }
    if (typeof f.digest !== "string" || !DIGEST.test(f.digest)) {
      problems.push(`${label}: digest is not sha256:<64 lowercase hex digits>`);
    }
    if (typeof f.size !== "number" || !Number.isSafeInteger(f.size) || f.size < 0) {
      problems.push(`${label}: size is not a whole number of bytes`);
    }
  });
  const listsSkillMd = resources.some((f) => (f as { uri?: unknown })?.uri === uri);
  if (typeof uri === "string" && !listsSkillMd) problems.push(`resources does not list ${uri}`);
  return problems;
}
