// The folder rule, checked: a file starting with `_` is private to its folder, and no runtime
// import cycle exists (type-only imports do not count: they are erased), among the TypeScript
// sources and among the web page's modules alike.

import assert from "node:assert/strict";
import { sourceFiles } from "./_helpers.ts";

const SRC = new URL("../src/", import.meta.url).pathname;
const PAGE = new URL("../src/ui/assets/", import.meta.url).pathname;

/** The TypeScript sources, then the web page's JavaScript modules. */
async function* allSources(): AsyncGenerator<string> {
  yield* sourceFiles(SRC);
  for await (const entry of Deno.readDir(PAGE)) {
    if (entry.isFile && entry.name.endsWith(".js")) yield `${PAGE}${entry.name}`;
  }
}

const IMPORT = /^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+"(\.[^"]+)"/gms;

/** The files each source file imports at run time (type-only imports left out). */
async function runtimeImports(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for await (const file of allSources()) {
    const text = await Deno.readTextFile(file);
    const deps: string[] = [];
    for (const [, typeOnly, clause, specifier] of text.matchAll(IMPORT)) {
      if (typeOnly) continue;
      const braces = /^\{([^}]*)\}$/s.exec(clause!.trim());
      const items = braces?.[1]?.split(",").map((i) => i.trim()).filter(Boolean) ?? [];
      if (braces && items.length > 0 && items.every((i) => i.startsWith("type "))) continue;
      deps.push(new URL(specifier!, `file://${file}`).pathname);
    }
    graph.set(file, deps);
  }
  return graph;
}

const folder = (path: string) => path.slice(0, path.lastIndexOf("/"));
const base = (path: string) => path.slice(path.lastIndexOf("/") + 1);
const short = (path: string) => path.replace(SRC, "src/");

Deno.test("no file imports another folder's private (_) file", async () => {
  const offending: string[] = [];
  for (const [file, deps] of await runtimeImports()) {
    for (const dep of deps) {
      if (base(dep).startsWith("_") && folder(dep) !== folder(file)) {
        offending.push(`${short(file)} -> ${short(dep)}`);
      }
    }
  }
  assert.deepEqual(offending, []);
});

Deno.test("no runtime import cycle among the source files", async () => {
  const graph = await runtimeImports();
  const cycles: string[][] = [];
  // Tarjan's strongly connected components, iteratively deep enough for this tree.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(short(w));
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  assert.deepEqual(cycles, []);
});
