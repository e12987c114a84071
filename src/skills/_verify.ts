// Checks of one skill file against the entry that listed it (SEP-2640, integrity and
// verification): byte size first (a mismatch needs no digest), then the SHA-256 digest, then, for
// SKILL.md, its YAML frontmatter against the listed frontmatter, field by field.

import canonicalize from "canonicalize";

/** How a file failed its check. */
export type Mismatch = {
  kind: "size" | "digest" | "frontmatter";
  expected: string;
  actual: string;
};

/** The lowercase hex SHA-256 of `bytes`, as `sha256:<hex>`. */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The first difference between a file and its listed size and digest, if any. */
export async function checkBytes(
  bytes: Uint8Array,
  listed: { size: number; digest: string },
): Promise<Mismatch | undefined> {
  if (bytes.byteLength !== listed.size) {
    return { kind: "size", expected: `${listed.size} bytes`, actual: `${bytes.byteLength} bytes` };
  }
  const digest = await sha256(bytes);
  if (digest !== listed.digest) return { kind: "digest", expected: listed.digest, actual: digest };
  return undefined;
}

// A leading `---` line, the YAML, and a closing `---` line (an optional BOM before it all).
const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The frontmatter of a SKILL.md as an object, or a reason it has none. */
export async function parseFrontmatter(text: string): Promise<Record<string, unknown> | string> {
  const block = FRONTMATTER.exec(text)?.[1];
  if (block === undefined) {
    return "SKILL.md does not begin with a --- delimited YAML frontmatter block";
  }
  // Loaded here: only a skill load needs YAML.
  const { parse: parseYaml } = await import("yaml");
  let value: unknown;
  try {
    value = parseYaml(block);
  } catch (error) {
    return `its frontmatter is not valid YAML: ${(error as Error).message.split("\n")[0]}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "its frontmatter is not a YAML mapping";
  }
  return value as Record<string, unknown>;
}

/** The fields whose values differ between the file's frontmatter and the listed one. */
export function compareFrontmatter(
  file: Record<string, unknown>,
  listed: Record<string, unknown>,
): Mismatch | undefined {
  const differing: string[] = [];
  const shown: string[] = [];
  for (const key of new Set([...Object.keys(file), ...Object.keys(listed)])) {
    const a = canonicalize(file[key] ?? null);
    const b = canonicalize(listed[key] ?? null);
    if (a === b) continue;
    differing.push(key);
    shown.push(`${key}: listed ${b}, file ${a}`);
  }
  if (differing.length === 0) return undefined;
  return { kind: "frontmatter", expected: "the listed frontmatter", actual: shown.join("; ") };
}
