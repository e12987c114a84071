/**
 * OAuth 2.1 authorization for MCP servers over HTTP ({@link OAuthProvider}): discovery,
 * registration, the grants, refresh and step-up, behind one `fetch` to hand to a transport.
 *
 * @module
 */

import { OAuthError } from "./errors.ts";
import type { AuthHttp } from "./_http.ts";
import { isLocal, isLoopback, systemResolve } from "./_safety.ts";
import { discover, discoverAuthorizationServer } from "./_discovery.ts";
import { covers, selectScope, unionScopes } from "./_scopes.ts";
import { refreshGrant, storedTokens, tokenError } from "./_grants.ts";
import { bindConfiguredClient, clientAuthentication } from "./_registration.ts";
import { importPrivateKey } from "./_keys.ts";
import { obtainTokens } from "./_obtain.ts";
import {
  challengeOf,
  type Credential,
  type Outgoing,
  outgoing,
  sendPlain,
  sendWithToken,
} from "./_resource.ts";
import { type AuthRecord, MemoryTokenStore, type TokenStore } from "./store.ts";
import { currentState, type State, statusOf } from "./_state.ts";
import type { AuthorizationStatus, OAuthProviderOptions } from "./types.ts";

/** The key of a server in the store: its URL without fragment. */
function serverKey(url: URL): string {
  const copy = new URL(url);
  copy.hash = "";
  return copy.href;
}

/**
 * Authorizes requests to one MCP server with OAuth 2.1 as the MCP specification describes
 * (revisions 2025-11-25 and 2026-07-28). Give its {@link OAuthProvider.fetch} to an HTTP
 * transport: requests carry the stored token; a 401 runs discovery (RFC 9728, RFC 8414, OpenID
 * Connect) and refresh, or a new authorization; a 403 `insufficient_scope` re-authorizes with
 * the union of the scopes. Credentials are kept per authorization server `issuer` and never
 * offered to another one; tokens go only in the `Authorization` header of requests to the
 * server's origin, and only over HTTPS or loopback.
 *
 * @example Logging in with the browser, then connecting
 * ```ts ignore
 * import { Client, StreamableHttpTransport } from "@mcp-inspect/client";
 * import { FileTokenStore, LoopbackAuthorization, OAuthProvider } from "@mcp-inspect/client/auth";
 * await using login = await LoopbackAuthorization.start();
 * const provider = new OAuthProvider({
 *   serverUrl: "https://mcp.example.com/mcp",
 *   store: new FileTokenStore(),
 *   interaction: login,
 * });
 * await provider.authorize();
 * await using client = await Client.connect(
 *   new StreamableHttpTransport({ url: "https://mcp.example.com/mcp", fetch: provider.fetch }),
 * );
 * ```
 */
export class OAuthProvider {
  /** The server's key in the store. */
  readonly serverUrl: string;
  /** A `fetch` that authorizes requests to the server; other requests pass through untouched. */
  readonly fetch: typeof fetch;
  readonly #url: URL;
  readonly #options: OAuthProviderOptions;
  readonly #store: TokenStore;
  readonly #inner: typeof fetch;
  readonly #http: AuthHttp;
  #state: State | undefined;
  #loaded: Promise<void> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #failures = 0;
  readonly #steppedUp = new Set<string>();
  #privateKey: Promise<CryptoKey | undefined> | undefined;

  /**
   * Checks the options; nothing is fetched until the first request.
   *
   * @example A provider for one server, with tokens kept in memory
   * ```ts
   * import { OAuthProvider } from "@mcp-inspect/client/auth";
   * const provider = new OAuthProvider({ serverUrl: "https://mcp.example.com/mcp" });
   * console.log(provider.serverUrl);
   * ```
   */
  constructor(options: OAuthProviderOptions) {
    this.#options = options;
    try {
      this.#url = new URL(options.serverUrl);
    } catch {
      throw new OAuthError("The server URL is not a valid URL", "configuration");
    }
    if (this.#url.protocol !== "https:" && this.#url.protocol !== "http:") {
      throw new OAuthError("The server URL must use http: or https:", "configuration");
    }
    this.serverUrl = serverKey(this.#url);
    this.#store = options.store ?? new MemoryTokenStore();
    this.#inner = options.fetch ?? ((input, init) => fetch(input, init));
    const resolve = options.resolveHost ?? systemResolve;
    this.#http = {
      fetch: this.#inner,
      resolve,
      allowLocal: isLocal(this.#url),
      signal: options.signal,
    };
    this.fetch = (input, init) => this.#fetch(input, init);
  }

  /**
   * Authorizes now, even if tokens are stored: asks the server how (one unauthenticated
   * request), then runs the configured grant. Use it before connecting, so that a user taking
   * their time in the browser does not hold up the connection's first request.
   *
   * @example Logging in before connecting, as a workload with client credentials
   * ```ts
   * import { OAuthProvider } from "@mcp-inspect/client/auth";
   *
   * // An MCP server on loopback that wants a token, and its authorization server: the default
   * // endpoints at its origin (MCP 2025-03-26), so no metadata documents.
   * const loopback = { hostname: "127.0.0.1", port: 0, onListen() {} };
   * await using server = Deno.serve(loopback, (request) => {
   *   const { pathname } = new URL(request.url);
   *   if (pathname === "/token") return Response.json({ access_token: "a", token_type: "bearer" });
   *   return new Response(null, { status: pathname === "/mcp" ? 401 : 404 });
   * });
   * const provider = new OAuthProvider({
   *   serverUrl: `http://127.0.0.1:${server.addr.port}/mcp`,
   *   grant: { type: "client_credentials" },
   *   client: { clientId: "my-agent", clientSecret: "s3cret" },
   * });
   * const status = await provider.authorize();
   * console.log(`Authorized by ${status.issuer}`); // "Authorized by http://127.0.0.1:<port>"
   * ```
   */
  async authorize(): Promise<AuthorizationStatus> {
    await this.#load();
    const probe = await sendPlain(this.#inner, {
      url: this.#url,
      method: "POST",
      headers: new Headers({
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      }),
      body: JSON.stringify({ jsonrpc: "2.0", id: "mcp-inspect-authorize", method: "ping" }),
      signal: this.#options.signal,
    });
    await probe.body?.cancel();
    const challenge = probe.status === 401 || probe.status === 403
      ? challengeOf(probe, "bearer")
      : undefined;
    await this.#exclusive(() => this.#authorizeWith(challenge?.resourceMetadata, challenge?.scope));
    return (await this.status())!;
  }

  /**
   * What is stored for this server, without any secret; undefined when nothing is.
   *
   * @example Printing when the access token expires
   * ```ts
   * import { MemoryTokenStore, OAuthProvider } from "@mcp-inspect/client/auth";
   * const serverUrl = "https://mcp.example.com/mcp", issuer = "https://auth.example.com";
   * const expiresAt = Date.UTC(2030, 0, 1);
   * const tokens = { accessToken: "secret", tokenType: "bearer", resource: serverUrl, expiresAt };
   * const store = new MemoryTokenStore();
   * await store.set(serverUrl, { issuer, issuers: { [issuer]: { tokens } } });
   * const provider = new OAuthProvider({ serverUrl, store });
   * const status = await provider.status();
   * if (status?.expiresAt) console.log(new Date(status.expiresAt)); // 2030-01-01T00:00:00.000Z
   * ```
   */
  async status(): Promise<AuthorizationStatus | undefined> {
    const record = await this.#store.get(this.serverUrl);
    return record ? statusOf(this.serverUrl, record) : undefined;
  }

  /**
   * Forgets the tokens and registrations stored for this server.
   *
   * @example Logging out
   * ```ts
   * import { MemoryTokenStore, OAuthProvider } from "@mcp-inspect/client/auth";
   * const store = new MemoryTokenStore();
   * await store.set("https://mcp.example.com/mcp", { issuers: {} });
   * const provider = new OAuthProvider({ serverUrl: "https://mcp.example.com/mcp", store });
   * if (await provider.logout()) console.log("Logged out"); // "Logged out"
   * console.log(await provider.logout(), await store.list()); // false []
   * ```
   */
  async logout(): Promise<boolean> {
    this.#state = undefined;
    return await this.#store.delete(this.serverUrl);
  }

  async #fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
    // Tokens stay on the server's origin; an Authorization header set by the caller wins.
    if (url.origin !== this.#url.origin || headers.has("authorization")) {
      return await this.#inner(input, init);
    }
    const request = await outgoing(input, init);
    await this.#load();
    await this.#refreshIfExpiring();
    let [response, used] = await this.#send(request);
    const max = this.#options.maxAttempts ?? 3;
    while (response.status === 401 || response.status === 403) {
      const challenge = challengeOf(response, used?.dpop ? "dpop" : "bearer");
      if (response.status === 403) {
        if (challenge.error !== "insufficient_scope") break;
        // Spec: track scope upgrades; a scope set already obtained once for a 403 that the
        // server still finds insufficient will not become sufficient by asking again.
        const target = unionScopes(this.#state?.tokens?.scope, challenge.scope) ?? "";
        if (this.#steppedUp.has(target)) break;
        this.#steppedUp.add(target);
      }
      // Spec: retry limits, so that a server that is never satisfied cannot loop us.
      if (this.#failures >= max) break;
      this.#failures++;
      await response.body?.cancel();
      const status = response.status;
      await this.#exclusive(async () => {
        // Another request may have renewed the token meanwhile: then just use the new one.
        if (this.#state?.tokens?.accessToken !== used?.accessToken) return;
        await this.#renew(status, challenge.resourceMetadata, challenge.scope);
      });
      [response, used] = await this.#send(request);
    }
    if (used && response.status !== 401 && response.status !== 403) this.#failures = 0;
    return response;
  }

  async #send(request: Outgoing): Promise<[Response, Credential | undefined]> {
    const tokens = this.#state?.tokens;
    if (!tokens) return [await sendPlain(this.#inner, request), undefined];
    if (request.url.protocol !== "https:" && !isLoopback(request.url)) {
      throw new OAuthError(
        `Refusing to send a token to ${request.url.origin} over plain http: (only https: or loopback)`,
        "unsafe-url",
      );
    }
    const credential: Credential = { accessToken: tokens.accessToken, dpop: this.#state?.dpop };
    return [await sendWithToken(this.#inner, request, credential), credential];
  }

  /** Runs `task` after every earlier one: one discovery, refresh or login at a time. */
  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }

  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      const record = await this.#store.get(this.serverUrl);
      this.#state = record ? await currentState(record) : undefined;
    })();
    return this.#loaded;
  }

  #log(message: string): void {
    try {
      this.#options.onLog?.(message);
    } catch {
      // a failing log sink must not break authorization
    }
  }

  /** On 401: refresh if the same server still authorizes us, else authorize anew. */
  async #renew(status: number, resourceMetadata: string | undefined, scope: string | undefined) {
    if (status === 401 && await this.#tryRefresh(resourceMetadata, scope)) return;
    await this.#authorizeWith(resourceMetadata, scope);
  }

  async #tryRefresh(resourceMetadata: string | undefined, scope: string | undefined) {
    const state = this.#state;
    if (!state?.tokens?.refreshToken || !covers(state.tokens.scope, scope)) return false;
    // Discovery first: if the server moved to another authorization server, the refresh token
    // must not go anywhere near it (SEP-2352).
    const discovery = await discover(this.#http, this.#url, resourceMetadata, [state.issuer]);
    if (discovery.as.issuer !== state.issuer || discovery.resource !== state.tokens.resource) {
      return false;
    }
    return await this.#refresh(state, discovery.as);
  }

  async #refreshIfExpiring(): Promise<void> {
    const tokens = this.#state?.tokens;
    if (!tokens?.refreshToken || tokens.expiresAt === undefined) return;
    if (tokens.expiresAt - Date.now() > 60_000) return;
    await this.#exclusive(async () => {
      const state = this.#state;
      if (state?.tokens !== tokens) return; // refreshed meanwhile
      const as = state.as ?? await discoverAuthorizationServer(this.#http, state.issuer);
      if (as) await this.#refresh(state, as).catch(() => false); // a 401 will tell
    });
  }

  async #refresh(state: State, as: NonNullable<State["as"]>): Promise<boolean> {
    const tokens = state.tokens!;
    const client = state.client;
    if (!client) return false;
    try {
      const response = await refreshGrant(
        {
          http: this.#http,
          as,
          client: { client_id: client.clientId },
          auth: clientAuthentication(client, await this.#key()),
          resource: tokens.resource,
          dpop: state.dpop,
        },
        tokens.refreshToken!,
        tokens.scope,
      );
      const fresh = storedTokens(response, tokens.resource, tokens.scope, tokens);
      await this.#save({ ...state, as, tokens: fresh });
      this.#log(`Refreshed the access token with ${as.issuer}`);
      return true;
    } catch (error) {
      const failure = tokenError(as.issuer, "Refreshing the access token", error);
      this.#log(`Could not refresh the access token: ${failure.message}`);
      if (failure.oauthError === "invalid_grant") await this.#save({ ...state, tokens: undefined });
      return false;
    }
  }

  async #authorizeWith(
    resourceMetadata: string | undefined,
    challengeScope: string | undefined,
  ): Promise<void> {
    if (this.#url.protocol !== "https:" && !isLoopback(this.#url)) {
      throw new OAuthError(
        `Server ${this.#url.origin} requires authorization but is served over plain http:; ` +
          "tokens are only sent over https: or to loopback",
        "unsafe-url",
      );
    }
    const record: AuthRecord = (await this.#store.get(this.serverUrl)) ?? { issuers: {} };
    const preferred = this.#state ? [this.#state.issuer] : Object.keys(record.issuers);
    const discovery = await discover(this.#http, this.#url, resourceMetadata, preferred);
    const issuer = discovery.as.issuer;
    this.#log(`Using authorization server ${issuer} for resource ${discovery.resource}`);
    const configured = bindConfiguredClient(
      this.#options.client,
      record,
      issuer,
      await this.#key(),
    );
    // SEP-2350: re-authorization keeps what was asked for before (step-up or not).
    const previous = this.#state?.tokens?.scope;
    const scope = selectScope({
      forced: this.#options.scope,
      challenge: challengeScope,
      metadata: discovery.metadata,
      as: discovery.as,
      previous,
      offlineAccess: this.#options.offlineAccess ?? true,
    });
    const entry = record.issuers[issuer] ?? {};
    const obtained = await obtainTokens({
      http: this.#http,
      serverUrl: `${this.#url.origin}${this.#url.pathname}`,
      discovery,
      entry,
      grant: this.#options.grant ?? { type: "authorization_code" },
      configured,
      privateKey: await this.#key(),
      clientMetadataUrl: this.#options.clientMetadataUrl,
      clientName: this.#options.clientName ?? "mcp-inspect",
      interaction: this.#options.interaction,
      scope,
      dpop: this.#options.dpop ?? "auto",
      loginHint: this.#options.loginHint,
      signal: this.#options.signal,
      log: (message) => this.#log(message),
    });
    await this.#save({
      issuer,
      as: discovery.as,
      client: obtained.client,
      tokens: obtained.tokens,
      dpop: obtained.dpop,
      dpopKey: obtained.dpopKey,
    });
  }

  #key(): Promise<CryptoKey | undefined> {
    const key = this.#options.client?.privateKey;
    this.#privateKey ??= key === undefined
      ? Promise.resolve(undefined)
      : typeof key === "string"
      ? importPrivateKey(key, this.#options.client?.signingAlgorithm)
      : Promise.resolve(key);
    return this.#privateKey;
  }

  /** Makes `state` current and stores it under its issuer. */
  async #save(state: State): Promise<void> {
    this.#state = state;
    const record: AuthRecord = (await this.#store.get(this.serverUrl)) ?? { issuers: {} };
    record.issuer = state.issuer;
    record.issuers[state.issuer] = {
      ...(state.client ? { client: state.client } : {}),
      ...(state.tokens ? { tokens: state.tokens } : {}),
      ...(state.dpopKey && state.tokens ? { dpopKey: state.dpopKey } : {}),
    };
    await this.#store.set(this.serverUrl, record);
  }
}
