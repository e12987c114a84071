// The authorization code flow with PKCE (OAuth 2.1 section 4.1): the authorization URL, the
// user's trip through the authorization server, and the checks on the way back (state, and the
// RFC 9207 `iss` against the recorded issuer) before the code goes to any token endpoint.

import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.ts";
import { checkScheme } from "./_safety.ts";
import { o4w } from "./_http.ts";
import { requestToken, type TokenContext } from "./_grants.ts";
import type { AuthorizationInteraction } from "./types.ts";

/**
 * PKCE support must be verified before anything else (spec security considerations): metadata
 * without `code_challenge_methods_supported`, or without S256 in it, means no.
 */
export function checkPkce(as: oauth.AuthorizationServer): void {
  const methods = as.code_challenge_methods_supported;
  if (Array.isArray(methods) && methods.includes("S256")) return;
  throw new OAuthError(
    `Authorization server ${as.issuer} does not advertise PKCE with S256 ` +
      `(code_challenge_methods_supported: ${JSON.stringify(methods ?? null)}); refusing to proceed`,
    "metadata",
    { issuer: as.issuer },
  );
}

/** Why an authorization response is rejected, without repeating anything it contained. */
function rejection(issuer: string, error: unknown): OAuthError {
  if (error instanceof oauth.AuthorizationResponseError) {
    // Only reached once `iss` matched: the error fields are then the real server's to show.
    return new OAuthError(
      `Authorization was refused by ${issuer}: ${error.error}${
        error.error_description ? `: ${error.error_description}` : ""
      }`,
      "authorization",
      { issuer, oauthError: error.error },
    );
  }
  const message = error instanceof Error ? error.message : "";
  const reason = /"iss"/.test(message)
    ? /missing/.test(message)
      ? `it carries no "iss" although ${issuer} promises one (RFC 9207)`
      : `its "iss" is not ${issuer} (RFC 9207; a mix-up attack?)`
    : /"state"/.test(message)
    ? `its "state" does not match the one sent (a forged or replayed response?)`
    : "it is malformed";
  // Nothing the response carried (code, error, error_description) is repeated here.
  return new OAuthError(`The authorization response was rejected: ${reason}`, "authorization", {
    issuer,
  });
}

/** Runs the flow and redeems the code; returns the token response. */
export async function authorizationCodeFlow(
  ctx: TokenContext,
  input: {
    interaction: AuthorizationInteraction;
    scope: string | undefined;
    signal: AbortSignal | undefined;
    log: (message: string) => void;
  },
): Promise<oauth.TokenEndpointResponse> {
  const { as, client } = ctx;
  checkPkce(as);
  const endpoint = checkScheme(as.authorization_endpoint, "authorization endpoint");
  const redirectUri = input.interaction.redirectUri; // sent exactly as registered
  checkScheme(redirectUri, "redirect URI");
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client_id);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("resource", ctx.resource);
  if (input.scope) url.searchParams.set("scope", input.scope);
  input.log(`Waiting for the user to authorize at ${endpoint.origin}${endpoint.pathname}`);
  const returned = await input.interaction.openAuthorizationUrl(
    url,
    input.signal ? { signal: input.signal } : {},
  );
  let callback: URL;
  try {
    callback = new URL(String(returned));
  } catch {
    throw new OAuthError("The authorization response is not a URL", "authorization", {
      issuer: as.issuer,
    });
  }
  const expected = new URL(redirectUri);
  if (callback.origin !== expected.origin || callback.pathname !== expected.pathname) {
    throw new OAuthError(
      `The authorization response arrived at ${callback.origin}${callback.pathname}, not at the redirect URI`,
      "authorization",
      { issuer: as.issuer },
    );
  }
  let params: URLSearchParams;
  try {
    // Checks `iss` (simple string comparison, before anything else), then `state`, then `error`.
    params = oauth.validateAuthResponse(as, client, callback.searchParams, state);
  } catch (error) {
    throw rejection(as.issuer, error);
  }
  return await requestToken(
    ctx,
    "Redeeming the authorization code",
    () =>
      oauth.authorizationCodeGrantRequest(as, client, ctx.auth, params, redirectUri, verifier, {
        ...o4w(ctx.http, "token endpoint"),
        additionalParameters: { resource: ctx.resource },
        ...(ctx.dpop ? { DPoP: ctx.dpop } : {}),
      }),
    (response) => oauth.processAuthorizationCodeResponse(as, client, response),
  );
}
