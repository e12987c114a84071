// The provider's view of one server: the authorization server in use, its client and tokens,
// and the DPoP key the tokens are bound to; loaded from and summarized for the store.

import type * as oauth from "oauth4webapi";
import { dpopHandle, dpopKeyPair } from "./_dpop.ts";
import type { AuthRecord, StoredClient, StoredTokens } from "./store.ts";
import type { AuthorizationStatus } from "./types.ts";

/** What the provider works with. */
export interface State {
  issuer: string;
  /** The authorization server metadata, once discovered in this process. */
  as?: oauth.AuthorizationServer;
  client?: StoredClient | undefined;
  tokens?: StoredTokens | undefined;
  /** The proof signer of DPoP-bound tokens. */
  dpop?: oauth.DPoPHandle | undefined;
  dpopKey?: JsonWebKey | undefined;
}

/** The state a stored record describes: its current issuer's client, tokens and key. */
export async function currentState(record: AuthRecord): Promise<State | undefined> {
  const issuer = record.issuer;
  const entry = issuer === undefined ? undefined : record.issuers[issuer];
  if (issuer === undefined || !entry) return undefined;
  const state: State = { issuer };
  if (entry.client) state.client = entry.client;
  if (entry.tokens) state.tokens = entry.tokens;
  if (entry.tokens?.tokenType === "dpop" && entry.dpopKey) {
    state.dpopKey = entry.dpopKey;
    state.dpop = dpopHandle((await dpopKeyPair(entry.dpopKey)).keyPair);
  }
  return state;
}

/** Summarizes a record; undefined when it names no issuer. */
export function statusOf(serverUrl: string, record: AuthRecord): AuthorizationStatus | undefined {
  const issuer = record.issuer;
  const entry = issuer === undefined ? undefined : record.issuers[issuer];
  if (issuer === undefined || !entry) return undefined;
  const tokens = entry.tokens;
  return {
    serverUrl,
    issuer,
    authorized: tokens !== undefined,
    ...(entry.client ? { clientId: entry.client.clientId, clientSource: entry.client.source } : {}),
    ...(tokens ? { tokenType: tokens.tokenType, resource: tokens.resource } : {}),
    ...(tokens?.scope ? { scope: tokens.scope } : {}),
    ...(tokens?.expiresAt !== undefined ? { expiresAt: tokens.expiresAt } : {}),
    refreshable: tokens?.refreshToken !== undefined,
  };
}
