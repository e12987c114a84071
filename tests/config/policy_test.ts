// toolRefusal(): the allow and deny lists every front end applies (manager, proxy, CLI, web page).

import assert from "node:assert/strict";
import { toolRefusal } from "../../src/manager/mod.ts";

Deno.test("toolRefusal() names the deny pattern that matched, and deny wins over allow", () => {
  const policy = { allow: ["delete_cache", "read_*"], deny: ["write_*", "delete_*"] };
  assert.deepEqual(toolRefusal(policy, "write_file"), { rule: "deny", pattern: "write_*" });
  assert.deepEqual(toolRefusal(policy, "delete_cache"), { rule: "deny", pattern: "delete_*" });
  assert.equal(toolRefusal(policy, "read_file"), undefined);
});

Deno.test("toolRefusal() refuses what an allow list does not name, and allows all without one", () => {
  assert.deepEqual(toolRefusal({ allow: ["echo", "e?d"] }, "add"), { rule: "allow" });
  assert.equal(toolRefusal({ allow: ["echo", "e?d"] }, "end"), undefined);
  assert.equal(toolRefusal({ deny: ["echo"] }, "add"), undefined);
  assert.equal(toolRefusal({}, "anything"), undefined);
  assert.deepEqual(toolRefusal({ allow: [] }, "echo"), { rule: "allow" });
});

Deno.test("toolRefusal() reads patterns as names and globs, never as comments or negations", () => {
  assert.deepEqual(toolRefusal({ deny: ["*"] }, ".hidden"), { rule: "deny", pattern: "*" });
  // A negation would refuse every tool but "echo"; a comment would match nothing.
  assert.equal(toolRefusal({ deny: ["!echo"] }, "add"), undefined);
  assert.deepEqual(toolRefusal({ deny: ["!echo"] }, "!echo"), { rule: "deny", pattern: "!echo" });
  assert.deepEqual(toolRefusal({ deny: ["#x"] }, "#x"), { rule: "deny", pattern: "#x" });
  assert.deepEqual(toolRefusal({ deny: ["@(a|b)_*"] }, "b_tool"), {
    rule: "deny",
    pattern: "@(a|b)_*",
  });
});
