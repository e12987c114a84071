/**
 * Errors of {@link Skills.load}: an entry that cannot be loaded as listed, and a file that does
 * not match its entry.
 *
 * @module
 */

/**
 * A skill file that does not match its entry: the load stopped there, and nothing of the skill
 * is returned.
 *
 * @example Telling a tampered file from a lying listing
 * ```ts
 * import { Client, MemoryTransport, Skills, SKILLS_EXTENSION, SkillVerificationError } from "@mcp-inspect/client";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * const uri = "skill://greet/SKILL.md", text = "---\nname: evil\n---\n";
 * const digest = `sha256:${"0".repeat(64)}`;
 * const entry = { uri, frontmatter: { name: "greet" }, resources: [{ uri, digest, size: 10 }] };
 * const server = new McpServer({
 *   serverInfo: { name: "docs", version: "1.0.0" },
 *   capabilities: { resources: {}, extensions: { [SKILLS_EXTENSION]: {} } },
 *   handlers: { "resources/read": () => ({ contents: [{ uri, text }] }) },
 * });
 * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
 * try {
 *   await new Skills(client).load(entry);
 * } catch (error) {
 *   if (!(error instanceof SkillVerificationError)) throw error;
 *   console.error(error.kind, error.expected, error.actual); // "size" "10 bytes" "19 bytes"
 * }
 * ```
 */
export class SkillVerificationError extends Error {
  /** The skill's `SKILL.md` URI. */
  readonly skill: string;
  /** The URI of the file that failed. */
  readonly file: string;
  /** What differed. */
  readonly kind: "size" | "digest" | "frontmatter";
  /** What the entry said. */
  readonly expected: string;
  /** What the file holds. */
  readonly actual: string;

  /**
   * Creates the error.
   *
   * @example A file whose size differs from its listing
   * ```ts
   * import { SkillVerificationError } from "@mcp-inspect/client";
   * const error = new SkillVerificationError("skill://a/SKILL.md", "skill://a/SKILL.md", {
   *   kind: "size",
   *   expected: "10 bytes",
   *   actual: "12 bytes",
   * });
   * console.log(error.message);
   * ```
   */
  constructor(
    skill: string,
    file: string,
    mismatch: { kind: "size" | "digest" | "frontmatter"; expected: string; actual: string },
  ) {
    const what = mismatch.kind === "frontmatter"
      ? `its frontmatter differs from the listed one (${mismatch.actual})`
      : `its ${mismatch.kind} is ${mismatch.actual}, the listing says ${mismatch.expected}`;
    super(`Skill file ${file} failed verification: ${what}; the skill was not loaded`);
    this.name = "SkillVerificationError";
    this.skill = skill;
    this.file = file;
    this.kind = mismatch.kind;
    this.expected = mismatch.expected;
    this.actual = mismatch.actual;
  }
}

/**
 * A skill that cannot be loaded as listed: an invalid entry, a dynamic one, or one over the limits.
 *
 * @example The message of a malformed entry
 * ```ts
 * import { SkillEntryError } from "@mcp-inspect/client";
 * console.log(new SkillEntryError("skill://a/SKILL.md", ["resources is missing"]).message);
 * ```
 */
export class SkillEntryError extends Error {
  /** The skill's `SKILL.md` URI. */
  readonly skill: string;
  /** Every reason, one sentence each. */
  readonly problems: string[];

  /**
   * Creates the error.
   *
   * @example The problems of an entry
   * ```ts
   * import { SkillEntryError } from "@mcp-inspect/client";
   * const error = new SkillEntryError("skill://a/SKILL.md", ["it lists 600 files"]);
   * console.log(error.problems);
   * ```
   */
  constructor(skill: string, problems: string[]) {
    super(`Cannot load skill ${skill}: ${problems.join("; ")}`);
    this.name = "SkillEntryError";
    this.skill = skill;
    this.problems = problems;
  }
}
