// Walking paginated list results: every page, a bounded number of them, never a cursor twice.

import { ProtocolError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";

/** The default cap on pages walked by one list call. */
export const DEFAULT_MAX_PAGES = 64;

export type FetchPage = (cursor: string | undefined) => Promise<JsonObject>;

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
