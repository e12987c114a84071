// Proves each mode of testdata/servers/misbehaving.ts misbehaves as documented (crashes, silence,
// noise, huge or invalid lines, bad ids, ignored signals), by speaking raw JSON lines to it.

import assert from "node:assert/strict";
import { Fake, INITIALIZE_PARAMS, type Json, toolText } from "./_smoke_fake.ts";

Deno.test("misbehaving.ts crash and exit-immediately exit with codes and stderr", async () => {
  await using crash = new Fake("misbehaving.ts", ["crash"]);
  await crash.initialize();
  await crash.call(1, "echo", { text: "hi" });
  assert.equal(await crash.readLine(), undefined);
  assert.equal((await crash.finish()).code, 3);
  assert.match(crash.stderr, /fatal: line 1\nfatal: line 2\nfatal: line 3/);
  await using early = new Fake("misbehaving.ts", ["exit-immediately"]);
  assert.equal((await early.finish()).code, 7);
  assert.match(early.stderr, /error: missing API_KEY/);
});

Deno.test("misbehaving.ts silent answers nothing after initialize", async () => {
  await using fake = new Fake("misbehaving.ts", ["silent"]);
  assert.ok((await fake.initialize()).result);
  await fake.send({ id: 1, method: "ping" });
  await fake.closeStdin();
  assert.equal(await fake.readLine(), undefined);
  assert.equal((await fake.finish()).code, 0);
});

Deno.test("misbehaving.ts garbage prints noise before each response", async () => {
  await using fake = new Fake("misbehaving.ts", ["garbage"]);
  await fake.send({ id: 1, method: "initialize", params: INITIALIZE_PARAMS });
  for (const noise of ["Starting server...", "{not json", `{"hello":1}`, "[1,2]"]) {
    assert.equal(await fake.nextText(), noise);
  }
  assert.equal((await fake.next()).id, 1);
});

Deno.test("misbehaving.ts huge writes a 50 MiB line", async () => {
  await using fake = new Fake("misbehaving.ts", ["huge"]);
  await fake.initialize();
  await fake.call(1, "echo", { text: "hi" });
  const line = await fake.readLine();
  assert.ok(line);
  assert.ok(line.length > 50 * 1024 * 1024);
  assert.equal(toolText(JSON.parse(new TextDecoder().decode(line))).length, 50 * 1024 * 1024);
  assert.equal(await fake.aliveAfter(100), true);
});

Deno.test("misbehaving.ts invalid-utf8 writes raw invalid bytes", async () => {
  await using fake = new Fake("misbehaving.ts", ["invalid-utf8"]);
  await fake.initialize();
  await fake.call(1, "echo", { text: "hi" });
  const line = await fake.readLine();
  assert.ok(line?.includes(0xff) && line.includes(0xfe));
  assert.throws(() => new TextDecoder("utf-8", { fatal: true }).decode(line));
});

Deno.test("misbehaving.ts bad-ids sends unknown, wrong-type, right and duplicate ids", async () => {
  await using fake = new Fake("misbehaving.ts", ["bad-ids"]);
  await fake.initialize();
  await fake.call(5, "echo", { text: "hi" });
  const expected = [[9999, "unknown-id"], ["5", "wrong-type"], [5, "right"], [5, "duplicate"]];
  for (const [id, text] of expected) {
    const response = await fake.next();
    assert.deepEqual([response.id, toolText(response)], [id, text]);
  }
});

Deno.test("misbehaving.ts early-notify notifies before the initialize response", async () => {
  await using fake = new Fake("misbehaving.ts", ["early-notify"]);
  await fake.send({ id: 1, method: "initialize", params: INITIALIZE_PARAMS });
  assert.deepEqual((await fake.next()).params, { level: "info", data: "early" });
  assert.equal((await fake.next()).method, "notifications/tools/list_changed");
  assert.equal((await fake.next()).id, 1);
});

Deno.test("misbehaving.ts answers initialize badly in two modes", async () => {
  await using unsupported = new Fake("misbehaving.ts", ["unsupported-version"]);
  assert.equal(((await unsupported.initialize()).result as Json).protocolVersion, "1999-01-01");
  await using failing = new Fake("misbehaving.ts", ["initialize-error"]);
  assert.deepEqual((await failing.initialize()).error, {
    code: -32603,
    message: "Initialization failed",
  });
});

Deno.test("misbehaving.ts ignore-sigterm survives SIGTERM and stdin EOF", async () => {
  await using fake = new Fake("misbehaving.ts", ["ignore-sigterm"]);
  await fake.waitForStderr(/pid \d+/);
  await fake.initialize();
  fake.child.kill("SIGTERM");
  await fake.send({ id: 1, method: "ping" });
  assert.equal((await fake.next()).id, 1);
  await fake.closeStdin();
  assert.equal(await fake.aliveAfter(300), true);
  fake.child.kill("SIGKILL");
  assert.equal((await fake.finish()).signal, "SIGKILL");
});

Deno.test("misbehaving.ts spawn-child exits 0 and leaves its grandchild running", async () => {
  await using fake = new Fake("misbehaving.ts", ["spawn-child"]);
  const pid = Number((await fake.waitForStderr(/child (\d+)/))[1]);
  await fake.initialize();
  await fake.call(1, "child_pid");
  assert.equal(toolText(await fake.next()), String(pid));
  assert.equal((await fake.finish()).code, 0);
  // Killing succeeds only if the grandchild outlived its parent; it also cleans up.
  Deno.kill(pid, "SIGKILL");
});

Deno.test("misbehaving.ts stdout-closes closes stdout but keeps running", async () => {
  await using fake = new Fake("misbehaving.ts", ["stdout-closes"]);
  await fake.initialize();
  await fake.call(1, "echo", { text: "hi" });
  assert.equal(await fake.readLine(), undefined);
  assert.equal(await fake.aliveAfter(300), true);
});
