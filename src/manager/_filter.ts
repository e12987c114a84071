// Per-server allow and deny lists of tool names: exact names or glob patterns (`delete_*`).

import { minimatch } from "minimatch";
import type { ServerPolicy } from "../config/config.ts";

/** Why a tool is refused, or `undefined` when it is allowed. */
export interface Refusal {
  rule: "deny" | "allow";
  pattern?: string;
}

const OPTIONS = { dot: true, nocomment: true, nonegate: true, noext: false } as const;

function matches(name: string, pattern: string): boolean {
  return name === pattern || minimatch(name, pattern, OPTIONS);
}

/** Checks a tool name against a policy: deny wins over allow; no allow list allows all. */
export function refusal(policy: ServerPolicy, tool: string): Refusal | undefined {
  const denied = policy.deny?.find((pattern) => matches(tool, pattern));
  if (denied !== undefined) return { rule: "deny", pattern: denied };
  if (policy.allow && !policy.allow.some((pattern) => matches(tool, pattern))) {
    return { rule: "allow" };
  }
  return undefined;
}
