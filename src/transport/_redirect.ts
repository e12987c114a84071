// fetch with redirects followed by hand, and only within one origin: headers such as
// Authorization and Mcp-Session-Id must never reach another host (spec security best practices).

import { TransportError } from "../errors.ts";
import { displayUrl } from "./_http.ts";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_HOPS = 5;

/** Whether `status` is a redirect, which `redirect: "manual"` hands to the caller. */
export function isRedirect(status: number): boolean {
  return REDIRECTS.has(status);
}

/**
 * Fetches `url`; a redirect to the same origin is followed, any other is refused. Not async
 * itself: the usual answer is no redirect, and it passes through in the turn fetch settles. The
 * URL goes to `fetchFn` as a string, which fetch would otherwise make of it again.
 */
export function fetchWithinOrigin(
  fetchFn: typeof fetch,
  url: URL,
  init: RequestInit & { method: string },
): Promise<Response> {
  const manual = init.redirect === "manual" ? init : { ...init, redirect: "manual" as const };
  return fetchFn(url.href, manual).then((response) =>
    REDIRECTS.has(response.status) ? followRedirect(fetchFn, url, manual, response) : response
  );
}

/**
 * Follows `redirect`, the answer to `init` sent to `url` with `redirect: "manual"`, within the
 * origin: at most {@link MAX_HOPS} hops in all, only 307 and 308 for a method other than GET.
 */
export async function followRedirect(
  fetchFn: typeof fetch,
  url: URL,
  init: RequestInit & { method: string },
  redirect: Response,
): Promise<Response> {
  let current = url;
  let response = redirect;
  for (let hop = 1; hop < MAX_HOPS; hop++) {
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
    response = await fetchFn(current.href, init);
    if (!REDIRECTS.has(response.status)) return response;
  }
  await response.body?.cancel();
  throw new TransportError(`Too many redirects from ${displayUrl(url)}`);
}
