// Qualified names: the sanitising, the hash suffix, and collision resolution across servers.
// The public part is in names.ts.

import { createHash } from "node:crypto";

/** The longest qualified name. */
export const MAX_LENGTH = 64;

const UNSAFE = /[^A-Za-z0-9_-]/g;
const HASH_CHARS = 8;

/** A short hash of the exact names: stable across runs and machines. */
function hashOf(server: string, name: string): string {
  return createHash("sha256").update(`${server}\0${name}`).digest("hex").slice(0, HASH_CHARS);
}

/** The qualified name of one item taken alone. */
export function qualify(server: string, tool: string): string {
  const safe = `mcp__${server}__${tool}`.replace(UNSAFE, "_");
  return safe.length <= MAX_LENGTH ? safe : hashed(server, tool);
}

function hashed(server: string, tool: string): string {
  const safe = `mcp__${server}__${tool}`.replace(UNSAFE, "_");
  const keep = Math.min(safe.length, MAX_LENGTH - HASH_CHARS - 1);
  return `${safe.slice(0, keep)}_${hashOf(server, tool)}`;
}

/** One server's item to name. */
export interface NameRequest {
  server: string;
  name: string;
}

/**
 * Names a set of items without collisions, the same way whatever their order: when several
 * items share a qualified name, an item whose name needed no change keeps it and every other
 * one gets a hash suffix. So a name only changes when a collision appears or disappears.
 */
export function assignQualifiedNames(items: readonly NameRequest[]): Map<NameRequest, string> {
  const groups = new Map<string, NameRequest[]>();
  for (const item of items) {
    const name = qualify(item.server, item.name);
    const group = groups.get(name);
    if (group) group.push(item);
    else groups.set(name, [item]);
  }
  const result = new Map<NameRequest, string>();
  const taken = new Set(groups.keys());
  for (const [name, group] of groups) {
    if (group.length === 1) {
      result.set(group[0]!, name);
      continue;
    }
    for (const item of group) {
      if (`mcp__${item.server}__${item.name}` === name) {
        result.set(item, name);
        continue;
      }
      let candidate = hashed(item.server, item.name);
      // Two different hashes of 32 bits meeting is not expected; still, never hand out a name twice.
      for (let n = 2; taken.has(candidate); n++) {
        candidate = hashed(item.server, `${item.name}#${n}`);
      }
      taken.add(candidate);
      result.set(item, candidate);
    }
  }
  return result;
}
