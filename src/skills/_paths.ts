// Where a skill's files sit: the folder of its SKILL.md, and each file's path inside it. The entry
// check refuses a file outside the folder with these, and Skills.load names each file's path.

/** The folder URI of a skill (its `SKILL.md` URI without `/SKILL.md`), or `undefined`. */
export function skillRoot(uri: string): string | undefined {
  return uri.endsWith("/SKILL.md") && uri.length > "/SKILL.md".length
    ? uri.slice(0, -"/SKILL.md".length)
    : undefined;
}

/** A file's path inside its skill, if it is safely inside it. */
export function relativePath(root: string, uri: string): string | undefined {
  if (!uri.startsWith(`${root}/`)) return undefined;
  const path = uri.slice(root.length + 1);
  const segments = path.split("/");
  if (segments.some((s) => s === "" || s === "." || s === ".." || s.includes("\\"))) {
    return undefined;
  }
  return path;
}
