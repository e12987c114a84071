// The CLI in conversation, as a subprocess: wire traffic with --verbose, answers to the server's
// requests, the shell reading stdin, streaming logs, and Ctrl-C.

import assert from "node:assert/strict";
import { cli, cliCommand, cliWithInput, MISBEHAVING, readUntil, SERVER } from "../_cli_run.ts";

Deno.test("--verbose shows the wire traffic with secrets redacted", async () => {
  const run = await cli("ping", "--verbose", "--env", "API_KEY=sup3r-s3cret", ...SERVER);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /→ \{"jsonrpc":"2\.0","id":\d+,"method":"initialize"/);
  assert.match(run.stderr, /← \{"jsonrpc":"2\.0","id":\d+,"result":\{"protocolVersion"/);
  assert.ok(!run.stderr.includes("sup3r-s3cret"));
  const echoed = await cli(
    "tools",
    "call",
    "echo",
    "text=sup3r-s3cret",
    "--verbose",
    "--env",
    "API_KEY=sup3r-s3cret",
    ...SERVER,
  );
  assert.ok(!echoed.stderr.includes("sup3r-s3cret"), echoed.stderr);
  assert.match(echoed.stderr, /"text":"\*\*\*"/);
});

Deno.test("--elicit, --sampling-reply and --root answer the server's requests", async () => {
  const declined = await cli("tools", "call", "elicit", "--json", ...SERVER);
  assert.equal(JSON.parse(JSON.parse(declined.stdout).content[0].text).action, "decline");
  assert.match(declined.stderr, /not a terminal; pass --elicit accept-defaults/);
  const accepted = await cli(
    "tools",
    "call",
    "elicit",
    "--elicit",
    "accept-defaults",
    "--json",
    ...SERVER,
  );
  assert.deepStrictEqual(JSON.parse(JSON.parse(accepted.stdout).content[0].text), {
    action: "accept",
    content: { name: "Ada", age: 36 },
  });
  const sampled = await cli(
    "tools",
    "call",
    "sample",
    "prompt=hi",
    "--sampling-reply",
    "hello there",
    "--json",
    ...SERVER,
  );
  assert.equal(JSON.parse(JSON.parse(sampled.stdout).content[0].text).content.text, "hello there");
  const refused = await cli("tools", "call", "sample", "prompt=hi", ...SERVER);
  assert.equal(refused.code, 1);
  assert.match(refused.stdout, /Sampling declined by mcp-inspect/);
  const roots = await cli("tools", "call", "roots", "--root", "/tmp", "--json", ...SERVER);
  assert.deepStrictEqual(JSON.parse(JSON.parse(roots.stdout).content[0].text).roots, [{
    uri: "file:///tmp",
    name: "tmp",
  }]);
});

Deno.test("shell runs many commands on one connection, read from stdin", async () => {
  const run = await cliWithInput(
    'tools call echo text="hello world"\n# a comment\ntools call ecko\nresources read fake://notes/3 --json\nexit\n',
    "shell",
    ...SERVER,
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^hello world$/m);
  assert.match(run.stderr, /Unknown tool "ecko"; did you mean "echo"\?/);
  assert.match(run.stdout, /"text": "note 3"/);
  const piped = await cliWithInput("tools call echo text=a | cat\n", "shell", ...SERVER);
  assert.match(piped.stderr, /Operators such as \| > & ; are not supported/);
});

Deno.test("logs streams log messages until Ctrl-C, then exits 130", async () => {
  const child = cliCommand(["logs", ...MISBEHAVING("chatty")]).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = await readUntil(reader, /tick 2/);
  child.kill("SIGINT");
  for (let r = await reader.read(); !r.done; r = await reader.read()) seen += r.value;
  const status = await child.status;
  const stderr = await new Response(child.stderr).text();
  assert.match(seen, /^\[info\] chatty: tick 1$/m);
  assert.equal(status.code, 130); // interrupted, as the README's exit codes say
  assert.match(stderr, /\[server\] /); // the server's stderr is streamed too
});

Deno.test("Ctrl-C cancels the call on the server and exits 130", async () => {
  const child = cliCommand(["tools", "call", "hang", "--verbose", ...SERVER]).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = await readUntil(reader, /"method":"tools\/call","params":\{"name":"hang"/);
  child.kill("SIGINT");
  for (let r = await reader.read(); !r.done; r = await reader.read()) seen += r.value;
  const status = await child.status;
  await child.stdout.cancel();
  assert.equal(status.code, 130);
  assert.match(
    seen,
    /→ \{"jsonrpc":"2\.0","method":"notifications\/cancelled","params":\{"requestId":\d+/,
  );
});
