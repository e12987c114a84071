// Requests to the MCP server itself: the token goes in the Authorization header and nowhere else
// (oauth4webapi's protectedResourceRequest), with a fresh DPoP proof when the token is bound,
// sent once more when the server asks for a DPoP nonce (RFC 9449 section 9).

import * as oauth from "oauth4webapi";
import type { AuthChallenge } from "../errors.ts";
import { parseChallenges } from "../http_util.ts";

/** A request in a form that can be sent more than once. */
export interface Outgoing {
  url: URL;
  method: string;
  headers: Headers;
  body: ArrayBuffer | string | null;
  signal: AbortSignal | undefined;
}

/** Normalizes fetch arguments; a streamed body is buffered so the request can be retried. */
export async function outgoing(
  input: RequestInfo | URL,
  init: RequestInit = {},
): Promise<Outgoing> {
  const request = input instanceof Request ? input : undefined;
  const url = new URL(request ? request.url : String(input));
  const headers = new Headers(init.headers ?? request?.headers);
  let body: ArrayBuffer | string | null = null;
  const raw = init.body !== undefined ? init.body : request?.body ?? null;
  if (typeof raw === "string") body = raw;
  else if (raw !== null) body = await new Response(raw).arrayBuffer();
  const signal = init.signal ?? request?.signal ?? undefined;
  return {
    url,
    method: (init.method ?? request?.method ?? "GET").toUpperCase(),
    headers,
    body,
    signal,
  };
}

/** The token a request is sent with. */
export interface Credential {
  accessToken: string;
  /** Present when the token is DPoP-bound. */
  dpop: oauth.DPoPHandle | undefined;
}

/** Sends `request` through `inner`, never following redirects. */
export function sendPlain(inner: typeof fetch, request: Outgoing): Promise<Response> {
  return inner(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: "manual",
    ...(request.signal ? { signal: request.signal } : {}),
  });
}

/** The challenge that matters: the one of the token's scheme, else the first. */
export function challengeOf(response: Response, scheme: string): {
  challenges: AuthChallenge[];
  resourceMetadata: string | undefined;
  scope: string | undefined;
  error: string | undefined;
} {
  const challenges = parseChallenges(response.headers.get("www-authenticate"));
  const ordered = [
    ...challenges.filter((c) => c.scheme === scheme),
    ...challenges.filter((c) => c.scheme !== scheme),
  ];
  const param = (name: string) => ordered.find((c) => c.params[name])?.params[name];
  return {
    challenges,
    resourceMetadata: param("resource_metadata"),
    scope: param("scope"),
    error: param("error"),
  };
}

/** Sends `request` with the token; once more if the server asks for a DPoP nonce. */
export async function sendWithToken(
  inner: typeof fetch,
  request: Outgoing,
  credential: Credential,
): Promise<Response> {
  for (let attempt = 0;; attempt++) {
    const headers = new Headers(request.headers);
    // oauth4webapi would name itself in User-Agent; requests keep looking like the transport's.
    if (!headers.has("user-agent")) headers.set("user-agent", `Deno/${Deno.version.deno}`);
    try {
      return await oauth.protectedResourceRequest(
        credential.accessToken,
        request.method,
        request.url,
        headers,
        request.body,
        {
          ...(credential.dpop ? { DPoP: credential.dpop } : {}),
          ...(request.signal ? { signal: request.signal } : {}),
          [oauth.allowInsecureRequests]: true,
          [oauth.customFetch]: (url, options) =>
            inner(url, {
              method: options.method,
              headers: options.headers,
              body: options.body as BodyInit | null,
              redirect: "manual",
              ...(options.signal ? { signal: options.signal } : {}),
            }),
        },
      );
    } catch (error) {
      // oauth4webapi turns any WWW-Authenticate into an error; the response inside is the answer.
      if (!(error instanceof oauth.WWWAuthenticateChallengeError)) throw error;
      if (attempt === 0 && credential.dpop && oauth.isDPoPNonceError(error)) {
        await error.response.body?.cancel();
        continue; // the handle cached the DPoP-Nonce; the next proof carries it
      }
      return error.response;
    }
  }
}
