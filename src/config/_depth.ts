// How deeply a JSON(C) config file nests, found by a scan of its text before any parser sees it:
// jsonc-parser recurses, so a file nested 200 000 levels deep would end in a RangeError (stack
// overflow) instead of an error that names the file. Real config files nest a handful of levels.
// YAML nests without brackets too (`- - - x`, indentation): _yaml_depth.ts measures it.

/** The deepest nesting a config file may have. */
export const MAX_CONFIG_DEPTH = 256;

/**
 * The offset at which `text` opens its `limit + 1`-th nested `{` or `[`, or `undefined` when it
 * stays within `limit`. Brackets inside JSONC strings and `//`, `/* *\/` comments do not count.
 */
export function tooDeepAt(text: string, limit: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = endOfString(text, i);
    } else if (c === "/" && text[i + 1] === "/") {
      i = lineEnd(text, i);
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (c === "{" || c === "[") {
      if (++depth > limit) return i;
    } else if (c === "}" || c === "]") {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end === -1 ? text.length : end;
}

/** The offset of the quote closing the string opened at `start` (or the end of the text). */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === '"') return i;
  }
  return text.length;
}
