// DPoP keys (RFC 9449): one ES256 key pair per server and authorization server, kept with the
// tokens bound to it (a DPoP-bound token is useless without its key), and the oauth4webapi
// handle that signs proofs and remembers server nonces.

import * as oauth from "oauth4webapi";

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256" } as const;

/** Whether the authorization server can bind tokens to an ES256 key. */
export function supportsDpop(as: oauth.AuthorizationServer): boolean {
  const algs = as.dpop_signing_alg_values_supported;
  return Array.isArray(algs) && algs.includes("ES256");
}

/** A key pair from its stored private JWK, or a fresh one. */
export async function dpopKeyPair(
  stored: JsonWebKey | undefined,
): Promise<{ keyPair: CryptoKeyPair; jwk: JsonWebKey }> {
  if (stored?.d && stored.x && stored.y) {
    const privateKey = await crypto.subtle.importKey("jwk", stored, ALGORITHM, false, ["sign"]);
    const publicJwk: JsonWebKey = { kty: "EC", crv: "P-256", x: stored.x, y: stored.y };
    const publicKey = await crypto.subtle.importKey("jwk", publicJwk, ALGORITHM, true, ["verify"]);
    return { keyPair: { privateKey, publicKey }, jwk: stored };
  }
  const generated = await oauth.generateKeyPair("ES256", { extractable: true });
  const jwk = await crypto.subtle.exportKey("jwk", generated.privateKey);
  // Re-import the private half as non-extractable: nothing in this process needs to read it.
  return await dpopKeyPair(jwk);
}

/** The proof signer and nonce cache for a key pair. */
export function dpopHandle(keyPair: CryptoKeyPair): oauth.DPoPHandle {
  return oauth.DPoP({}, keyPair);
}
