// Interop over stdio with real npm servers where the process boundary matters: the environment that
// server-everything sees, server-filesystem following roots, and server-memory storing its graph at
// the path its env names. Every message the client sends is checked against the schema.

import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { DEFAULT_INHERITED_ENV_VARS } from "../../mod.ts";
import type { CheckedClient } from "../_helpers.ts";
import { connectNpm, everything, nextEvent, textOf } from "./_stdio.ts";
import { denoEnv } from "../_npm_servers.ts";

/** Polls until `check` holds; servers apply some changes (roots) after the call that caused them. */
async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A temporary directory (its real path, as servers resolve symlinks) removed on dispose. */
async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcp-interop-" }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

function root(path: string, name: string): { uri: string; name: string } {
  return { uri: pathToFileURL(path).href, name };
}

// ---------------------------------------------------------------------------------------------
// @modelcontextprotocol/server-everything

Deno.test("server-everything: the server sees only allowlisted variables plus the configured env", async () => {
  await using fx = await everything({}, { env: { MCP_INSPECT_INTEROP: "passed through" } });
  const env = JSON.parse(textOf(await fx.client.callTool("get-env"))) as Record<string, string>;
  assert.equal(env.MCP_INSPECT_INTEROP, "passed through");
  const allowed = new Set([
    ...DEFAULT_INHERITED_ENV_VARS,
    ...Object.keys(denoEnv()),
    "MCP_INSPECT_INTEROP",
  ]);
  // Deno itself sets npm_config_user_agent ("deno/2.x npm/? …") when it runs an npm package.
  assert.match(env.npm_config_user_agent ?? "deno/", /^deno\//);
  allowed.add("npm_config_user_agent");
  const leaked = Object.keys(env).filter((key) => !allowed.has(key));
  assert.deepEqual(leaked, [], `variables outside the allowlist reached the server`);
});

// ---------------------------------------------------------------------------------------------
// @modelcontextprotocol/server-filesystem

async function allowedDirectories(fx: CheckedClient): Promise<string[]> {
  const result = await fx.client.callTool("list_allowed_directories");
  return textOf(result).split("\n").slice(1);
}

Deno.test("server-filesystem: a directory given only as a root can be listed, written and read", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/seed.txt`, "planted by the test\n");
  await using fx = await connectNpm("filesystem", [], { roots: [root(dir.path, "scratch")] });
  // The server asks for roots after the handshake, so they take effect a moment later.
  await until(
    async () => (await allowedDirectories(fx)).includes(dir.path),
    "the root becomes an allowed directory",
  );

  const listing = await fx.client.callTool("list_directory", { path: dir.path });
  assert.equal(textOf(listing), "[FILE] seed.txt");
  assert.deepEqual(listing.structuredContent, { content: "[FILE] seed.txt" });

  const content = "line one\nligne deux — ünïcode\n";
  await fx.client.callTool("create_directory", { path: `${dir.path}/notes` });
  const written = await fx.client.callTool("write_file", {
    path: `${dir.path}/notes/hello.txt`,
    content,
  });
  assert.equal(written.isError, undefined, textOf(written));
  assert.equal(await Deno.readTextFile(`${dir.path}/notes/hello.txt`), content);

  const read = await fx.client.callTool("read_text_file", { path: `${dir.path}/notes/hello.txt` });
  assert.equal(textOf(read), content);
  const tree = await fx.client.callTool("list_directory", { path: dir.path });
  assert.deepEqual(textOf(tree).split("\n").sort(), ["[DIR] notes", "[FILE] seed.txt"]);

  const outside = await fx.client.callTool("read_text_file", { path: "/etc/hostname" });
  assert.equal(outside.isError, true);
  assert.match(textOf(outside), /Access denied/);
});

Deno.test("server-filesystem: setRoots() moves the server from its argument directory to a new root", async () => {
  await using first = await tempDir();
  await using second = await tempDir();
  // The server asks for the roots once initialized and applies the answer asynchronously (it stats
  // every root); a second answer (to the list_changed below) applied while the first is still in
  // flight can be overwritten by it. The first answer names a marker directory beside the argument
  // directory, so the test can see it applied before the roots change.
  await using marker = await tempDir();
  await using fx = await connectNpm("filesystem", [first.path], {
    roots: [root(first.path, "first"), root(marker.path, "marker")],
  });
  await until(
    async () => {
      const allowed = await allowedDirectories(fx);
      return allowed.includes(first.path) && allowed.includes(marker.path);
    },
    "the first roots (the argument directory and the marker) are allowed",
  );
  await fx.client.setRoots([root(second.path, "second")]);
  await until(
    async () => {
      const allowed = await allowedDirectories(fx);
      return allowed.includes(second.path) && !allowed.includes(first.path) &&
        !allowed.includes(marker.path);
    },
    "only the second directory is allowed",
  );
  const written = await fx.client.callTool("write_file", {
    path: `${second.path}/moved.txt`,
    content: "in the new root",
  });
  assert.equal(written.isError, undefined, textOf(written));
  assert.equal(await Deno.readTextFile(`${second.path}/moved.txt`), "in the new root");
  const denied = await fx.client.callTool("write_file", {
    path: `${first.path}/stale.txt`,
    content: "must not be written",
  });
  assert.equal(denied.isError, true);
  await assert.rejects(Deno.stat(`${first.path}/stale.txt`), Deno.errors.NotFound);
});

// ---------------------------------------------------------------------------------------------
// @modelcontextprotocol/server-memory

Deno.test("server-memory: the graph is stored at MEMORY_FILE_PATH passed through env", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/graph.jsonl`;
  const entities = [
    { name: "Ada", entityType: "person", observations: ["wrote the first program"] },
    { name: "Analytical Engine", entityType: "machine", observations: [] },
  ];
  const relations = [{ from: "Ada", to: "Analytical Engine", relationType: "programmed" }];
  {
    await using fx = await connectNpm("memory", [], {}, { env: { MEMORY_FILE_PATH: file } });
    const uri = "memory://knowledge-graph";
    await fx.client.subscribeResource(uri);
    const updated = nextEvent(fx, "resourceUpdated", (event) => event.uri === uri);
    const created = await fx.client.callTool("create_entities", { entities });
    assert.deepEqual(created.structuredContent, { entities });
    await updated;
    await fx.client.callTool("create_relations", { relations });
    const graph = await fx.client.callTool("read_graph");
    assert.deepEqual(graph.structuredContent, { entities, relations });
    const resource = await fx.client.readResource(uri);
    assert.deepEqual(JSON.parse(resource.contents[0]?.text ?? ""), { entities, relations });
  }

  const lines = (await Deno.readTextFile(file)).split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(lines, [
    ...entities.map((entity) => ({ type: "entity", ...entity })),
    ...relations.map((relation) => ({ type: "relation", ...relation })),
  ]);

  // A second server given the same path reads the graph back.
  await using again = await connectNpm("memory", [], {}, { env: { MEMORY_FILE_PATH: file } });
  const found = await again.client.callTool("open_nodes", { names: ["Ada"] });
  assert.deepEqual(found.structuredContent, { entities: [entities[0]], relations });
});
