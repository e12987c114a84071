/**
 * Errors of the OAuth machinery. None of them ever carries a token, a client secret, an
 * authorization code or a PKCE verifier, in its message or in its fields.
 *
 * @module
 */

import { type AuthChallenge, AuthorizationError } from "../errors.ts";

/**
 * Which step of authorization failed.
 *
 * @example Naming the step that failed
 * ```ts
 * import type { OAuthErrorKind } from "@mcp-inspect/client/auth";
 * const kind: OAuthErrorKind = "discovery";
 * ```
 */
export type OAuthErrorKind =
  | "network"
  | "discovery"
  | "metadata"
  | "registration"
  | "authorization"
  | "token"
  | "unsafe-url"
  | "configuration";

/**
 * Authorization with an OAuth authorization server failed: discovery, registration, the
 * authorization response, a token request, or a URL the client refused to use.
 *
 * @example Telling a refused authorization server apart
 * ```ts
 * import { OAuthError, OAuthProvider } from "@mcp-inspect/client/auth";
 *
 * // An MCP server on loopback whose authorization server (its origin's default endpoints,
 * // MCP 2025-03-26) refuses the client's credentials.
 * await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
 *   const { pathname } = new URL(request.url);
 *   if (pathname === "/token") return Response.json({ error: "invalid_client" }, { status: 401 });
 *   return new Response(null, { status: pathname === "/mcp" ? 401 : 404 });
 * });
 * const provider = new OAuthProvider({
 *   serverUrl: `http://127.0.0.1:${server.addr.port}/mcp`,
 *   grant: { type: "client_credentials" },
 *   client: { clientId: "my-agent", clientSecret: "wrong" },
 * });
 * await provider.authorize().catch((error) => {
 *   if (!(error instanceof OAuthError)) throw error;
 *   console.error(error.kind, error.oauthError, error.issuer);
 *   // "token" "invalid_client" "http://127.0.0.1:<port>"
 * });
 * ```
 */
export class OAuthError extends Error {
  /** The step that failed. */
  readonly kind: OAuthErrorKind;
  /** The authorization server involved, when known. */
  readonly issuer: string | undefined;
  /** The OAuth `error` code the authorization server sent (`invalid_grant`, ...), if any. */
  readonly oauthError: string | undefined;
  /** The HTTP status of the failed response, if any. */
  readonly status: number | undefined;

  /**
   * Creates the error.
   *
   * @example A refused token request
   * ```ts
   * import { OAuthError } from "@mcp-inspect/client/auth";
   * const error = new OAuthError("Token request failed", "token", { oauthError: "invalid_grant" });
   * console.log(error.kind, error.oauthError); // "token" "invalid_grant"
   * ```
   */
  constructor(
    message: string,
    kind: OAuthErrorKind,
    fields: {
      issuer?: string | undefined;
      oauthError?: string | undefined;
      status?: number | undefined;
    } = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "OAuthError";
    this.kind = kind;
    this.issuer = fields.issuer;
    this.oauthError = fields.oauthError;
    this.status = fields.status;
  }
}

/**
 * The server requires authorization that cannot happen without the user: no usable token is
 * stored and no interactive login was configured, or the server asks for more scope. It is an
 * {@link AuthorizationError}, so code that handles HTTP 401 and 403 handles it too.
 *
 * @example Asking the user to log in
 * ```ts
 * import { Client, StreamableHttpTransport } from "@mcp-inspect/client";
 * import { AuthorizationRequiredError, OAuthProvider } from "@mcp-inspect/client/auth";
 *
 * // An MCP server on loopback that wants a token; no token is stored and no login configured.
 * await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) =>
 *   new Response(null, { status: new URL(request.url).pathname === "/mcp" ? 401 : 404 }));
 * const url = `http://127.0.0.1:${server.addr.port}/mcp`;
 * const provider = new OAuthProvider({ serverUrl: url, loginHint: "run `my-cli login`" });
 * const transport = new StreamableHttpTransport({ url, fetch: provider.fetch });
 * await Client.connect(transport).catch((error) => {
 *   if (!(error instanceof AuthorizationRequiredError)) throw error;
 *   console.error(error.message);
 *   // "Server http://127.0.0.1:<port>/mcp requires authorization: run `my-cli login`"
 * });
 * ```
 */
export class AuthorizationRequiredError extends AuthorizationError {
  /** The MCP server that asked for authorization. */
  readonly serverUrl: string;
  /** The scope the server asked for, if it named one. */
  readonly requiredScope: string | undefined;

  /**
   * Creates the error.
   *
   * @example A server that wants a login first
   * ```ts
   * import { AuthorizationRequiredError } from "@mcp-inspect/client/auth";
   * const error = new AuthorizationRequiredError("Log in first", "https://mcp.example.com/mcp");
   * console.log(error.status, error.serverUrl); // 401 "https://mcp.example.com/mcp"
   * ```
   */
  constructor(
    message: string,
    serverUrl: string,
    fields: { status?: number; challenges?: readonly AuthChallenge[]; requiredScope?: string } = {},
  ) {
    super(message, fields.status ?? 401, fields.challenges ?? []);
    this.name = "AuthorizationRequiredError";
    this.serverUrl = serverUrl;
    this.requiredScope = fields.requiredScope;
  }
}
