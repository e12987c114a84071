// How deeply a YAML config file nests, measured on yaml's concrete syntax tree before the
// document is composed. A text scan for brackets cannot see YAML's block nesting: `- - - x` and
// ever deeper indentation nest without a bracket, and yaml's composer recurses once per level, so
// a 400 KB line of `- ` ended in "Maximum call stack size exceeded" (at about 900 levels here).
// yaml's lexer and parser keep their own stack, so they read such a file without recursing, and the
// walk below keeps its own stack too.

import { type CST, Parser } from "yaml";

/**
 * The offset of the first collection (block or flow) of `text` nested more than `limit` levels
 * deep, or `undefined` when every document stays within `limit`.
 */
export function yamlTooDeepAt(text: string, limit: number): number | undefined {
  for (const token of new Parser().parse(text)) {
    if (token.type !== "document" || !token.value) continue;
    const stack: [CST.Token, number][] = [[token.value, 1]];
    while (stack.length > 0) {
      const [node, depth] = stack.pop()!;
      if (
        node.type !== "block-map" && node.type !== "block-seq" && node.type !== "flow-collection"
      ) {
        continue;
      }
      if (depth > limit) return node.offset;
      for (const item of node.items) {
        if (item.key) stack.push([item.key, depth + 1]);
        if (item.value) stack.push([item.value, depth + 1]);
      }
    }
  }
  return undefined;
}
