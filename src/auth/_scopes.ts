// Which scope to ask for (spec basic/authorization, Scope Selection Strategy and Step-Up
// Authorization Flow).

import type * as oauth from "oauth4webapi";
import type { ResourceMetadata } from "./_discovery.ts";

function words(scope: string | undefined): string[] {
  return (scope ?? "").split(/\s+/).filter(Boolean);
}

/** The union of scope strings, in first-seen order; undefined when empty. */
export function unionScopes(...scopes: (string | undefined)[]): string | undefined {
  const all = new Set(scopes.flatMap(words));
  return all.size > 0 ? [...all].join(" ") : undefined;
}

/** Whether `granted` covers every scope of `wanted`. */
export function covers(granted: string | undefined, wanted: string | undefined): boolean {
  const have = new Set(words(granted));
  return words(wanted).every((s) => have.has(s));
}

/**
 * The scope of a new authorization: what the caller forces, else the challenge's `scope`, else
 * every `scopes_supported` of the resource metadata, else none (the parameter is omitted). On
 * step-up the scope previously asked for is kept (SEP-2350: union, so permissions granted for
 * other operations are not lost). `offline_access` is added only when the authorization server
 * lists it (SEP-2207), and only to a scope that is sent at all.
 */
export function selectScope(input: {
  forced: string | undefined;
  challenge: string | undefined;
  metadata: ResourceMetadata | undefined;
  as: oauth.AuthorizationServer;
  previous: string | undefined;
  offlineAccess: boolean;
}): string | undefined {
  const base = input.forced ?? input.challenge ??
    (input.metadata?.scopes_supported?.length
      ? input.metadata.scopes_supported.join(" ")
      : undefined);
  let scope = unionScopes(input.previous, base);
  if (
    scope !== undefined && input.offlineAccess &&
    input.as.scopes_supported?.includes("offline_access")
  ) {
    scope = unionScopes(scope, "offline_access");
  }
  return scope;
}
