/**
 * OAuth 2.1 for HTTP servers, as the MCP authorization spec describes it: discovery, dynamic or
 * metadata-document registration, PKCE, DPoP, token refresh, and token stores. Hand
 * {@link OAuthProvider.fetch} to an HTTP transport and every request is authorized.
 *
 * @example Authorizing an HTTP transport
 * ```ts
 * import { HttpTransport } from "@mcp-inspect/client";
 * import { FileTokenStore, LoopbackAuthorization, OAuthProvider } from "@mcp-inspect/client/auth";
 *
 * const url = "https://mcp.example.com/mcp";
 * await using login = await LoopbackAuthorization.start();
 * const provider = new OAuthProvider({
 *   serverUrl: url,
 *   store: new FileTokenStore(),
 *   interaction: login,
 * });
 * const transport = new HttpTransport({ url, fetch: provider.fetch });
 * // Nothing is sent yet: Client.connect(transport) would log in through the browser if needed.
 * ```
 *
 * @module
 */

export { openBrowser } from "./browser.ts";
export { AuthorizationRequiredError, OAuthError, type OAuthErrorKind } from "./errors.ts";
export { defaultCredentialsPath, FileTokenStore } from "./file_store.ts";
export { LoopbackAuthorization, type LoopbackAuthorizationOptions } from "./loopback.ts";
export { OAuthProvider } from "./auth.ts";
export {
  type AuthRecord,
  type IssuerRecord,
  MemoryTokenStore,
  type StoredClient,
  type StoredTokens,
  type TokenStore,
} from "./store.ts";
export {
  type AuthorizationInteraction,
  type AuthorizationStatus,
  type IdentityProvider,
  type OAuthClientOptions,
  type OAuthGrant,
  type OAuthProviderOptions,
  type Secret,
} from "./types.ts";
