/**
 * The public types of the skills extension (SEP-2640): its identifier, a skill's entry as a server
 * lists it, a skill as {@link Skills.load} returns it, and the options of {@link Skills}.
 *
 * @module
 */

/**
 * The extension's identifier, the key under `capabilities.extensions`.
 *
 * @example The extension's key in the capabilities
 * ```ts
 * import { SKILLS_EXTENSION } from "@mcp-inspect/client";
 * console.log(SKILLS_EXTENSION); // "io.modelcontextprotocol/skills"
 * ```
 */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills" as const;

/**
 * One file of a skill as its entry lists it.
 *
 * @example A file with its digest and size
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
 * @example An entry whose files are not listed ahead
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
 * @example An empty listing to cache for a minute
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
 * @example Printing each file's size
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
 *   handlers: { "resources/read": () => ({ contents: [{ uri, text }] }) },
 * });
 * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
 * const skill = await new Skills(client).load({ uri, frontmatter: { name: "greet" }, resources });
 * for (const file of skill.files) console.log(file.path, file.bytes.byteLength); // "SKILL.md" 28
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
 * @example Printing a loaded skill's name and files
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
 *   handlers: { "resources/read": () => ({ contents: [{ uri, text }] }) },
 * });
 * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
 * const skill = await new Skills(client).load({ uri, frontmatter: { name: "greet" }, resources });
 * console.log(skill.name, skill.files.map((f) => f.path)); // "greet" ["SKILL.md"]
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
 * @example Allowing more files and bytes
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
