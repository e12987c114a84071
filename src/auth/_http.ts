// The one road every authorization request takes: URL checks before the request, no redirects
// followed (a metadata document that redirects could lead anywhere), bodies read in full but
// bounded, and the options that route oauth4webapi through the same road.

import * as oauth from "oauth4webapi";
import { readLimited } from "../http_util.ts";
import { OAuthError } from "./errors.ts";
import { checkScheme, checkTarget, type ResolveHost } from "./_safety.ts";

/** The largest authorization response we read (metadata, tokens, registrations). */
const MAX_BODY_BYTES = 256 * 1024;

/** How authorization requests are made. */
export interface AuthHttp {
  fetch: typeof fetch;
  resolve: ResolveHost;
  /** Loopback and private addresses are allowed: the MCP server itself is local. */
  allowLocal: boolean;
  signal: AbortSignal | undefined;
}

/** Options of every oauth4webapi call: our fetch, and our own (stricter) URL policy. */
export interface O4wOptions {
  [oauth.customFetch]: (url: string, options: oauth.CustomFetchOptions<string, unknown>) => Promise<
    Response
  >;
  [oauth.allowInsecureRequests]: true;
  signal?: AbortSignal;
}

/** Reads a whole authorization server response, refusing more than {@link MAX_BODY_BYTES}. */
function readBounded(response: Response): Promise<string> {
  return readLimited(response.body, MAX_BODY_BYTES, () =>
    new OAuthError(
      `Authorization server response from ${
        new URL(response.url || "http://unknown").origin
      } exceeds ${MAX_BODY_BYTES / 1024} KiB`,
      "metadata",
    ));
}

/**
 * Fetches `url` after checking it; the answer is fully read (bounded) and handed back as a fresh
 * Response, so no body is ever left open. Redirects are returned, not followed.
 */
export async function guardedFetch(
  http: AuthHttp,
  url: string | URL,
  init: RequestInit,
  what: string,
  trusted = false,
): Promise<Response> {
  const target = trusted
    ? checkScheme(url, what)
    : await checkTarget(url, what, { allowLocal: http.allowLocal, resolve: http.resolve });
  const signal = init.signal ?? http.signal;
  let response: Response;
  try {
    response = await http.fetch(target, {
      ...init,
      redirect: "manual",
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (!(error instanceof TypeError)) throw error; // an abort stays an abort
    // Deno's message repeats the URL; the query could hold a secret, so only the origin is named.
    throw new OAuthError(`Cannot reach the ${what} ${target.origin}`, "network");
  }
  const text = await readBounded(response);
  const empty = response.status === 204 || response.status === 205 || response.status === 304;
  return new Response(empty ? null : text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** The oauth4webapi options routing its requests through {@link guardedFetch}. */
export function o4w(http: AuthHttp, what: string, trusted = false): O4wOptions {
  return {
    [oauth.customFetch]: (url, options) =>
      guardedFetch(
        http,
        url,
        {
          method: options.method,
          headers: options.headers,
          body: options.body as BodyInit | null,
          ...(options.signal ? { signal: options.signal } : {}),
        },
        what,
        trusted,
      ),
    [oauth.allowInsecureRequests]: true,
    ...(http.signal ? { signal: http.signal } : {}),
  };
}

/** GETs a JSON metadata document; undefined when there is none (any status but 200). */
export async function getJson(
  http: AuthHttp,
  url: string | URL,
  what: string,
): Promise<{ response: Response; json: Record<string, unknown> } | undefined> {
  const response = await guardedFetch(http, url, {
    method: "GET",
    headers: { accept: "application/json" },
  }, what);
  if (response.status !== 200) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(await response.clone().text());
  } catch {
    return undefined;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  return { response, json: json as Record<string, unknown> };
}
