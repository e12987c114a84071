// The auth/* scenarios of the conformance suite, driven through OAuthProvider. The suite passes
// credentials in MCP_CONFORMANCE_CONTEXT (JSON) and stands in for the user: its authorization
// endpoint redirects straight back, so the "browser" here fetches the authorization URL and
// reads the redirect, as the suite's reference clients do.

import { Client, StreamableHttpTransport } from "../../mod.ts";
import {
  type AuthorizationInteraction,
  type OAuthGrant,
  OAuthProvider,
  type OAuthProviderOptions,
} from "../../src/auth/mod.ts";

/** The client metadata document URL the basic-cimd scenario expects as client ID. */
const CIMD_URL = "https://conformance-test.local/client-metadata.json";

/** A browser that follows the authorization server's redirect without a user. */
const headless: AuthorizationInteraction = {
  redirectUri: "http://localhost:3000/callback",
  async openAuthorizationUrl(url) {
    const response = await fetch(url, { redirect: "manual" });
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (!location) throw new Error(`The authorization endpoint answered ${response.status}`);
    return new URL(location, url);
  },
};

type Context = Record<string, string | undefined>;

function options(name: string, ctx: Context): Partial<OAuthProviderOptions> {
  const client = ctx.client_id
    ? {
      clientId: ctx.client_id,
      ...(ctx.client_secret ? { clientSecret: ctx.client_secret } : {}),
      ...(ctx.private_key_pem ? { privateKey: ctx.private_key_pem } : {}),
      ...(ctx.signing_algorithm ? { signingAlgorithm: ctx.signing_algorithm } : {}),
    }
    : undefined;
  let grant: OAuthGrant = { type: "authorization_code" };
  if (name.startsWith("auth/client-credentials-")) grant = { type: "client_credentials" };
  if (name === "auth/wif-jwt-bearer") {
    grant = { type: "jwt_bearer", assertion: ctx.valid_jwt ?? "" };
  }
  if (name === "auth/enterprise-managed-authorization") {
    grant = {
      type: "enterprise",
      idToken: ctx.idp_id_token ?? "",
      identityProvider: {
        tokenEndpoint: ctx.idp_token_endpoint ?? "",
        ...(ctx.idp_issuer ? { issuer: ctx.idp_issuer } : {}),
        clientId: ctx.idp_client_id ?? "",
      },
    };
  }
  return {
    ...(client ? { client } : {}),
    grant,
    clientMetadataUrl: CIMD_URL,
    interaction: headless,
    clientName: "mcp-inspect-conformance",
  };
}

/** Runs one auth scenario against `url`; returns the exit code. */
export async function runAuthScenario(url: string, name: string): Promise<number> {
  const ctx = JSON.parse(Deno.env.get("MCP_CONFORMANCE_CONTEXT") ?? "{}") as Context;
  const provider = new OAuthProvider({
    serverUrl: url,
    ...options(name, ctx),
    onLog: (message) => console.error(`[auth] ${message}`),
  });
  await using client = await Client.connect(
    new StreamableHttpTransport({
      url,
      fetch: provider.fetch,
      onDiagnostic: (d) => console.error(`[diagnostic] ${d.message}`),
    }),
    { clientInfo: { name: "mcp-inspect-conformance", version: "1.0.0" } },
  );
  const tools = await client.listTools();
  for (const tool of tools) await client.callTool(tool.name, {});
  return 0;
}
