import assert from "node:assert/strict";
import {
  MAX_QUALIFIED_NAME_LENGTH,
  qualifiedToolName,
  ServerManager,
} from "../../src/manager/mod.ts";
import { fakeServer, fakeTime } from "../_helpers.ts";

Deno.test("qualifiedToolName() replaces unsafe characters and keeps names within 64", () => {
  assert.equal(qualifiedToolName("files", "read_file"), "mcp__files__read_file");
  assert.equal(qualifiedToolName("my.server", "read file/2"), "mcp__my_server__read_file_2");
  assert.equal(qualifiedToolName("ünï", "x"), "mcp___n___x");
  const long = qualifiedToolName("s".repeat(40), "t".repeat(40));
  assert.equal(long.length, MAX_QUALIFIED_NAME_LENGTH);
  assert.match(long, /^mcp__s+__t+_[0-9a-f]{8}$/);
  assert.equal(qualifiedToolName("s".repeat(40), "t".repeat(40)), long, "stable");
  assert.notEqual(qualifiedToolName("s".repeat(40), `${"t".repeat(40)}x`), long);
});

Deno.test("a modern-era server is managed too: era, calls and liveness through server/discover", async () => {
  const { command, args } = fakeServer("modern.ts");
  await using manager = new ServerManager({ healthIntervalMs: 30 });
  // Faked from the start so that the health check is armed on the fake clock; the real clock
  // comes back before the manager closes, whose shutdown ladder waits on real time.
  const clock = fakeTime();
  let calls: Record<string, number>;
  try {
    const status = await manager.connect("modern", { command, args: [...args!] });
    assert.equal(status.state, "ready");
    assert.equal(status.era, "modern");
    assert.equal(status.protocolVersion, "2026-07-28");
    const echo = await manager.callTool("mcp__modern__echo", { text: "now" });
    assert.equal((echo.content[0] as { text: string }).text, "now");
    for (let interval = 0; interval < 5; interval++) {
      await clock.tickAsync(30);
      // A round trip after the check's request: its answer has come and the next check is armed.
      await manager.callTool("mcp__modern__echo", { text: "sync" });
    }
    const stats = await manager.callTool("modern", "stats", {});
    calls = JSON.parse((stats.content[0] as { text: string }).text);
  } finally {
    clock.uninstall();
  }
  assert.ok(
    (calls["server/discover"] ?? 0) >= 3,
    `liveness used server/discover: ${JSON.stringify(calls)}`,
  );
  assert.equal(calls.ping, undefined);
});
