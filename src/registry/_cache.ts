// The result cache: answers of identical calls to read-only tools, keyed by source, server, tool
// and the arguments in canonical JSON (RFC 8785), so that key order and number spelling do not
// split entries. lru-cache bounds it in size and age.

import canonicalize from "canonicalize";
import { LRUCache } from "lru-cache";
import { minimatch } from "minimatch";
import type { CallToolResult } from "../types.ts";
import type { CacheStats, RegisteredTool, ResultCacheOptions } from "./types.ts";

interface Held {
  /** The server for an MCP tool; undefined for a local tool. */
  server: string | undefined;
  /** The registry name. */
  name: string;
  result: CallToolResult;
}

export class ResultCache {
  readonly #entries: LRUCache<string, Held>;
  readonly #allow: readonly string[];
  #hits = 0;
  #misses = 0;

  constructor(options: ResultCacheOptions) {
    this.#entries = new LRUCache<string, Held>({
      max: Math.max(1, options.maxEntries ?? 500),
      ttl: Math.max(1, options.ttlMs ?? 60_000),
      // lru-cache otherwise keeps a timer to refresh its clock; a clock read per call is cheap
      // and leaves no timer behind.
      ttlResolution: 0,
      ...(options.now ? { perf: { now: options.now } } : {}),
    });
    this.#allow = options.allow ?? [];
  }

  /** Whether answers of this tool may be kept: read-only or allowed, never destructive. */
  accepts(entry: RegisteredTool): boolean {
    if (entry.tool.annotations?.destructiveHint === true) return false;
    return entry.hints.readOnly ||
      this.#allow.some((pattern) => pattern === entry.name || minimatch(entry.name, pattern));
  }

  key(entry: RegisteredTool, args: Record<string, unknown>): string {
    const canonical = canonicalize(args) ?? "{}";
    return JSON.stringify([entry.source, entry.server ?? "", entry.serverTool ?? entry.name]) +
      canonical;
  }

  /** A copy of the held answer, so that callers cannot change what later callers get. */
  get(key: string): CallToolResult | undefined {
    const held = this.#entries.get(key);
    if (!held) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    return structuredClone(held.result);
  }

  set(key: string, entry: RegisteredTool, result: CallToolResult): void {
    if (result.isError) return;
    this.#entries.set(key, {
      server: entry.server,
      name: entry.name,
      result: structuredClone(result),
    });
  }

  /** Drops the answers of the given servers' tools. */
  dropServers(servers: readonly string[]): void {
    this.#drop((held) => held.server !== undefined && servers.includes(held.server));
  }

  /** Drops the answers of one tool, by registry name. */
  dropTool(name: string): void {
    this.#drop((held) => held.name === name);
  }

  #drop(test: (held: Held) => boolean): void {
    const doomed: string[] = [];
    this.#entries.forEach((held, key) => test(held) && doomed.push(key));
    for (const key of doomed) this.#entries.delete(key);
  }

  stats(): CacheStats {
    return { hits: this.#hits, misses: this.#misses, size: this.#entries.size };
  }

  clear(): void {
    this.#entries.clear();
  }
}
