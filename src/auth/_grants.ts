// Token requests: refresh, client credentials (SEP-1046), the JWT-bearer grant of workload
// identity federation (RFC 7523, SEP-1933), and enterprise-managed authorization (RFC 8693 token
// exchange at the identity provider, then the JWT-bearer grant; SEP-990). Every request carries
// `resource` (RFC 8707), and a DPoP proof when the token is to be bound, retried once when the
// server asks for a nonce (RFC 9449 section 8).

import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.ts";
import { type AuthHttp, o4w } from "./_http.ts";
import type { StoredTokens } from "./store.ts";
import type { IdentityProvider } from "./types.ts";

/** What a token request needs. */
export interface TokenContext {
  http: AuthHttp;
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  auth: oauth.ClientAuth;
  resource: string;
  dpop: oauth.DPoPHandle | undefined;
}

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";

/**
 * Our error for a failed token request. oauth4webapi errors are never attached as causes: they
 * can hold the response body, and a token endpoint's body holds tokens.
 */
export function tokenError(issuer: string, what: string, error: unknown): OAuthError {
  if (error instanceof OAuthError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    return new OAuthError(
      `${what} at ${issuer} was refused: ${error.error}${
        error.error_description ? `: ${error.error_description}` : ""
      }`,
      "token",
      { issuer, oauthError: error.error, status: error.status },
    );
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    return new OAuthError(`${what} at ${issuer} was refused with HTTP ${error.status}`, "token", {
      issuer,
      status: error.status,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new OAuthError(`${what} at ${issuer} failed: ${message}`, "token", { issuer });
}

/** Sends a token request, once more with the server's nonce if it asks for one. */
export async function requestToken(
  ctx: TokenContext,
  what: string,
  send: () => Promise<Response>,
  process: (response: Response) => Promise<oauth.TokenEndpointResponse>,
): Promise<oauth.TokenEndpointResponse> {
  for (let attempt = 0;; attempt++) {
    try {
      return await process(await send());
    } catch (error) {
      // The DPoP handle has cached the nonce from the failed response; the next proof uses it.
      if (attempt === 0 && ctx.dpop && oauth.isDPoPNonceError(error)) continue;
      throw tokenError(ctx.as.issuer, what, error);
    }
  }
}

/** A token response as stored: absolute expiry, the scope granted (or asked for). */
export function storedTokens(
  response: oauth.TokenEndpointResponse,
  resource: string,
  requestedScope: string | undefined,
  previous?: StoredTokens,
): StoredTokens {
  const scope = response.scope ?? requestedScope;
  // A refresh response may omit the refresh token: the old one stays valid (RFC 6749 6).
  const refresh = response.refresh_token ?? previous?.refreshToken;
  return {
    accessToken: response.access_token,
    tokenType: response.token_type.toLowerCase(),
    ...(refresh ? { refreshToken: refresh } : {}),
    ...(typeof response.expires_in === "number"
      ? { expiresAt: Date.now() + response.expires_in * 1000 }
      : {}),
    ...(scope ? { scope } : {}),
    resource,
  };
}

function parameters(ctx: TokenContext, scope: string | undefined, extra: Record<string, string>) {
  const params = new URLSearchParams(extra);
  params.set("resource", ctx.resource);
  if (scope) params.set("scope", scope);
  return params;
}

function options(ctx: TokenContext, additional?: URLSearchParams) {
  return {
    ...o4w(ctx.http, "token endpoint"),
    ...(ctx.dpop ? { DPoP: ctx.dpop } : {}),
    ...(additional ? { additionalParameters: additional } : {}),
  };
}

/** Uses a refresh token; the resource and the scope go along. */
export function refreshGrant(
  ctx: TokenContext,
  refreshToken: string,
  scope: string | undefined,
): Promise<oauth.TokenEndpointResponse> {
  return requestToken(
    ctx,
    "Refreshing the access token",
    () =>
      oauth.refreshTokenGrantRequest(
        ctx.as,
        ctx.client,
        ctx.auth,
        refreshToken,
        options(ctx, parameters(ctx, scope, {})),
      ),
    (response) => oauth.processRefreshTokenResponse(ctx.as, ctx.client, response),
  );
}

/** The client credentials grant: the client acts on its own behalf. */
export function clientCredentialsGrant(
  ctx: TokenContext,
  scope: string | undefined,
): Promise<oauth.TokenEndpointResponse> {
  return requestToken(
    ctx,
    "The client credentials grant",
    () =>
      oauth.clientCredentialsGrantRequest(
        ctx.as,
        ctx.client,
        ctx.auth,
        parameters(ctx, scope, {}),
        options(ctx),
      ),
    (response) => oauth.processClientCredentialsResponse(ctx.as, ctx.client, response),
  );
}

/**
 * The JWT-bearer grant with an assertion (a workload identity token, or an ID-JAG). A refusal
 * is final: SEP-1933 clients neither retry the assertion nor fall back to another grant.
 */
export function jwtBearerGrant(
  ctx: TokenContext,
  assertion: string,
  scope: string | undefined,
): Promise<oauth.TokenEndpointResponse> {
  return requestToken(
    ctx,
    "The JWT-bearer grant",
    () =>
      oauth.genericTokenEndpointRequest(
        ctx.as,
        ctx.client,
        ctx.auth,
        JWT_BEARER,
        parameters(ctx, scope, { assertion }),
        options(ctx),
      ),
    (response) => oauth.processGenericTokenEndpointResponse(ctx.as, ctx.client, response),
  );
}

/**
 * Exchanges the user's ID token at the enterprise identity provider for an ID-JAG (an identity
 * assertion authorization grant) addressed to the MCP server's authorization server.
 */
export async function exchangeIdToken(
  http: AuthHttp,
  idp: IdentityProvider,
  input: { idToken: string; audience: string; resource: string; scope: string | undefined },
): Promise<string> {
  const as: oauth.AuthorizationServer = {
    issuer: idp.issuer ?? new URL(idp.tokenEndpoint).origin,
    token_endpoint: idp.tokenEndpoint,
  };
  const client: oauth.Client = { client_id: idp.clientId };
  const auth = idp.clientSecret ? oauth.ClientSecretPost(idp.clientSecret) : oauth.None();
  const params = new URLSearchParams({
    requested_token_type: ID_JAG,
    audience: input.audience,
    resource: input.resource,
    subject_token: input.idToken,
    subject_token_type: ID_TOKEN,
  });
  if (input.scope) params.set("scope", input.scope);
  let response: oauth.TokenEndpointResponse;
  try {
    // The endpoint comes from the user's configuration, not from a server: it is trusted.
    const sent = await oauth.genericTokenEndpointRequest(as, client, auth, TOKEN_EXCHANGE, params, {
      ...o4w(http, "identity provider token endpoint", true),
    });
    response = await oauth.processGenericTokenEndpointResponse(as, client, sent, {
      // RFC 8693: an exchanged token that is not an access token has token_type N_A.
      recognizedTokenTypes: { n_a: () => {} },
    });
  } catch (error) {
    throw tokenError(as.issuer, "The token exchange with the identity provider", error);
  }
  const issued = (response as { issued_token_type?: unknown }).issued_token_type;
  if (issued !== undefined && issued !== ID_JAG) {
    throw new OAuthError(
      `The identity provider issued a ${String(issued)}, not an identity assertion grant`,
      "token",
      { issuer: as.issuer },
    );
  }
  return response.access_token;
}
