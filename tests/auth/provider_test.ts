import assert from "node:assert/strict";
import { AuthorizationError, Client, StreamableHttpTransport } from "../../mod.ts";
import {
  AuthorizationRequiredError,
  MemoryTokenStore,
  OAuthError,
  OAuthProvider,
  type OAuthProviderOptions,
} from "../../src/auth/mod.ts";
import { extraAuthServer, headless, setup } from "./_setup.ts";

async function connect(url: string, provider: OAuthProvider): Promise<Client> {
  return await Client.connect(new StreamableHttpTransport({ url, fetch: provider.fetch }), {
    protocol: "legacy",
  });
}

function provider(url: string, options: Partial<OAuthProviderOptions> = {}): OAuthProvider {
  return new OAuthProvider({ serverUrl: url, interaction: headless(), ...options });
}

const paths = (log: { path: string }[]) => log.map((r) => r.path);

Deno.test("a 401 leads through discovery, registration and PKCE to a working session", async () => {
  await using env = setup();
  const seen: URL[] = [];
  await using client = await connect(env.url, provider(env.url, { interaction: headless(seen) }));
  assert.equal((await client.listTools())[0]?.name, "whoami");
  assert.deepEqual(paths(env.as.log), [
    "/.well-known/oauth-authorization-server",
    "/register",
    "/authorize",
    "/token",
  ]);
  const registration = env.as.log[1]!.params;
  assert.equal(registration.application_type, '"native"');
  assert.match(registration.grant_types!, /refresh_token/);
  const authorize = seen[0]!.searchParams;
  assert.equal(authorize.get("code_challenge_method"), "S256");
  assert.equal(authorize.get("resource"), env.url);
  assert.ok((authorize.get("state") ?? "").length >= 32);
  assert.equal(env.as.log[3]!.params.resource, env.url);
  assert.ok(env.as.log[3]!.params.code_verifier);
  const authorized = env.mcp.log.filter((r) => r.authorization?.startsWith("Bearer "));
  assert.ok(authorized.length >= 2, "every request after the first carries the token");
});

Deno.test("authorization server metadata with another issuer is rejected unused", async () => {
  await using env = setup({ as: { metadataIssuer: "https://attacker.example.com" } });
  const error = await provider(env.url).authorize().catch((e) => e);
  assert.ok(error instanceof OAuthError);
  assert.equal(error.kind, "metadata");
  assert.match(error.message, /declares issuer "https:\/\/attacker\.example\.com"/);
  assert.deepEqual(paths(env.as.log), ["/.well-known/oauth-authorization-server"]);
});

Deno.test("an authorization server without PKCE S256 is refused before anything is sent", async () => {
  for (const pkceMethods of [["plain"], null]) {
    await using env = setup({ as: { pkceMethods } });
    const error = await provider(env.url).authorize().catch((e) => e);
    assert.ok(error instanceof OAuthError);
    assert.match(error.message, /does not advertise PKCE with S256/);
    assert.deepEqual(paths(env.as.log), ["/.well-known/oauth-authorization-server"]);
  }
});

Deno.test("an authorization response with the wrong state is rejected before the token request", async () => {
  await using env = setup({ as: { state: "wrong" } });
  const error = await provider(env.url).authorize().catch((e) => e);
  assert.ok(error instanceof OAuthError);
  assert.match(error.message, /"state" does not match/);
  assert.ok(!paths(env.as.log).includes("/token"));
});

Deno.test("an authorization response from the wrong issuer is rejected and its error not shown", async () => {
  await using env = setup({ as: { iss: "wrong", authorizeError: "access_denied" } });
  const error = await provider(env.url).authorize().catch((e) => e);
  assert.ok(error instanceof OAuthError);
  assert.match(error.message, /"iss" is not/);
  assert.doesNotMatch(error.message, /access_denied|FAKE-ERROR-DESCRIPTION/);
  assert.equal(error.oauthError, undefined);
  assert.equal(error.cause, undefined);
  assert.ok(!paths(env.as.log).includes("/token"));
});

Deno.test("an error response from the right issuer is reported with its code", async () => {
  await using env = setup({ as: { authorizeError: "access_denied" } });
  const error = await provider(env.url).authorize().catch((e) => e);
  assert.ok(error instanceof OAuthError);
  assert.equal(error.oauthError, "access_denied");
});

Deno.test("a server that moves to a second authorization server gets a fresh registration there", async () => {
  await using second = extraAuthServer();
  let servers: string[] = [];
  await using env = setup({
    mcp: {
      verify: (t) => env.as.verify(t) ?? second.as.verify(t),
      authorizationServers: () => servers,
    },
  });
  servers = [env.asUrl];
  const store = new MemoryTokenStore();
  const auth = provider(env.url, { store });
  await using client = await connect(env.url, auth);
  await client.listTools();
  const first = env.as.registeredClients()[0]!;
  servers = [second.url];
  env.as.expireAll();
  await client.listTools();
  assert.equal((await auth.status())?.issuer, second.url);
  assert.equal(second.as.registeredClients().length, 1);
  for (const request of second.as.log) {
    assert.notEqual(
      request.params.client_id,
      first,
      "the old client ID never reaches the new server",
    );
    assert.notEqual(request.basicClientId, first);
  }
  assert.ok(
    !env.as.log.some((r) => r.params.grant_type === "refresh_token"),
    "the old refresh token is not used once the server has moved",
  );
  const record = await store.get(auth.serverUrl);
  assert.deepEqual(Object.keys(record!.issuers).sort(), [env.asUrl, second.url].sort());
});

Deno.test("an access token about to expire is refreshed before it is sent", async () => {
  await using env = setup({ as: { expiresIn: 30 } });
  await using client = await connect(env.url, provider(env.url));
  await client.listTools();
  await client.callTool("whoami", {});
  const refreshes = env.as.log.filter((r) => r.params.grant_type === "refresh_token");
  assert.ok(refreshes.length >= 1);
  assert.equal(refreshes[0]!.params.resource, env.url);
  assert.equal(env.as.log.filter((r) => r.path === "/authorize").length, 1);
});

Deno.test("a 401 for a stored token is answered with a refresh, not a new login", async () => {
  await using env = setup();
  const store = new MemoryTokenStore();
  await provider(env.url, { store }).authorize();
  env.as.expireAll();
  // A new provider (a new process) with no way to ask the user: the refresh token suffices.
  const quiet = new OAuthProvider({ serverUrl: env.url, store });
  await using client = await connect(env.url, quiet);
  assert.equal((await client.listTools()).length, 1);
  assert.equal(env.as.log.filter((r) => r.path === "/authorize").length, 1);
  assert.equal(env.as.log.filter((r) => r.params.grant_type === "refresh_token").length, 1);
});

Deno.test("403 insufficient_scope re-authorizes with the union of scopes", async () => {
  await using env = setup({
    mcp: { challengeScope: "read", methodScopes: { "tools/call": "write" } },
  });
  const seen: URL[] = [];
  await using client = await connect(env.url, provider(env.url, { interaction: headless(seen) }));
  const result = await client.callTool("whoami", {});
  assert.deepEqual(result.content, [{ type: "text", text: "scope: read write" }]);
  assert.deepEqual(seen.map((u) => u.searchParams.get("scope")), ["read", "read write"]);
});

Deno.test("a scope the server never finds sufficient is not asked for again and again", async () => {
  await using env = setup({
    mcp: {
      challengeScope: "read",
      methodScopes: { "tools/call": "admin" },
      verify: (t) => (env.as.verify(t) ? { scope: "read" } : undefined),
    },
  });
  const seen: URL[] = [];
  await using client = await connect(env.url, provider(env.url, { interaction: headless(seen) }));
  for (let i = 0; i < 2; i++) {
    const error = await client.callTool("whoami", {}).catch((e) => e);
    assert.ok(error instanceof AuthorizationError);
    assert.equal(error.status, 403);
  }
  assert.ok(seen.length <= 3, `${seen.length} authorizations`);
});

Deno.test("without an interaction, authorization is required and says what to do", async () => {
  await using env = setup();
  const auth = new OAuthProvider({ serverUrl: env.url, loginHint: "run the login command" });
  const error = await connect(env.url, auth).catch((e) => e);
  assert.ok(error instanceof AuthorizationRequiredError);
  assert.ok(error instanceof AuthorizationError);
  assert.equal(error.status, 401);
  assert.match(error.message, /requires authorization: run the login command/);
  assert.deepEqual(paths(env.as.log), ["/.well-known/oauth-authorization-server"]);
});

Deno.test("the token is never sent to another origin", async () => {
  await using env = setup();
  const headers: (string | null)[] = [];
  await using other = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (r) => {
    headers.push(r.headers.get("authorization"));
    return new Response("ok");
  });
  const auth = provider(env.url);
  await auth.authorize();
  const response = await auth.fetch(`http://127.0.0.1:${other.addr.port}/mcp`, { method: "POST" });
  await response.body?.cancel();
  assert.deepEqual(headers, [null]);
});
