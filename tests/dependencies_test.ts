// The root deno.json holds what the published code imports, and nothing else, so that running the
// CLI from a clone (`deno task demo`) downloads only that; tests and benchmarks resolve through
// tests/deno.json, with its own lockfile, which adds what only they use (the official SDKs, the
// browser driver, the fake clock). These checks keep the two in step.

import assert from "node:assert/strict";
import { sourceFiles } from "./_helpers.ts";

const ROOT = new URL("..", import.meta.url).pathname;

interface Config {
  name: string;
  fmt: { lineWidth: number };
  lint: unknown;
  exports: Record<string, string>;
  imports: Record<string, string>;
  compilerOptions: unknown;
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await Deno.readTextFile(`${ROOT}${path}`)) as T;
}

/** The source of the published code: the entry points and everything under src/. */
async function publishedSource(): Promise<string> {
  const files = [`${ROOT}mod.ts`, `${ROOT}cli.ts`];
  for await (const file of sourceFiles(`${ROOT}src/`)) files.push(file);
  return (await Promise.all(files.map((file) => Deno.readTextFile(file)))).join("\n");
}

Deno.test("tests/deno.json has every import of the root, pinned alike, and the same compiler, fmt and lint options", async () => {
  const root = await readJson<Config>("deno.json");
  const tests = await readJson<Config>("tests/deno.json");
  for (const [name, specifier] of Object.entries(root.imports)) {
    assert.equal(
      tests.imports[name],
      specifier,
      `tests/deno.json imports ${name}`,
    );
  }
  // Doc tests import the package by name: each entry point maps to its file.
  for (const [entry, file] of Object.entries(root.exports)) {
    assert.equal(
      tests.imports[`${root.name}${entry.slice(1)}`],
      `.${file}`,
      `entry ${entry}`,
    );
  }
  assert.deepEqual(tests.compilerOptions, root.compilerOptions);
  // `deno fmt` and `deno lint` given a path under tests/ take this config, not the root's.
  assert.equal(tests.fmt.lineWidth, root.fmt.lineWidth);
  assert.deepEqual(tests.lint, root.lint);
});

Deno.test("every import of the root deno.json is used by the published code", async () => {
  const { imports } = await readJson<Config>("deno.json");
  const source = await publishedSource();
  const unused = Object.keys(imports).filter((name) =>
    !source.includes(`"${name}"`) && !source.includes(`"${name}/`)
  );
  assert.deepEqual(
    unused,
    [],
    "imports only tests or benchmarks use belong in tests/deno.json",
  );
});

Deno.test("the root lockfile holds no package that only tests and benchmarks use", async () => {
  const root = await readJson<Config>("deno.json");
  const tests = await readJson<Config>("tests/deno.json");
  const testOnly = Object.entries(tests.imports)
    .filter(([name, specifier]) => !(name in root.imports) && specifier.startsWith("npm:"))
    .map(([, specifier]) => specifier.slice("npm:".length).replace(/@[^@/]*$/, ""));
  assert.ok(
    testOnly.includes("puppeteer-core"),
    `test-only packages: ${testOnly.join(", ")}`,
  );
  const lock = await readJson<
    { specifiers?: Record<string, string>; npm?: Record<string, unknown> }
  >(
    "deno.lock",
  );
  const locked = [
    ...Object.keys(lock.specifiers ?? {}),
    ...Object.keys(lock.npm ?? {}),
  ];
  const leaked = locked.filter((entry) =>
    testOnly.some((name) => entry.startsWith(`npm:${name}@`) || entry.startsWith(`${name}@`))
  );
  assert.deepEqual(
    leaked,
    [],
    "regenerate deno.lock: deno cache mod.ts cli.ts src/**/*.ts",
  );
});

Deno.test("the tests' lockfile pins every package version the root lockfile pins", async () => {
  // Tests run the CLI with the root config and --cached-only: what it needs must be what the test
  // run itself cached, version for version.
  type Lock = { npm?: Record<string, unknown> };
  const root = await readJson<Lock>("deno.lock");
  const tests = await readJson<Lock>("tests/deno.lock");
  const missing = Object.keys(root.npm ?? {}).filter((entry) => !(entry in (tests.npm ?? {})));
  assert.deepEqual(missing, [], "run deno task test to bring tests/deno.lock up to date");
});
