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
import { skillEntryProblems } from "./entry.ts";
import { SkillEntryError, SkillVerificationError } from "./errors.ts";
import { relativePath, skillRoot } from "./_paths.ts";
import {
  type LoadedSkill,
  type SkillEntry,
  type SkillFile,
  type SkillListing,
  SKILLS_EXTENSION,
  type SkillsOptions,
} from "./types.ts";
import { checkBytes, compareFrontmatter, parseFrontmatter } from "./_verify.ts";

export * from "./entry.ts";
export * from "./errors.ts";
export * from "./types.ts";

/**
 * The skills of one connected server. Nothing is read on construction or on listing: a skill's
 * files are read by {@link Skills.load}, `SKILL.md` first, each verified before the next is asked.
 *
 * @example Listing and loading the skills of a server
 * ```ts
 * import { Client, MemoryTransport, Skills, SKILLS_EXTENSION } from "@mcp-inspect/client";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * const uri = "skill://greet/SKILL.md", text = "---\nname: greet\n---\nSay hi.\n";
 * const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
 * const resources = [{ uri, digest: `sha256:${new Uint8Array(hash).toHex()}`, size: text.length }];
 * const server = new McpServer({
 *   serverInfo: { name: "docs", version: "1.0.0" },
 *   capabilities: { resources: {}, extensions: { [SKILLS_EXTENSION]: {} } },
 *   handlers: {
 *     "skills/list": () => ({ skills: [{ uri, frontmatter: { name: "greet" }, resources }] }),
 *     "resources/read": () => ({ contents: [{ uri, text }] }),
 *   },
 * });
 * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
 * const skills = new Skills(client);
 * if (skills.available) {
 *   const { skills: entries } = await skills.list();
 *   const loaded = await skills.load(entries[0]!);
 *   console.log(new TextDecoder().decode(loaded.files[0]!.bytes));
 *   // "---\nname: greet\n---\nSay hi.\n"
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
   * @example Allowing more files per skill
   * ```ts
   * import { Client, Skills } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * await using client = await Client.connect(new FakeServer().transport());
   * const skills = new Skills(client, { maxFiles: 1024 });
   * console.log(skills.available); // false: the fake declares no skills extension
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
   * @example Reading the extension's settings
   * ```ts
   * import { Client, MemoryTransport, Skills, SKILLS_EXTENSION } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "docs", version: "1.0.0" },
   *   capabilities: { extensions: { [SKILLS_EXTENSION]: { directoryRead: true } } },
   *   handlers: {},
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * console.log(new Skills(client).extension); // { directoryRead: true }
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
   * Whether the server declared the extension: `skills/*` is called only then. Loading a skill
   * reads its files with `resources/read`, which also needs the server's `resources` capability.
   *
   * @example Checking for skills before listing them
   * ```ts
   * import { Client, MemoryTransport, Skills, SKILLS_EXTENSION } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "docs", version: "1.0.0" },
   *   capabilities: { extensions: { [SKILLS_EXTENSION]: {} } },
   *   handlers: {},
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * if (new Skills(client).available) console.log("this server ships skills");
   * // "this server ships skills"
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
   * @example Listing a server's skills and how long to cache them
   * ```ts
   * import { Client, MemoryTransport, Skills, SKILLS_EXTENSION } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const server = new McpServer({
   *   serverInfo: { name: "docs", version: "1.0.0" },
   *   capabilities: { extensions: { [SKILLS_EXTENSION]: {} } },
   *   handlers: { "skills/list": () => ({ skills: [], ttlMs: 60_000 }) },
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * const { skills, ttlMs } = await new Skills(client).list();
   * console.log(skills, ttlMs); // [] 60000
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
   * @example Reading one skill's entry
   * ```ts
   * import { Client, MemoryTransport, Skills, SKILLS_EXTENSION } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const entry = { frontmatter: { name: "pdf-processing" }, resources: "dynamic" };
   * const server = new McpServer({
   *   serverInfo: { name: "docs", version: "1.0.0" },
   *   capabilities: { extensions: { [SKILLS_EXTENSION]: {} } },
   *   handlers: { "skills/get": ({ uri }) => ({ skill: { uri, ...entry } }) },
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * const skill = await new Skills(client).get("skill://pdf-processing/SKILL.md");
   * console.log(skill.frontmatter, skill.resources); // { name: "pdf-processing" } "dynamic"
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
   * @example Loading a skill and printing its file paths
   * ```ts
   * import { Client, MemoryTransport, Skills, SKILLS_EXTENSION } from "@mcp-inspect/client";
   * import { McpServer } from "@mcp-inspect/client/server";
   *
   * const uri = "skill://greet/SKILL.md", text = "---\nname: greet\n---\nSay hi.\n";
   * const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
   * const digest = `sha256:${new Uint8Array(hash).toHex()}`;
   * const resources = [{ uri, digest, size: text.length }];
   * const server = new McpServer({
   *   serverInfo: { name: "docs", version: "1.0.0" },
   *   capabilities: { resources: {}, extensions: { [SKILLS_EXTENSION]: {} } },
   *   handlers: {
   *     "skills/get": () => ({ skill: { uri, frontmatter: { name: "greet" }, resources } }),
   *     "resources/read": () => ({ contents: [{ uri, text }] }),
   *   },
   * });
   * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
   * const skill = await new Skills(client).load("skill://greet/SKILL.md");
   * for (const file of skill.files) console.log(file.path); // "SKILL.md"
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
