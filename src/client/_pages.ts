// List calls: one raw page on request, or every page, a bounded number of them, never a cursor
// twice.

import { ProtocolError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { CacheOptions, ListOptions, ListPage, PageOptions } from "./types.ts";

/** The default cap on pages walked by one list call. */
export const DEFAULT_MAX_PAGES = 64;

export type FetchPage = (cursor: string | undefined) => Promise<JsonObject>;

/** What a list call needs of the client. */
export interface ListContext {
  /** The client's `request()`, with capability gating and caching. */
  request(method: string, params: JsonObject, options: CacheOptions): Promise<JsonObject>;
  /** The client's `maxPages`, if it set one. */
  maxPages: number | undefined;
}

/** Checks one page: `key` must be an array and `nextCursor`, if present, a string. */
export function checkPage(method: string, key: string, page: JsonObject): void {
  if (!Array.isArray(page[key])) {
    throw new ProtocolError(`Invalid ${method} result: "${key}" must be an array`);
  }
  if (
    page.nextCursor !== undefined && page.nextCursor !== null && typeof page.nextCursor !== "string"
  ) {
    throw new ProtocolError(`Invalid ${method} result: "nextCursor" must be a string`);
  }
}

/** Fetches pages until one has no `nextCursor`, and returns all their items. */
export async function walkPages<T>(
  method: string,
  key: string,
  maxPages: number,
  fetchPage: FetchPage,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(cursor);
    checkPage(method, key, result);
    items.push(...(result[key] as T[]));
    const next = result.nextCursor;
    if (typeof next !== "string") return items;
    if (seen.has(next)) {
      throw new ProtocolError(
        `Pagination of ${method} does not end: the server repeated cursor ${JSON.stringify(next)}`,
      );
    }
    seen.add(next);
    cursor = next;
  }
  throw new ProtocolError(
    `Pagination of ${method} did not end after ${maxPages} pages (raise maxPages to walk more)`,
  );
}

/** A list call: one raw page when the options carry a `cursor`, otherwise every page. */
export async function listItems<T>(
  method: string,
  key: string,
  context: ListContext,
  options: ListOptions | PageOptions,
): Promise<T[] | ListPage<T>> {
  if ("cursor" in options) {
    const { cursor, ...rest } = options;
    const result = await context.request(method, cursor === undefined ? {} : { cursor }, rest);
    checkPage(method, key, result);
    return {
      items: result[key] as T[],
      ...(typeof result.nextCursor === "string" ? { nextCursor: result.nextCursor } : {}),
      result,
    };
  }
  return walkAll<T>(method, key, context, options);
}

/** Every page, at most `maxPages` of them (else the client's `maxPages`, else 64). */
export function walkAll<T>(
  method: string,
  key: string,
  context: ListContext,
  options: ListOptions,
): Promise<T[]> {
  const { maxPages, ...rest } = options;
  return walkPages<T>(
    method,
    key,
    maxPages ?? context.maxPages ?? DEFAULT_MAX_PAGES,
    (cursor) => context.request(method, cursor === undefined ? {} : { cursor }, rest),
  );
}
