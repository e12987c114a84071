// Getting a client identifier, in the spec's order (basic/authorization/client-registration):
// pre-registered credentials, a Client ID Metadata Document URL, Dynamic Client Registration as
// the fallback; and authenticating that client at the token endpoint.

import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.ts";
import { type AuthHttp, o4w } from "./_http.ts";
import { isLoopback } from "./_safety.ts";
import type { AuthRecord, StoredClient } from "./store.ts";
import type { OAuthClientOptions } from "./types.ts";

/** Client credentials the user configured. */
export interface ConfiguredClient {
  clientId: string;
  clientSecret?: string | undefined;
  privateKey?: CryptoKey | undefined;
  issuer?: string | undefined;
  tokenEndpointAuthMethod?: string | undefined;
}

/** Whether a stored client's redirect URIs allow `redirectUri`. */
function allowsRedirect(client: StoredClient, redirectUri: string | undefined): boolean {
  if (redirectUri === undefined || client.source !== "dynamic") return true;
  const wanted = new URL(redirectUri);
  return (client.redirectUris ?? []).some((uri) => {
    const known = new URL(uri);
    // OAuth 2.1 section 8.4.2: any port is acceptable for a loopback IP redirect URI.
    if (isLoopback(known) && isLoopback(wanted) && known.hostname === wanted.hostname) {
      return known.protocol === wanted.protocol && known.pathname === wanted.pathname;
    }
    return known.href === wanted.href;
  });
}

/** The token endpoint authentication method to ask for in a registration. */
function registrationAuthMethod(as: oauth.AuthorizationServer): string | undefined {
  const supported = as.token_endpoint_auth_methods_supported;
  if (!supported || supported.includes("none")) return "none";
  return ["client_secret_basic", "client_secret_post"].find((m) => supported.includes(m));
}

/**
 * Forgives two common deviations from RFC 7591 that change nothing for us: 200 instead of 201,
 * and a `client_secret` without its (required) `client_secret_expires_at`, read as "never".
 */
async function lenient(response: Response): Promise<Response> {
  if (response.status !== 200 && response.status !== 201) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, { status: 201, headers: response.headers });
  }
  if (typeof body === "object" && body !== null && "client_secret" in body) {
    (body as Record<string, unknown>).client_secret_expires_at ??= 0;
  }
  return new Response(JSON.stringify(body), { status: 201, headers: response.headers });
}

async function register(
  http: AuthHttp,
  as: oauth.AuthorizationServer,
  input: { clientName: string; redirectUri: string; scope: string | undefined },
): Promise<StoredClient> {
  const method = registrationAuthMethod(as);
  const redirect = new URL(input.redirectUri);
  const metadata = {
    client_name: input.clientName,
    redirect_uris: [input.redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    // SEP-837: a CLI with a loopback redirect is a native application.
    application_type: isLoopback(redirect) || !redirect.protocol.startsWith("http")
      ? "native"
      : "web",
    ...(method ? { token_endpoint_auth_method: method } : {}),
    ...(input.scope ? { scope: input.scope } : {}),
  };
  let registered: Awaited<ReturnType<typeof oauth.processDynamicClientRegistrationResponse>>;
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      metadata,
      o4w(http, "registration endpoint"),
    );
    registered = await oauth.processDynamicClientRegistrationResponse(await lenient(response));
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    const body = error instanceof oauth.ResponseBodyError ? error : undefined;
    throw new OAuthError(
      `Dynamic client registration with ${as.issuer} failed: ${
        body ? `${body.error}${body.error_description ? `: ${body.error_description}` : ""}` : (
          error as Error
        ).message
      }`,
      "registration",
      { issuer: as.issuer, oauthError: body?.error, status: body?.status },
    );
  }
  const secret = typeof registered.client_secret === "string"
    ? registered.client_secret
    : undefined;
  const returned = typeof registered.token_endpoint_auth_method === "string"
    ? registered.token_endpoint_auth_method
    : undefined;
  return {
    clientId: registered.client_id,
    ...(secret ? { clientSecret: secret } : {}),
    tokenEndpointAuthMethod: returned ?? (secret ? chooseSecretMethod(as) : "none"),
    redirectUris: Array.isArray(registered.redirect_uris)
      ? registered.redirect_uris as string[]
      : [input.redirectUri],
    source: "dynamic",
  };
}

/** The secret-based method the authorization server prefers. */
export function chooseSecretMethod(as: oauth.AuthorizationServer): string {
  const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  return "client_secret_basic";
}

/**
 * Pre-registered credentials as a stored client, refused when they are bound to another
 * authorization server than `as`: they are never sent to a second one.
 */
export function preRegistered(
  configured: ConfiguredClient,
  as: oauth.AuthorizationServer,
): StoredClient {
  if (configured.issuer !== undefined && configured.issuer !== as.issuer) {
    throw new OAuthError(
      `The configured client credentials belong to ${configured.issuer}, but the server now ` +
        `uses ${as.issuer}; they are not sent to another authorization server`,
      "configuration",
      { issuer: as.issuer },
    );
  }
  return {
    clientId: configured.clientId,
    ...(configured.clientSecret ? { clientSecret: configured.clientSecret } : {}),
    tokenEndpointAuthMethod: configured.tokenEndpointAuthMethod ??
      (configured.privateKey
        ? "private_key_jwt"
        : configured.clientSecret
        ? chooseSecretMethod(as)
        : "none"),
    source: "pre-registered",
  };
}

/**
 * The client to use with `as`, in the spec's priority order. `existing` is what the store holds
 * for this very issuer (credentials are never looked up under another one).
 */
export async function obtainClient(http: AuthHttp, input: {
  as: oauth.AuthorizationServer;
  configured: ConfiguredClient | undefined;
  existing: StoredClient | undefined;
  clientMetadataUrl: string | undefined;
  redirectUri: string | undefined;
  clientName: string;
  scope: string | undefined;
}): Promise<StoredClient> {
  const { as, configured } = input;
  if (configured) return preRegistered(configured, as);
  if (input.existing && allowsRedirect(input.existing, input.redirectUri)) return input.existing;
  if (input.clientMetadataUrl && as.client_id_metadata_document_supported === true) {
    return {
      clientId: input.clientMetadataUrl,
      tokenEndpointAuthMethod: "none",
      source: "metadata-document",
    };
  }
  if (as.registration_endpoint && input.redirectUri) {
    return await register(http, as, {
      clientName: input.clientName,
      redirectUri: input.redirectUri,
      scope: input.scope,
    });
  }
  throw new OAuthError(
    `Authorization server ${as.issuer} supports neither client ID metadata documents nor ` +
      `dynamic client registration; configure a pre-registered client ID`,
    "registration",
    { issuer: as.issuer },
  );
}

/**
 * HTTP Basic client authentication (RFC 6749 section 2.3.1). oauth4webapi also escapes `-`, `.`,
 * `_` and `~`, which servers that split the decoded header without unescaping reject.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`;
    headers.set("authorization", `Basic ${btoa(credentials)}`);
  };
}

/** How the client authenticates at the token endpoint. */
export function clientAuthentication(
  client: StoredClient,
  privateKey?: CryptoKey,
): oauth.ClientAuth {
  const secret = client.clientSecret;
  switch (client.tokenEndpointAuthMethod) {
    case "private_key_jwt":
      if (!privateKey) break;
      return oauth.PrivateKeyJwt(privateKey);
    case "client_secret_post":
      if (!secret) break;
      return oauth.ClientSecretPost(secret);
    case "client_secret_jwt":
      if (!secret) break;
      return oauth.ClientSecretJwt(secret);
    case "client_secret_basic":
      if (!secret) break;
      return clientSecretBasic(secret);
    case "none":
      return oauth.None();
    case undefined:
      return secret ? clientSecretBasic(secret) : oauth.None();
  }
  throw new OAuthError(
    `Client authentication method ${client.tokenEndpointAuthMethod} needs credentials that are not configured`,
    "configuration",
  );
}

/**
 * The pre-registered client, bound to one issuer: the configured one, or the one it was first
 * used with. Another authorization server never sees it (spec: authorization server binding;
 * pre-registered credentials are specific to one authorization server).
 */
export function bindConfiguredClient(
  client: OAuthClientOptions | undefined,
  record: AuthRecord,
  issuer: string,
  privateKey: CryptoKey | undefined,
): ConfiguredClient | undefined {
  if (!client) return undefined;
  const boundTo = client.issuer ??
    Object.entries(record.issuers).find(([, entry]) =>
      entry.client?.source === "pre-registered" && entry.client.clientId === client.clientId
    )?.[0];
  if (boundTo !== undefined && boundTo !== issuer) {
    throw new OAuthError(
      `The pre-registered client ${JSON.stringify(client.clientId)} belongs to ${boundTo}, ` +
        `but the server now uses ${issuer}; its credentials are not sent there`,
      "configuration",
      { issuer },
    );
  }
  return {
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    privateKey,
    issuer,
    // `||`: an empty method is none, so that preRegistered() picks one from the credentials.
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod || undefined,
  };
}
