/**
 * Skills over MCP: the `io.modelcontextprotocol/skills` extension (SEP-2640). A server lists
 * skills (`skills/list`, `skills/get`); each is a `SKILL.md` with YAML frontmatter plus files,
 * read with `resources/read` only when the skill is loaded, and verified against the listing: byte
 * size, SHA-256 digest, and the frontmatter field by field. A failed check stops the load: nothing
 * more of that skill is read or returned.
 *
 * @module
 */

import type { Client } from "../client/client.ts";
import { CapabilityError, ProtocolError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { RequestOptions } from "../session.ts";
import { checkBytes, compareFrontmatter, parseFrontmatter } from "./_verify.ts";

/**
 * The extension's identifier, the key under `capabilities.extensions`.
 *
 * @example
 * ```ts
 * import { SKILLS_EXTENSION } from "@mcp-inspect/client";
 * console.log(SKILLS_EXTENSION); // "io.modelcontextprotocol/skills"
 * ```
 */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills" as const;

/**
 * One file of a skill as its entry lists it.
 *
 * @example
 * ```ts
 * import type { SkillFileEntry } from "@mcp-inspect/client";
 * const file: SkillFileEntry = { uri: "skill://pdf/SKILL.md", digest: `sha256:${"0".repeat(64)}`, size: 120 };
 * ```
 */
export interface SkillFileEntry {
  /** The file's resource URI, under the skill's folder. */
  uri: string;
  /** `sha256:` and 64 lowercase hex digits. */
  digest: string;
  /** Its length in bytes. */
  size: number;
}

/**
 * A skill as `skills/list` and `skills/get` describe it.
 *
 * @example
 * ```ts
 * import type { SkillEntry } from "@mcp-inspect/client";
 * const entry: SkillEntry = {
 *   uri: "skill://pdf-processing/SKILL.md",
 *   frontmatter: { name: "pdf-processing", description: "Fill PDF forms" },
 *   resources: "dynamic",
 * };
 * ```
 */
export interface SkillEntry {
  /** The URI of its `SKILL.md`. */
  uri: string;
  /** The `SKILL.md` frontmatter, as the server says it is. */
  frontmatter: Record<string, unknown>;
  /** Every file of the skill, or `"dynamic"` when the server cannot list them ahead. */
  resources: SkillFileEntry[] | "dynamic";
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * Every skill a server lists, with the listing's cache hints.
 *
 * @example
 * ```ts
 * import type { SkillListing } from "@mcp-inspect/client";
 * const listing: SkillListing = { skills: [], ttlMs: 60_000, cacheScope: "session" };
 * ```
 */
export interface SkillListing {
  /** The entries of every page, as listed (see {@link skillEntryProblems} before trusting one). */
  skills: SkillEntry[];
  /** How long the listing may be kept, in milliseconds, when the server says. */
  ttlMs?: number | undefined;
  /** Who may share the cached listing, when the server says. */
  cacheScope?: string | undefined;
}

/**
 * One verified file of a loaded skill.
 *
 * @example
 * ```ts ignore
 * for (const file of skill.files) console.log(file.path, file.bytes.byteLength);
 * ```
 */
export interface SkillFile {
  /** Its resource URI. */
  uri: string;
  /** Its path inside the skill's folder, such as `SKILL.md` or `references/FORMS.md`. */
  path: string;
  /** Its bytes, verified against the entry's size and digest. */
  bytes: Uint8Array;
  /** Its MIME type, when the server gave one. */
  mimeType?: string | undefined;
}

/**
 * A skill whose every file was read and verified.
 *
 * @example
 * ```ts ignore
 * const skill = await skills.load("skill://pdf-processing/SKILL.md");
 * console.log(skill.name, skill.files.map((f) => f.path));
 * ```
 */
export interface LoadedSkill {
  /** The skill's name: the frontmatter `name`. */
  name: string;
  /** The entry it was verified against. */
  entry: SkillEntry;
  /** Its files, `SKILL.md` first. */
  files: SkillFile[];
}

/**
 * Limits of {@link Skills.load}, and paging of {@link Skills.list}.
 *
 * @example
 * ```ts
 * import type { SkillsOptions } from "@mcp-inspect/client";
 * const options: SkillsOptions = { maxFiles: 1024, maxBytes: 32 * 1024 * 1024 };
 * ```
 */
export interface SkillsOptions {
  /** The most files a skill may have (default 512, the least the extension asks hosts to take). */
  maxFiles?: number;
  /** The most bytes a skill's files may add up to (default 16 MiB, likewise). */
  maxBytes?: number;
  /** The most pages of `skills/list` read (default 64); a repeated cursor is an error. */
  maxPages?: number;
}

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
   * @example
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
 * @example
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
   * @example
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

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** The folder URI of a skill (its `SKILL.md` URI without `/SKILL.md`), or `undefined`. */
function skillRoot(uri: string): string | undefined {
  return uri.endsWith("/SKILL.md") && uri.length > "/SKILL.md".length
    ? uri.slice(0, -"/SKILL.md".length)
    : undefined;
}

/** A file's path inside its skill, if it is safely inside it. */
function relativePath(root: string, uri: string): string | undefined {
  if (!uri.startsWith(`${root}/`)) return undefined;
  const path = uri.slice(root.length + 1);
  const segments = path.split("/");
  if (segments.some((s) => s === "" || s === "." || s === ".." || s.includes("\\"))) {
    return undefined;
  }
  return path;
}

/**
 * Why an entry cannot be loaded as listed (an empty list when it can). `dynamic` skills are
 * valid entries but have no file list to verify against: {@link Skills.load} declines them.
 *
 * @example
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

/**
 * The skills of one connected server. Nothing is read on construction or on listing: a skill's
 * files are read by {@link Skills.load}, `SKILL.md` first, each verified before the next is asked.
 *
 * @example Listing and loading the skills of a server
 * ```ts ignore
 * import { Client, Skills, StdioTransport } from "@mcp-inspect/client";
 * await using client = await Client.connect(new StdioTransport({ command: "my-server" }));
 * const skills = new Skills(client);
 * if (skills.available) {
 *   const { skills: entries } = await skills.list();
 *   const loaded = await skills.load(entries[0]!);
 *   console.log(new TextDecoder().decode(loaded.files[0]!.bytes));
 * }
 * ```
 */
export class Skills {
  readonly #client: Client;
  readonly #maxFiles: number;
  readonly #maxBytes: number;
  readonly #maxPages: number;

  /**
   * Wraps a connected client.
   *
   * @example
   * ```ts ignore
   * const skills = new Skills(client, { maxFiles: 1024 });
   * ```
   */
  constructor(client: Client, options: SkillsOptions = {}) {
    this.#client = client;
    this.#maxFiles = options.maxFiles ?? 512;
    this.#maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    this.#maxPages = options.maxPages ?? 64;
  }

  /**
   * The extension's settings as the server declared them, or `undefined` when it did not.
   *
   * @example
   * ```ts ignore
   * console.log(new Skills(client).extension); // {} or { directoryRead: true }
   * ```
   */
  get extension(): Record<string, unknown> | undefined {
    const extensions = this.#client.serverCapabilities.extensions;
    if (typeof extensions !== "object" || extensions === null) return undefined;
    const value = (extensions as Record<string, unknown>)[SKILLS_EXTENSION];
    if (value === undefined) return undefined;
    return typeof value === "object" && value !== null ? value as Record<string, unknown> : {};
  }

  /**
   * Whether the server declared the extension: `skills/*` is called only then.
   *
   * @example
   * ```ts ignore
   * if (new Skills(client).available) console.log("this server ships skills");
   * ```
   */
  get available(): boolean {
    return this.extension !== undefined;
  }

  #require(method: string): void {
    if (!this.available) {
      throw new CapabilityError(method, `extensions["${SKILLS_EXTENSION}"]`);
    }
  }

  /**
   * Every skill of every page of `skills/list`.
   *
   * @example
   * ```ts ignore
   * const { skills, ttlMs } = await new Skills(client).list();
   * ```
   */
  async list(options: RequestOptions = {}): Promise<SkillListing> {
    this.#require("skills/list");
    const skills: SkillEntry[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let first: JsonObject | undefined;
    for (let page = 0; page < this.#maxPages; page++) {
      const result = await this.#client.request(
        "skills/list",
        cursor === undefined ? {} : { cursor },
        options,
      );
      first ??= result;
      if (!Array.isArray(result.skills)) {
        throw new ProtocolError("skills/list answered without a skills array");
      }
      skills.push(...result.skills as SkillEntry[]);
      const next = result.nextCursor;
      if (typeof next !== "string" || next === "") {
        return {
          skills,
          ttlMs: typeof first.ttlMs === "number" ? first.ttlMs : undefined,
          cacheScope: typeof first.cacheScope === "string" ? first.cacheScope : undefined,
        };
      }
      if (seen.has(next)) throw new ProtocolError(`skills/list repeated the cursor "${next}"`);
      seen.add(next);
      cursor = next;
    }
    throw new ProtocolError(`skills/list had more than ${this.#maxPages} pages`);
  }

  /**
   * The entry of one skill by its `SKILL.md` URI (`skills/get`): a `skill://` URI alone does not
   * make a skill, and a listing may be partial.
   *
   * @example
   * ```ts ignore
   * const entry = await new Skills(client).get("skill://pdf-processing/SKILL.md");
   * ```
   */
  async get(uri: string, options: RequestOptions = {}): Promise<SkillEntry> {
    this.#require("skills/get");
    const result = await this.#client.request("skills/get", { uri }, options);
    const skill = result.skill;
    if (typeof skill !== "object" || skill === null || Array.isArray(skill)) {
      throw new ProtocolError(`skills/get answered without a skill for ${uri}`);
    }
    return skill as SkillEntry;
  }

  /**
   * Reads and verifies every file of a skill, `SKILL.md` first: its size, its digest, then its
   * frontmatter against the entry's. The first mismatch throws {@link SkillVerificationError}
   * and no further file is read. A URI is looked up with {@link Skills.get} first.
   *
   * @example
   * ```ts ignore
   * const skill = await new Skills(client).load("skill://pdf-processing/SKILL.md");
   * for (const file of skill.files) console.log(file.path);
   * ```
   */
  async load(skill: SkillEntry | string, options: RequestOptions = {}): Promise<LoadedSkill> {
    const entry = typeof skill === "string" ? await this.get(skill, options) : skill;
    const problems = skillEntryProblems(entry);
    if (problems.length > 0) throw new SkillEntryError(String(entry?.uri), problems);
    if (entry.resources === "dynamic") {
      throw new SkillEntryError(entry.uri, [
        "its files are dynamic, so there is nothing to verify them against",
      ]);
    }
    const total = entry.resources.reduce((sum, file) => sum + file.size, 0);
    if (entry.resources.length > this.#maxFiles || total > this.#maxBytes) {
      throw new SkillEntryError(entry.uri, [
        `it lists ${entry.resources.length} files of ${total} bytes, over the limit of ` +
        `${this.#maxFiles} files and ${this.#maxBytes} bytes`,
      ]);
    }
    const root = skillRoot(entry.uri)!;
    // SKILL.md first: a tampered manifest stops the load before any other file is asked for.
    const ordered = [
      ...entry.resources.filter((f) => f.uri === entry.uri),
      ...entry.resources.filter((f) => f.uri !== entry.uri),
    ];
    const files: SkillFile[] = [];
    for (const listed of ordered) {
      const { bytes, mimeType } = await this.#read(listed.uri, options);
      const mismatch = await checkBytes(bytes, listed);
      if (mismatch) throw new SkillVerificationError(entry.uri, listed.uri, mismatch);
      if (listed.uri === entry.uri) {
        const frontmatter = await parseFrontmatter(new TextDecoder().decode(bytes));
        const differs = typeof frontmatter === "string"
          ? { kind: "frontmatter" as const, expected: "a frontmatter block", actual: frontmatter }
          : compareFrontmatter(frontmatter, entry.frontmatter);
        if (differs) throw new SkillVerificationError(entry.uri, listed.uri, differs);
      }
      files.push({ uri: listed.uri, path: relativePath(root, listed.uri)!, bytes, mimeType });
    }
    const name = typeof entry.frontmatter.name === "string"
      ? entry.frontmatter.name
      : root.split("/").pop()!;
    return { name, entry, files };
  }

  async #read(
    uri: string,
    options: RequestOptions,
  ): Promise<{ bytes: Uint8Array; mimeType: string | undefined }> {
    const { contents } = await this.#client.readResource(uri, { ...options, bypassCache: true });
    const content = contents.find((c) => c.uri === uri) ?? contents[0];
    if (content?.text !== undefined) {
      return { bytes: new TextEncoder().encode(content.text), mimeType: content.mimeType };
    }
    const blob = (content as { blob?: unknown } | undefined)?.blob;
    if (typeof blob === "string") {
      return {
        bytes: Uint8Array.from(atob(blob), (c) => c.charCodeAt(0)),
        mimeType: content?.mimeType,
      };
    }
    throw new ProtocolError(`resources/read of ${uri} returned no text or blob content`);
  }
}
