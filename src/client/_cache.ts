// A cache of cacheable results (spec 2026-07-28 server/utilities/caching): list and read results
// carry `ttlMs`, a freshness hint; list_changed and resources/updated make entries stale early.

import type { JsonObject } from "../jsonrpc.ts";

/** Methods whose results may be cached. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

interface Entry {
  result: JsonObject;
  expires: number;
}

export class TtlCache {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The cache key of a request: its method and params, without `_meta`. */
  static key(method: string, params: JsonObject): string {
    const { _meta: _, ...rest } = params;
    return `${method} ${JSON.stringify(rest)}`;
  }

  get(key: string): JsonObject | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires > this.#now()) return entry.result;
    this.#entries.delete(key);
    return undefined;
  }

  /** Keeps a result for its `ttlMs`, if it has a positive one. */
  set(key: string, result: JsonObject): void {
    const ttl = result.ttlMs;
    if (typeof ttl !== "number" || !(ttl > 0)) return;
    this.#entries.set(key, { result, expires: this.#now() + ttl });
  }

  /** Drops every entry of a method, or of one method and resource URI. */
  invalidate(method: string, uri?: string): void {
    const prefix = uri === undefined ? `${method} ` : TtlCache.key(method, { uri });
    for (const key of this.#entries.keys()) {
      if (uri === undefined ? key.startsWith(prefix) : key === prefix) this.#entries.delete(key);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}
