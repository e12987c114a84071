/**
 * The shapes callers give to and get from {@link OAuthProvider}: how the user authorizes, which
 * grant to use, and what is known about a server's authorization.
 *
 * @module
 */

import type { StoredClient, TokenStore } from "./store.ts";

/**
 * How the user authorizes: the redirect URI registered with the authorization server, and a
 * way to send the user to the authorization URL and learn where the authorization server sent
 * them back. {@link LoopbackAuthorization} is the one a command-line program wants.
 *
 * @example An interaction that asks the user to paste the callback URL
 * ```ts
 * import type { AuthorizationInteraction } from "@mcp-inspect/client/auth";
 * const interaction: AuthorizationInteraction = {
 *   redirectUri: "http://127.0.0.1:8976/callback",
 *   openAuthorizationUrl(url) {
 *     console.log(`Open ${url.href} and paste the address you land on:`);
 *     return Promise.resolve(prompt("Callback URL:") ?? "");
 *   },
 * };
 * ```
 */
export interface AuthorizationInteraction {
  /** The redirect URI: `https:` or a loopback `http:` address. */
  readonly redirectUri: string;
  /** Sends the user to `url`; resolves with the URL the authorization server redirected to. */
  openAuthorizationUrl(url: URL, options: { signal?: AbortSignal }): Promise<URL | string>;
}

/**
 * A value given directly or produced on demand (a workload token read from a file, say).
 *
 * @example A token read from the environment when needed
 * ```ts
 * import type { Secret } from "@mcp-inspect/client/auth";
 * const token: Secret = () => Deno.env.get("WORKLOAD_TOKEN") ?? "";
 * ```
 */
export type Secret = string | (() => string | Promise<string>);

/**
 * The enterprise identity provider of enterprise-managed authorization (SEP-990).
 *
 * @example An identity provider's token endpoint
 * ```ts
 * import type { IdentityProvider } from "@mcp-inspect/client/auth";
 * const idp: IdentityProvider = { tokenEndpoint: "https://idp.example.com/token", clientId: "mcp" };
 * ```
 */
export interface IdentityProvider {
  /** Its token endpoint, where the ID token is exchanged (RFC 8693). */
  tokenEndpoint: string;
  /** Its issuer identifier. */
  issuer?: string;
  /** The client ID the identity provider knows this client by. */
  clientId: string;
  /** The client secret at the identity provider, if it has one. */
  clientSecret?: string;
}

/**
 * How the provider gets tokens. `authorization_code` (the default) involves the user;
 * the others are the authorization extensions for clients acting without one:
 * `client_credentials` (SEP-1046, with a client secret or a private key JWT), `jwt_bearer`
 * (workload identity federation, SEP-1933) and `enterprise` (enterprise-managed authorization,
 * SEP-990: an ID token exchanged at the identity provider, then a JWT-bearer grant).
 *
 * @example A workload with a token from its platform
 * ```ts
 * import type { OAuthGrant } from "@mcp-inspect/client/auth";
 * const grant: OAuthGrant = {
 *   type: "jwt_bearer",
 *   assertion: () => Deno.readTextFile("/var/run/secrets/token"),
 * };
 * ```
 */
export type OAuthGrant =
  | { type: "authorization_code" }
  | { type: "client_credentials" }
  | { type: "jwt_bearer"; assertion: Secret }
  | { type: "enterprise"; idToken: Secret; identityProvider: IdentityProvider };

/**
 * What is stored for a server, without any secret.
 *
 * @example A status with a refreshable bearer token
 * ```ts
 * import type { AuthorizationStatus } from "@mcp-inspect/client/auth";
 * const status: AuthorizationStatus = {
 *   serverUrl: "https://mcp.example.com/mcp",
 *   issuer: "https://auth.example.com",
 *   authorized: true,
 *   tokenType: "bearer",
 *   refreshable: true,
 * };
 * ```
 */
export interface AuthorizationStatus {
  /** The server, as keyed in the store. */
  serverUrl: string;
  /** The authorization server in use. */
  issuer: string;
  /** Whether an access token is stored. */
  authorized: boolean;
  /** The client ID. */
  clientId?: string;
  /** How the client ID was obtained. */
  clientSource?: StoredClient["source"];
  /** `bearer` or `dpop`. */
  tokenType?: string;
  /** The scope granted. */
  scope?: string;
  /** When the access token expires, in milliseconds since the epoch. */
  expiresAt?: number;
  /** Whether a refresh token is stored. */
  refreshable: boolean;
  /** The resource the tokens are for. */
  resource?: string;
}

/**
 * Client credentials obtained outside the protocol (pre-registration).
 *
 * @example A pre-registered client
 * ```ts
 * import type { OAuthClientOptions } from "@mcp-inspect/client/auth";
 * const client: OAuthClientOptions = { clientId: "my-app", issuer: "https://auth.example.com" };
 * ```
 */
export interface OAuthClientOptions {
  /** The client ID the authorization server issued. */
  clientId: string;
  /** The client secret of a confidential client. */
  clientSecret?: string | undefined;
  /** A private key (PKCS#8 PEM or CryptoKey) for `private_key_jwt` authentication. */
  privateKey?: string | CryptoKey;
  /** The JWS algorithm of a PEM `privateKey` (default ES256). */
  signingAlgorithm?: string;
  /**
   * The authorization server these credentials belong to. When absent they are bound to the
   * first authorization server they are used with, and never sent to another.
   */
  issuer?: string;
  /** Overrides the token endpoint authentication method. */
  tokenEndpointAuthMethod?: string;
}

/**
 * Options of {@link OAuthProvider}.
 *
 * @example A provider that keeps tokens in memory and names its client
 * ```ts
 * import { MemoryTokenStore, type OAuthProviderOptions } from "@mcp-inspect/client/auth";
 * const options: OAuthProviderOptions = {
 *   serverUrl: "https://mcp.example.com/mcp",
 *   store: new MemoryTokenStore(),
 *   clientName: "my-agent",
 * };
 * ```
 */
export interface OAuthProviderOptions {
  /** The MCP endpoint. Tokens are only ever sent to its origin. */
  serverUrl: string | URL;
  /** Where registrations and tokens are kept (default: in memory). */
  store?: TokenStore;
  /** Pre-registered client credentials; they take precedence over any registration. */
  client?: OAuthClientOptions | undefined;
  /** A Client ID Metadata Document URL, used as client ID where the server supports it. */
  clientMetadataUrl?: string | undefined;
  /** The client name sent in dynamic registrations (default "mcp-inspect"). */
  clientName?: string;
  /** How tokens are obtained (default: the authorization code flow). */
  grant?: OAuthGrant;
  /** How the user authorizes; without it, authorization that needs the user fails. */
  interaction?: AuthorizationInteraction;
  /** The scope to ask for, instead of the spec's selection strategy. */
  scope?: string | undefined;
  /** Ask for `offline_access` where the authorization server offers it (default true). */
  offlineAccess?: boolean;
  /** Bind tokens with DPoP: where the authorization server supports it (default), always, never. */
  dpop?: boolean | "auto";
  /** Authorizations in a row that may fail to satisfy the server before giving up (default 3). */
  maxAttempts?: number;
  /** The `fetch` behind every request (default: the global one). */
  fetch?: typeof fetch;
  /** Resolves host names for the address checks (default: the system's DNS). */
  resolveHost?: (hostname: string) => Promise<string[]>;
  /** Receives a line per step; lines never contain tokens, codes or secrets. */
  onLog?: ((message: string) => void) | undefined;
  /** Appended to the message of {@link AuthorizationRequiredError} (say what to run). */
  loginHint?: string;
  /** Cancels authorization in progress. */
  signal?: AbortSignal;
}
