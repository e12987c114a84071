// Finding who authorizes a server: its protected resource metadata (RFC 9728), then the metadata
// of its authorization server (RFC 8414 and OpenID Connect Discovery), in the order the spec
// gives (basic/authorization/authorization-server-discovery), with the 2025-03-26 fallbacks for
// servers that publish no resource metadata.

import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.ts";
import { type AuthHttp, getJson } from "./_http.ts";
import { checkScheme } from "./_safety.ts";

/** Protected resource metadata, as far as we use it. */
export interface ResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
}

/** The authorization server of a server, found and validated. */
export interface Discovery {
  /** The resource identifier to ask tokens for, exactly as the server published it. */
  resource: string;
  /** The resource metadata, or undefined for a 2025-03-26 server that has none. */
  metadata: ResourceMetadata | undefined;
  /** The validated authorization server metadata. */
  as: oauth.AuthorizationServer;
  /** True when `as` was made up from the 2025-03-26 default endpoints. */
  defaults: boolean;
}

/** The resource identifier of a server without metadata: its URL without fragment or query. */
export function defaultResource(serverUrl: URL): string {
  const url = new URL(serverUrl);
  url.hash = "";
  url.search = "";
  return url.pathname === "/" ? url.origin : url.href;
}

/**
 * Whether resource metadata may describe this server: same origin, and a path that is the
 * server's path or one of its parents (RFC 9728 section 3.3 and 7.3; a root document names the
 * origin).
 */
function describes(resource: string, serverUrl: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.hash || url.origin !== serverUrl.origin) return false;
  const base = url.pathname.replace(/\/$/, "");
  const path = serverUrl.pathname.replace(/\/$/, "");
  return base === "" || path === base || path.startsWith(`${base}/`);
}

function validResourceMetadata(
  json: Record<string, unknown>,
  serverUrl: URL,
  from: string,
): ResourceMetadata {
  const resource = json.resource;
  if (typeof resource !== "string" || !describes(resource, serverUrl)) {
    throw new OAuthError(
      `Protected resource metadata at ${from} names the resource ${
        JSON.stringify(typeof resource === "string" ? resource : null)
      }, not this server (${serverUrl.origin}${serverUrl.pathname}); refusing to authorize`,
      "discovery",
    );
  }
  const servers = json.authorization_servers;
  if (
    !Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === "string")
  ) {
    throw new OAuthError(
      `Protected resource metadata at ${from} lists no authorization_servers`,
      "discovery",
    );
  }
  const scopes = json.scopes_supported;
  return {
    resource,
    authorization_servers: servers,
    ...(Array.isArray(scopes) && scopes.every((s) => typeof s === "string")
      ? { scopes_supported: scopes }
      : {}),
  };
}

/**
 * The server's protected resource metadata: from the `resource_metadata` URL of its challenge,
 * else at the path-suffixed well-known URL, else at the root one. Undefined when there is none.
 */
export async function discoverResource(
  http: AuthHttp,
  serverUrl: URL,
  challengeUrl: string | undefined,
): Promise<{ metadata: ResourceMetadata; url: string } | undefined> {
  const candidates: string[] = [];
  if (challengeUrl !== undefined) {
    try {
      candidates.push(new URL(challengeUrl, serverUrl).href);
    } catch {
      throw new OAuthError("The server's resource_metadata is not a valid URL", "discovery");
    }
  }
  const path = serverUrl.pathname.replace(/\/$/, "");
  if (path) candidates.push(`${serverUrl.origin}/.well-known/oauth-protected-resource${path}`);
  candidates.push(`${serverUrl.origin}/.well-known/oauth-protected-resource`);
  for (const url of new Set(candidates)) {
    const found = await reachableJson(http, url, "protected resource metadata URL");
    if (found) return { metadata: validResourceMetadata(found.json, serverUrl, url), url };
  }
  return undefined;
}

/**
 * {@link getJson} for one of several candidate locations: an unreachable one counts as having no
 * document, so the next is tried; one refused as unsafe is never silently skipped.
 */
async function reachableJson(
  http: AuthHttp,
  url: string,
  what: string,
): Promise<Awaited<ReturnType<typeof getJson>>> {
  try {
    return await getJson(http, url, what);
  } catch (error) {
    if (error instanceof OAuthError && error.kind === "network") return undefined;
    throw error;
  }
}

/** The well-known metadata URLs of an issuer, in the spec's priority order. */
function metadataUrls(issuer: URL): string[] {
  const path = issuer.pathname.replace(/\/$/, "");
  const origin = issuer.origin;
  if (!path) {
    return [
      `${origin}/.well-known/oauth-authorization-server`,
      `${origin}/.well-known/openid-configuration`,
    ];
  }
  return [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * The metadata of the authorization server `issuer`, validated: its `issuer` must be identical
 * to the identifier the well-known URL was built from (RFC 8414 section 3.3), or the document is
 * rejected and nothing in it is used. Undefined when no location has a document.
 */
export async function discoverAuthorizationServer(
  http: AuthHttp,
  issuer: string,
): Promise<oauth.AuthorizationServer | undefined> {
  const url = checkScheme(issuer, "authorization server");
  if (url.search || url.hash) {
    throw new OAuthError(
      `Authorization server identifier ${url.origin}${url.pathname} must not have a query or fragment`,
      "metadata",
      { issuer },
    );
  }
  for (const location of metadataUrls(url)) {
    const found = await reachableJson(http, location, "authorization server metadata URL");
    if (!found) continue;
    const mismatch = () =>
      new OAuthError(
        `Authorization server metadata at ${location} declares issuer ${
          JSON.stringify(String(found.json.issuer))
        }, not ${JSON.stringify(issuer)}; the document is rejected`,
        "metadata",
        { issuer },
      );
    let metadata: oauth.AuthorizationServer;
    try {
      metadata = await oauth.processDiscoveryResponse(url, found.response);
    } catch {
      throw mismatch();
    }
    // oauth4webapi compares normalized URLs; the spec wants the identical string.
    if (metadata.issuer !== issuer) throw mismatch();
    return metadata;
  }
  return undefined;
}

/**
 * The 2025-03-26 rules for a server without resource metadata: its authorization server lives
 * at its origin, with metadata at the usual place or else the default endpoints.
 */
async function legacyDiscovery(http: AuthHttp, serverUrl: URL): Promise<Discovery> {
  const issuer = serverUrl.origin;
  const resource = defaultResource(serverUrl);
  const as = await discoverAuthorizationServer(http, issuer);
  if (as) return { resource, metadata: undefined, as, defaults: false };
  return {
    resource,
    metadata: undefined,
    defaults: true,
    as: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      // The 2025-03-26 revision required PKCE S256 of every authorization server.
      code_challenge_methods_supported: ["S256"],
    },
  };
}

/**
 * Finds and validates the authorization server of a server. `preferred` issuers (those we hold
 * credentials for) win when the resource metadata lists several.
 */
export async function discover(
  http: AuthHttp,
  serverUrl: URL,
  challengeUrl: string | undefined,
  preferred: readonly string[] = [],
): Promise<Discovery> {
  const found = await discoverResource(http, serverUrl, challengeUrl);
  if (!found) return await legacyDiscovery(http, serverUrl);
  const { metadata } = found;
  const listed = metadata.authorization_servers;
  const issuer = listed.find((s) => preferred.includes(s)) ?? listed[0]!;
  const as = await discoverAuthorizationServer(http, issuer);
  if (!as) {
    throw new OAuthError(
      `Authorization server ${issuer} publishes no metadata (tried RFC 8414 and OpenID Connect locations)`,
      "metadata",
      { issuer },
    );
  }
  return { resource: metadata.resource, metadata, as, defaults: false };
}
