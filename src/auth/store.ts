/**
 * Where client registrations and tokens live between requests and between runs: the
 * {@link TokenStore} interface and an in-memory store. Records are keyed by MCP server URL, and
 * inside a record by authorization server `issuer`, so credentials one authorization server
 * issued are never offered to another.
 *
 * @module
 */

/**
 * A client registration with one authorization server.
 *
 * @example A dynamically registered public client
 * ```ts
 * import type { StoredClient } from "@mcp-inspect/client/auth";
 * const client: StoredClient = { clientId: "abc", source: "dynamic", tokenEndpointAuthMethod: "none" };
 * ```
 */
export interface StoredClient {
  /** The client identifier the authorization server knows. */
  clientId: string;
  /** The client secret, for confidential clients. A secret: never print it. */
  clientSecret?: string;
  /** How the client authenticates at the token endpoint (`none`, `client_secret_basic`, ...). */
  tokenEndpointAuthMethod?: string;
  /** The redirect URIs it was registered with. */
  redirectUris?: string[];
  /** How the client came to exist. */
  source: "pre-registered" | "metadata-document" | "dynamic";
}

/**
 * Tokens issued by one authorization server for one MCP server.
 *
 * @example Bearer tokens for one server
 * ```ts
 * import type { StoredTokens } from "@mcp-inspect/client/auth";
 * const tokens: StoredTokens = {
 *   accessToken: "...",
 *   tokenType: "bearer",
 *   resource: "https://mcp.example.com/mcp",
 * };
 * ```
 */
export interface StoredTokens {
  /** The access token. A secret: never print it. */
  accessToken: string;
  /** `bearer` or `dpop`, lowercased. */
  tokenType: string;
  /** The refresh token, if one was issued. A secret: never print it. */
  refreshToken?: string;
  /** When the access token expires, in milliseconds since the epoch. */
  expiresAt?: number;
  /** The scope that was granted (or requested, when the server did not say). */
  scope?: string;
  /** The resource (RFC 8707) the tokens were issued for, exactly as it was requested. */
  resource: string;
}

/**
 * What is stored about one authorization server for one MCP server.
 *
 * @example A registration without tokens yet
 * ```ts
 * import type { IssuerRecord } from "@mcp-inspect/client/auth";
 * const record: IssuerRecord = { client: { clientId: "abc", source: "dynamic" } };
 * ```
 */
export interface IssuerRecord {
  /** The client registration, if any. */
  client?: StoredClient;
  /** The tokens, if any. */
  tokens?: StoredTokens;
  /** The private key DPoP-bound tokens are tied to, as a JWK. A secret: never print it. */
  dpopKey?: JsonWebKey;
}

/**
 * Everything stored for one MCP server.
 *
 * @example A record with an authorization server chosen and nothing stored yet
 * ```ts
 * import type { AuthRecord } from "@mcp-inspect/client/auth";
 * const record: AuthRecord = { issuer: "https://auth.example.com", issuers: {} };
 * ```
 */
export interface AuthRecord {
  /** The authorization server currently in use, by `issuer`. */
  issuer?: string;
  /** Per authorization server, keyed by its `issuer`. */
  issuers: Record<string, IssuerRecord>;
}

/**
 * Persistence for authorization state. Implementations must keep values confidential (the file
 * store writes mode 0600) and must return copies, not live objects.
 *
 * @example A store backed by a Map
 * ```ts
 * import type { AuthRecord, TokenStore } from "@mcp-inspect/client/auth";
 * const map = new Map<string, AuthRecord>();
 * const store: TokenStore = {
 *   get: (url) => Promise.resolve(structuredClone(map.get(url))),
 *   set: (url, record) => Promise.resolve(void map.set(url, structuredClone(record))),
 *   delete: (url) => Promise.resolve(map.delete(url)),
 *   list: () => Promise.resolve([...map.keys()]),
 * };
 * ```
 */
export interface TokenStore {
  /** The record of a server, if any. */
  get(serverUrl: string): Promise<AuthRecord | undefined>;
  /** Replaces the record of a server. */
  set(serverUrl: string, record: AuthRecord): Promise<void>;
  /** Forgets a server; true when there was something to forget. */
  delete(serverUrl: string): Promise<boolean>;
  /** The servers with a record. */
  list(): Promise<string[]>;
}

/**
 * A {@link TokenStore} that forgets everything when the process ends.
 *
 * @example Storing a record and listing the servers
 * ```ts
 * import { MemoryTokenStore } from "@mcp-inspect/client/auth";
 * const store = new MemoryTokenStore();
 * await store.set("https://mcp.example.com/mcp", { issuers: {} });
 * console.log(await store.list()); // ["https://mcp.example.com/mcp"]
 * ```
 */
export class MemoryTokenStore implements TokenStore {
  readonly #records = new Map<string, AuthRecord>();

  /**
   * The record of a server, as a copy.
   *
   * @example Changing a record read back does not change the store
   * ```ts
   * import { MemoryTokenStore } from "@mcp-inspect/client/auth";
   * const store = new MemoryTokenStore();
   * await store.set("https://mcp.example.com/mcp", { issuers: {} });
   * const record = await store.get("https://mcp.example.com/mcp");
   * record!.issuer = "https://auth.example.com";
   * console.log(await store.get("https://mcp.example.com/mcp")); // { issuers: {} }
   * ```
   */
  get(serverUrl: string): Promise<AuthRecord | undefined> {
    return Promise.resolve(structuredClone(this.#records.get(serverUrl)));
  }

  /**
   * Replaces the record of a server with a copy of `record`.
   *
   * @example Storing a client registration
   * ```ts
   * import { MemoryTokenStore } from "@mcp-inspect/client/auth";
   * const store = new MemoryTokenStore();
   * await store.set("https://mcp.example.com/mcp", {
   *   issuer: "https://auth.example.com",
   *   issuers: { "https://auth.example.com": { client: { clientId: "abc", source: "dynamic" } } },
   * });
   * ```
   */
  set(serverUrl: string, record: AuthRecord): Promise<void> {
    this.#records.set(serverUrl, structuredClone(record));
    return Promise.resolve();
  }

  /**
   * Forgets a server.
   *
   * @example Forgetting a server, then finding nothing more to forget
   * ```ts
   * import { MemoryTokenStore } from "@mcp-inspect/client/auth";
   * const store = new MemoryTokenStore();
   * await store.set("https://mcp.example.com/mcp", { issuers: {} });
   * console.log(await store.delete("https://mcp.example.com/mcp")); // true
   * console.log(await store.delete("https://mcp.example.com/mcp")); // false
   * ```
   */
  delete(serverUrl: string): Promise<boolean> {
    return Promise.resolve(this.#records.delete(serverUrl));
  }

  /**
   * The servers with a record.
   *
   * @example Listing the servers with a record
   * ```ts
   * import { MemoryTokenStore } from "@mcp-inspect/client/auth";
   * const store = new MemoryTokenStore();
   * await store.set("https://a.example.com/mcp", { issuers: {} });
   * await store.set("https://b.example.com/mcp", { issuers: {} });
   * console.log(await store.list()); // ["https://a.example.com/mcp", "https://b.example.com/mcp"]
   * ```
   */
  list(): Promise<string[]> {
    return Promise.resolve([...this.#records.keys()]);
  }
}
