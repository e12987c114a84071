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
 * ```ts ignore
 * try {
 *   await skills.load(entry);
 * } catch (error) {
 *   if (error instanceof SkillVerificationError) console.error(error.kind, error.file);
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
