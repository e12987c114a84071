// The CLI reading a config file, as a subprocess: unknown keys are warnings (errors with
// --strict) in every command that reads one, an unset variable names itself and the file, and a
// relative command runs from the config file's folder.

import assert from "node:assert/strict";
import { fixture } from "../_helpers.ts";
import { cli, cliCommand, runOf } from "../_cli_run.ts";

const EVERYTHING = ["run", "--allow-all", "--no-config", fixture("everything.ts")];

/** A temporary folder holding `files` (objects are written as JSON), removed when disposed. */
async function folderWith(files: Record<string, unknown>) {
  const dir = await Deno.makeTempDir({ prefix: "mcp-inspect-config-" });
  for (const [name, content] of Object.entries(files)) {
    const text = typeof content === "string" ? content : JSON.stringify(content, null, 2);
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

/** A config whose only server is the everything fake with a misspelled deny list. */
const misspelled = {
  mcpServers: {
    fs: { command: Deno.execPath(), args: EVERYTHING, denyTools: ["echo"] },
  },
};
/** The line of "denyTools" in the file as written. */
const LINE =
  JSON.stringify(misspelled, null, 2).split("\n").findIndex((l) => l.includes("denyTools")) +
  1;

Deno.test("a misspelled key is a warning naming the file, the line and the key it meant", async () => {
  await using folder = await folderWith({ ".mcp.json": misspelled });
  const file = `${folder.dir}/.mcp.json`;
  const run = await cli("ping", "--config", file);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    new RegExp(
      `warning: ${file}:${LINE}: unknown key "denyTools" in server "fs" \\(did you mean "deny"\\?\\)`,
    ),
  );
  const strict = await cli("ping", "--config", file, "--strict");
  assert.equal(strict.code, 2, strict.stderr);
  assert.match(
    strict.stderr,
    new RegExp(`error: .*:${LINE}: unknown key "denyTools" in server "fs"`),
  );
});

Deno.test("servers and proxy warn of unknown keys, and exit 2 with --strict", async () => {
  await using folder = await folderWith({ ".mcp.json": misspelled });
  const file = `${folder.dir}/.mcp.json`;
  const servers = await cli("servers", "--config", file);
  assert.equal(servers.code, 0, servers.stderr);
  assert.match(servers.stderr, new RegExp(`warning: .*:${LINE}: unknown key "denyTools" .*"deny"`));
  const strict = await cli("servers", "--config", file, "--strict");
  assert.equal(strict.code, 2, strict.stderr);
  assert.match(strict.stderr, new RegExp(`error: .*:${LINE}: unknown key "denyTools"`));
  for (const watch of [["--no-watch"], []]) {
    const proxy = runOf(await cliCommand(["proxy", "--config", file, ...watch]).output());
    assert.match(
      proxy.stderr,
      new RegExp(`\\[proxy\\] warning: .*:${LINE}: unknown key "denyTools"`),
    );
    const refused = runOf(
      await cliCommand(["proxy", "--config", file, "--strict", ...watch]).output(),
    );
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, new RegExp(`error: .*:${LINE}: unknown key "denyTools"`));
  }
});

Deno.test("a server whose variable is unset fails with the variable and the file named", async () => {
  await using folder = await folderWith({
    ".mcp.json": {
      mcpServers: {
        api: { command: "x", env: { TOKEN: "${MCP_INSPECT_SURELY_UNSET}" } },
        other: { command: "y" },
      },
    },
  });
  const file = `${folder.dir}/.mcp.json`;
  const run = await cli("ping", "--config", file, "--server", "api");
  assert.equal(run.code, 2, run.stderr);
  assert.match(
    run.stderr,
    new RegExp(
      `Cannot load server "api" from "${file}" at line \\d+, column \\d+: environment variable "MCP_INSPECT_SURELY_UNSET" is not set`,
    ),
  );
});

Deno.test("a relative command runs from the config file's folder, and a missing one names the path tried", async () => {
  await using folder = await folderWith({
    "server.sh": `#!/bin/sh\nexec "${Deno.execPath()}" ${
      EVERYTHING.map((a) => `"${a}"`).join(" ")
    }\n`,
    "mcp.json": {
      mcpServers: { local: { command: "./server.sh" }, gone: { command: "./missing.sh" } },
    },
  });
  await Deno.chmod(`${folder.dir}/server.sh`, 0o755);
  // run from the repository root, not the config's folder
  const ok = await cli("ping", "--config", `${folder.dir}/mcp.json`, "--server", "local");
  assert.equal(ok.code, 0, ok.stderr);
  const missing = await cli("ping", "--config", `${folder.dir}/mcp.json`, "--server", "gone");
  assert.equal(missing.code, 3, missing.stderr);
  assert.match(
    missing.stderr,
    new RegExp(`command "${folder.dir}/missing\\.sh" not found \\(no such file\\)`),
  );
});
