// How deeply a config file nests, found by a scan of its text before any parser sees it: the
// parsers recurse, so a file nested 200 000 levels deep would end in a RangeError (stack
// overflow) instead of an error that names the file. Real config files nest a handful of levels.

/** The deepest nesting a config file may have. */
export const MAX_CONFIG_DEPTH = 256;

/**
 * The offset at which `text` opens its `limit + 1`-th nested `{` or `[`, or `undefined` when it
 * stays within `limit`. Brackets inside strings and comments do not count: JSONC strings and
 * `//`, `/* *\/` comments, or YAML quoted scalars and `#` comments (`yaml: true`).
 */
export function tooDeepAt(text: string, limit: number, yaml = false): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || (yaml && c === "'")) {
      i = endOfString(text, i, c);
    } else if (!yaml && c === "/" && text[i + 1] === "/") {
      i = lineEnd(text, i);
    } else if (!yaml && c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (yaml && c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      i = lineEnd(text, i);
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
function endOfString(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    // YAML single quotes escape themselves (''), JSON and YAML double quotes use a backslash.
    if (c === "\\" && quote === '"') i++;
    else if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  return text.length;
}
