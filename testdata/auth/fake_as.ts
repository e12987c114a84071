// A fake OAuth 2.1 authorization server, as a handler for Deno.serve. It is strict where the
// client must be right (PKCE S256, redirect URI, resource, client authentication, refresh token
// rotation) and, on request, misbehaves like a hostile or broken server: a metadata issuer that
// is not its own, no S256, a wrong `state` or `iss` in the redirect, an error response. It shares
// no code with the client.

/** What the fake saw. */
export interface SeenAuthRequest {
  path: string;
  /** Query (GET) or form (POST) parameters; a JSON body for /register. */
  params: Record<string, string>;
  /** The client ID from Basic authentication, if any. */
  basicClientId?: string;
  /** Whether the request carried a DPoP proof. */
  dpop: boolean;
}

/** How the fake behaves. */
export interface FakeAuthServerOptions {
  /** The issuer the metadata declares (default: the server's own origin). */
  metadataIssuer?: string;
  /** code_challenge_methods_supported; null omits it (default ["S256"]). */
  pkceMethods?: string[] | null;
  /** What the redirect carries as `state` (default: the client's). */
  state?: "echo" | "wrong" | "omit";
  /** What the redirect carries as `iss` (default: the issuer), and whether it is advertised. */
  iss?: "correct" | "wrong" | "omit";
  issAdvertised?: boolean;
  /** Answer the authorization request with this OAuth error instead of a code. */
  authorizeError?: string;
  /** scopes_supported of the metadata. */
  scopes?: string[];
  /** Makes each access token (default: random). */
  accessToken?: (n: number) => string;
  /** Issue refresh tokens (default true). */
  refresh?: boolean;
  /** expires_in of access tokens, in seconds (default 3600). */
  expiresIn?: number;
  /** Dynamic registrations give a client secret (default false: public clients). */
  secrets?: boolean;
  /** The secret registrations get, if any (default: random). */
  clientSecret?: string;
  /** authorization_endpoint override (to test scheme checks). */
  authorizationEndpoint?: string;
  /** resource_metadata etc. are not its concern; log receives every request. */
  log?: SeenAuthRequest[];
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string | null;
  scope: string;
}

async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return btoa(String.fromCharCode(...new Uint8Array(digest))).replace(/\+/g, "-").replace(
    /\//g,
    "_",
  ).replace(/=+$/, "");
}

function oauthError(error: string, status = 400): Response {
  return Response.json({ error, error_description: `fake: ${error}` }, { status });
}

/** A fake authorization server; serve it with `Deno.serve({ port: 0 }, fake.handler)`. */
export function fakeAuthServer(options: FakeAuthServerOptions = {}) {
  const codes = new Map<string, Grant>();
  const clients = new Map<string, { secret?: string; redirectUris: string[] }>();
  /** Live access tokens and their scope; refresh tokens and their grant. */
  const accessTokens = new Map<string, { scope: string; resource: string | null }>();
  const refreshTokens = new Map<string, Grant>();
  let issuedCount = 0;
  const tag = crypto.randomUUID().slice(0, 8); // client IDs differ between fakes
  const log = options.log ?? [];

  function issue(grant: Grant): Response {
    const token = options.accessToken?.(++issuedCount) ?? `at-${crypto.randomUUID()}`;
    accessTokens.set(token, { scope: grant.scope, resource: grant.resource });
    const refresh = options.refresh ?? true ? `rt-${crypto.randomUUID()}` : undefined;
    if (refresh) refreshTokens.set(refresh, grant);
    return Response.json({
      access_token: token,
      token_type: "Bearer",
      expires_in: options.expiresIn ?? 3600,
      ...(refresh ? { refresh_token: refresh } : {}),
      ...(grant.scope ? { scope: grant.scope } : {}),
    }, { headers: { "cache-control": "no-store" } });
  }

  async function handler(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const origin = url.origin;
    let params: Record<string, string> = Object.fromEntries(url.searchParams);
    let basicClientId: string | undefined;
    let basicSecret: string | undefined;
    const auth = request.headers.get("authorization");
    if (auth?.startsWith("Basic ")) {
      const [id, secret] = atob(auth.slice(6)).split(":").map(decodeURIComponent);
      basicClientId = id;
      basicSecret = secret;
    }
    if (request.method === "POST") {
      const text = await request.text();
      params = url.pathname === "/register"
        ? Object.fromEntries(
          Object.entries(JSON.parse(text)).map(([k, v]) => [k, JSON.stringify(v)]),
        )
        : Object.fromEntries(new URLSearchParams(text));
    }
    log.push({
      path: url.pathname,
      params,
      ...(basicClientId !== undefined ? { basicClientId } : {}),
      dpop: request.headers.has("dpop"),
    });

    if (url.pathname === "/.well-known/oauth-authorization-server") {
      const pkce = options.pkceMethods === undefined ? ["S256"] : options.pkceMethods;
      return Response.json({
        issuer: options.metadataIssuer ?? origin,
        authorization_endpoint: options.authorizationEndpoint ?? `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        token_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
        ...(pkce ? { code_challenge_methods_supported: pkce } : {}),
        ...(options.issAdvertised ?? true
          ? { authorization_response_iss_parameter_supported: true }
          : {}),
        ...(options.scopes ? { scopes_supported: options.scopes } : {}),
      });
    }
    if (url.pathname === "/register" && request.method === "POST") {
      const body = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, JSON.parse(v)]));
      const id = `client-${tag}-${clients.size + 1}`;
      const secret = options.secrets
        ? options.clientSecret ?? `secret-${crypto.randomUUID()}`
        : undefined;
      clients.set(id, { ...(secret ? { secret } : {}), redirectUris: body.redirect_uris ?? [] });
      return Response.json({
        client_id: id,
        ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
        redirect_uris: body.redirect_uris ?? [],
        token_endpoint_auth_method: secret ? "client_secret_basic" : "none",
      }, { status: 201 });
    }
    if (url.pathname === "/authorize" && request.method === "GET") {
      const client = clients.get(params.client_id ?? "");
      const redirect = params.redirect_uri ?? "";
      if (!client || !client.redirectUris.includes(redirect)) return oauthError("invalid_client");
      const back = new URL(redirect);
      if (options.authorizeError) {
        back.searchParams.set("error", options.authorizeError);
        back.searchParams.set("error_description", "FAKE-ERROR-DESCRIPTION");
      } else {
        if (params.code_challenge_method !== "S256" || !params.code_challenge) {
          return oauthError("invalid_request");
        }
        const code = `code-${crypto.randomUUID()}`;
        codes.set(code, {
          clientId: params.client_id!,
          redirectUri: redirect,
          challenge: params.code_challenge,
          resource: params.resource ?? null,
          scope: params.scope ?? "",
        });
        back.searchParams.set("code", code);
      }
      const state = options.state ?? "echo";
      if (state === "echo" && params.state) back.searchParams.set("state", params.state);
      if (state === "wrong") back.searchParams.set("state", "not-the-state");
      const iss = options.iss ?? "correct";
      if (iss === "correct") back.searchParams.set("iss", options.metadataIssuer ?? origin);
      if (iss === "wrong") back.searchParams.set("iss", "https://evil.example.com");
      return new Response(null, { status: 302, headers: { location: back.href } });
    }
    if (url.pathname === "/token" && request.method === "POST") {
      const clientId = basicClientId ?? params.client_id ?? "";
      const client = clients.get(clientId);
      if (!client) return oauthError("invalid_client", 401);
      if (client.secret !== undefined && basicSecret !== client.secret) {
        return oauthError("invalid_client", 401);
      }
      if (params.grant_type === "authorization_code") {
        const grant = codes.get(params.code ?? "");
        codes.delete(params.code ?? "");
        if (!grant || grant.clientId !== clientId || grant.redirectUri !== params.redirect_uri) {
          return oauthError("invalid_grant");
        }
        if (await s256(params.code_verifier ?? "") !== grant.challenge) {
          return oauthError("invalid_grant");
        }
        if ((params.resource ?? null) !== grant.resource) return oauthError("invalid_target");
        return issue(grant);
      }
      if (params.grant_type === "refresh_token") {
        const grant = refreshTokens.get(params.refresh_token ?? "");
        refreshTokens.delete(params.refresh_token ?? ""); // rotation: each one works once
        if (!grant || grant.clientId !== clientId) return oauthError("invalid_grant");
        return issue(grant);
      }
      return oauthError("unsupported_grant_type");
    }
    return new Response("Not found", { status: 404 });
  }

  return {
    handler,
    log,
    /** The scope of a live access token, or undefined for an unknown one. */
    verify(token: string): { scope: string; resource: string | null } | undefined {
      return accessTokens.get(token);
    },
    /** Revokes every access token (as if they had all expired). */
    expireAll(): void {
      accessTokens.clear();
    },
    registeredClients: (): string[] => [...clients.keys()],
  };
}

/** The fake's type. */
export type FakeAuthServer = ReturnType<typeof fakeAuthServer>;
