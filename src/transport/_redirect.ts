// fetch with redirects followed by hand, and only within one origin: headers such as
// Authorization and Mcp-Session-Id must never reach another host (spec security best practices).

import { TransportError } from "../errors.ts";
import { displayUrl } from "./_http.ts";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_HOPS = 5;

/** Fetches `url`; a redirect to the same origin is followed, any other is refused. */
export async function fetchWithinOrigin(
  fetchFn: typeof fetch,
  url: URL,
  init: RequestInit & { method: string },
): Promise<Response> {
  let current = url;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const response = await fetchFn(current, { ...init, redirect: "manual" });
    if (!REDIRECTS.has(response.status)) return response;
    await response.body?.cancel();
    const location = response.headers.get("location");
    const next = location === null ? undefined : new URL(location, current);
    if (!next || next.origin !== url.origin) {
      throw new TransportError(
        `Refusing to follow a redirect from ${displayUrl(current)} to ${
          next ? next.origin : "nowhere"
        }: requests and their headers stay on the server's origin`,
      );
    }
    if (init.method !== "GET" && response.status !== 307 && response.status !== 308) {
      throw new TransportError(
        `Server redirected ${init.method} with status ${response.status}; only 307 and 308 keep the request`,
      );
    }
    current = next;
  }
  throw new TransportError(`Too many redirects from ${displayUrl(url)}`);
}
