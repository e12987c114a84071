// Getting new tokens from an authorization server once it is known: the client to use, DPoP or
// not, and the grant the provider was configured with.

import type * as oauth from "oauth4webapi";
import { AuthorizationRequiredError, OAuthError } from "./errors.ts";
import type { AuthHttp } from "./_http.ts";
import type { Discovery } from "./_discovery.ts";
import { authorizationCodeFlow, checkPkce } from "./_code_flow.ts";
import { checkScheme } from "./_safety.ts";
import {
  clientAuthentication,
  type ConfiguredClient,
  obtainClient,
  preRegistered,
} from "./_registration.ts";
import { dpopHandle, dpopKeyPair, supportsDpop } from "./_dpop.ts";
import {
  clientCredentialsGrant,
  exchangeIdToken,
  jwtBearerGrant,
  storedTokens,
  type TokenContext,
} from "./_grants.ts";
import type { IssuerRecord, StoredClient, StoredTokens } from "./store.ts";
import type { AuthorizationInteraction, OAuthGrant, Secret } from "./types.ts";

/** Everything {@link obtainTokens} needs. */
export interface ObtainInput {
  http: AuthHttp;
  serverUrl: string;
  discovery: Discovery;
  entry: IssuerRecord;
  grant: OAuthGrant;
  configured: ConfiguredClient | undefined;
  privateKey: CryptoKey | undefined;
  clientMetadataUrl: string | undefined;
  clientName: string;
  interaction: AuthorizationInteraction | undefined;
  scope: string | undefined;
  dpop: boolean | "auto";
  loginHint: string | undefined;
  signal: AbortSignal | undefined;
  log: (message: string) => void;
}

/** What a grant leaves behind for the store. */
export interface Obtained {
  client: StoredClient;
  tokens: StoredTokens;
  dpopKey: JsonWebKey | undefined;
  dpop: oauth.DPoPHandle | undefined;
}

async function secret(value: Secret): Promise<string> {
  return typeof value === "string" ? value : await value();
}

function requireClient(input: ObtainInput, what: string): StoredClient {
  const configured = input.configured;
  if (!configured) {
    throw new OAuthError(`The ${what} grant needs a configured client ID`, "configuration");
  }
  return preRegistered(configured, input.discovery.as);
}

/** Runs the configured grant against the discovered authorization server. */
export async function obtainTokens(input: ObtainInput): Promise<Obtained> {
  const { as, resource } = input.discovery;
  const grant = input.grant;
  let client: StoredClient;
  if (grant.type === "authorization_code") {
    if (!input.interaction) {
      throw new AuthorizationRequiredError(
        `Server ${input.serverUrl} requires authorization${
          input.scope ? ` (scope "${input.scope}")` : ""
        }${input.loginHint ? `: ${input.loginHint}` : ""}`,
        input.serverUrl,
        input.scope ? { requiredScope: input.scope } : {},
      );
    }
    // Before anything is registered or sent: PKCE support, and an endpoint fit for a browser.
    checkPkce(as);
    checkScheme(as.authorization_endpoint, "authorization endpoint");
    client = await obtainClient(input.http, {
      as,
      configured: input.configured,
      existing: input.entry.client,
      clientMetadataUrl: input.clientMetadataUrl,
      redirectUri: input.interaction.redirectUri,
      clientName: input.clientName,
      scope: input.scope,
    });
    if (client !== input.entry.client) {
      input.log(`Using client ${describeClient(client)} with ${as.issuer}`);
    }
  } else {
    client = requireClient(input, grant.type.replace("_", " "));
  }
  const bind = input.dpop === true || (input.dpop === "auto" && supportsDpop(as));
  const key = bind ? await dpopKeyPair(input.entry.dpopKey) : undefined;
  const dpop = key ? dpopHandle(key.keyPair) : undefined;
  const ctx: TokenContext = {
    http: input.http,
    as,
    client: { client_id: client.clientId },
    auth: clientAuthentication(client, input.privateKey),
    resource,
    dpop,
  };
  let response: oauth.TokenEndpointResponse;
  switch (grant.type) {
    case "authorization_code":
      response = await authorizationCodeFlow(ctx, {
        interaction: input.interaction!,
        scope: input.scope,
        signal: input.signal,
        log: input.log,
      });
      break;
    case "client_credentials":
      response = await clientCredentialsGrant(ctx, input.scope);
      break;
    case "jwt_bearer":
      response = await jwtBearerGrant(ctx, await secret(grant.assertion), input.scope);
      break;
    case "enterprise": {
      const idJag = await exchangeIdToken(input.http, grant.identityProvider, {
        idToken: await secret(grant.idToken),
        audience: as.issuer,
        resource,
        scope: input.scope,
      });
      input.log(`Exchanged the ID token for an authorization grant to ${as.issuer}`);
      response = await jwtBearerGrant(ctx, idJag, input.scope);
      break;
    }
  }
  const tokens = storedTokens(response, resource, input.scope);
  const bound = tokens.tokenType === "dpop";
  input.log(
    `Obtained a ${bound ? "DPoP-bound" : "bearer"} token from ${as.issuer}${
      tokens.scope ? ` (scope "${tokens.scope}")` : ""
    }${tokens.refreshToken ? ", with a refresh token" : ""}`,
  );
  return {
    client,
    tokens,
    dpopKey: bound ? key?.jwk : undefined,
    dpop: bound ? dpop : undefined,
  };
}

/** A client described without its secrets. */
export function describeClient(client: StoredClient): string {
  const how = client.source === "dynamic"
    ? "registered dynamically"
    : client.source === "metadata-document"
    ? "identified by its metadata document"
    : "pre-registered";
  return `${JSON.stringify(client.clientId)} (${how})`;
}
