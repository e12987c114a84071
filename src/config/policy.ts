/**
 * The allow and deny lists of a server entry, as every front end applies them: the manager and
 * the proxy, the CLI's commands on one configured server, and the web page.
 *
 * @module
 */

import { minimatch } from "minimatch";
import type { ServerPolicy } from "./config.ts";

/**
 * Why a server entry's lists refuse a tool.
 *
 * @example Saying why a tool is refused
 * ```ts
 * import type { ToolRefusal } from "@mcp-inspect/client/manager";
 * const refusal: ToolRefusal = { rule: "deny", pattern: "delete_*" };
 * console.log(refusal.rule === "deny" ? `it matches "${refusal.pattern}"` : "not allowed");
 * ```
 */
export interface ToolRefusal {
  /** `"deny"`: a deny pattern matched; `"allow"`: there is an allow list and nothing in it did. */
  rule: "deny" | "allow";
  /** The deny pattern that matched; absent when the rule is `"allow"`. */
  pattern?: string;
}

// Tool names are names, not paths: `dot` lets "*" match a name starting with "." like any other,
// and `nocomment`/`nonegate` keep a pattern starting with "#" or "!" literal (as a negation,
// "!x" in a deny list would refuse every tool but x).
const OPTIONS = { dot: true, nocomment: true, nonegate: true, noext: false } as const;

function matches(name: string, pattern: string): boolean {
  return name === pattern || minimatch(name, pattern, OPTIONS);
}

/**
 * Checks a tool name against a server entry's `allow` and `deny` lists (exact names or globs
 * such as `delete_*`): deny wins over allow, and an entry without an allow list allows every
 * tool its deny list does not match. Returns why the tool is refused, or `undefined` when it
 * may be listed and called.
 *
 * @example Deny wins over allow
 * ```ts
 * import { toolRefusal } from "@mcp-inspect/client/manager";
 * import assert from "node:assert/strict";
 *
 * const policy = { allow: ["read_*", "delete_cache"], deny: ["delete_*"] };
 * assert.equal(toolRefusal(policy, "read_file"), undefined);
 * assert.deepEqual(toolRefusal(policy, "delete_cache"), { rule: "deny", pattern: "delete_*" });
 * assert.deepEqual(toolRefusal(policy, "write_file"), { rule: "allow" });
 * assert.equal(toolRefusal({}, "anything"), undefined);
 * ```
 */
export function toolRefusal(
  policy: Pick<ServerPolicy, "allow" | "deny">,
  toolName: string,
): ToolRefusal | undefined {
  const denied = policy.deny?.find((pattern) => matches(toolName, pattern));
  if (denied !== undefined) return { rule: "deny", pattern: denied };
  if (policy.allow && !policy.allow.some((pattern) => matches(toolName, pattern))) {
    return { rule: "allow" };
  }
  return undefined;
}
