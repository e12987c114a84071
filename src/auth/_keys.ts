// Private keys for private_key_jwt client authentication (RFC 7523), from PKCS#8 PEM.

import { OAuthError } from "./errors.ts";

type ImportAlgorithm = EcKeyImportParams | RsaHashedImportParams | { name: "Ed25519" };

function algorithmOf(alg: string): ImportAlgorithm {
  switch (alg) {
    case "ES256":
      return { name: "ECDSA", namedCurve: "P-256" };
    case "ES384":
      return { name: "ECDSA", namedCurve: "P-384" };
    case "ES512":
      return { name: "ECDSA", namedCurve: "P-521" };
    case "RS256":
    case "RS384":
    case "RS512":
      return { name: "RSASSA-PKCS1-v1_5", hash: `SHA-${alg.slice(2)}` };
    case "PS256":
    case "PS384":
    case "PS512":
      return { name: "RSA-PSS", hash: `SHA-${alg.slice(2)}` };
    case "EdDSA":
    case "Ed25519":
      return { name: "Ed25519" };
  }
  throw new OAuthError(`Unsupported signing algorithm ${JSON.stringify(alg)}`, "configuration");
}

/** Imports a PKCS#8 PEM private key for signing with `alg`. The key is not extractable. */
export async function importPrivateKey(pem: string, alg = "ES256"): Promise<CryptoKey> {
  const base64 = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "").replace(/\s+/g, "");
  let der: Uint8Array<ArrayBuffer>;
  try {
    der = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  } catch {
    throw new OAuthError("The client private key is not a PKCS#8 PEM document", "configuration");
  }
  try {
    return await crypto.subtle.importKey("pkcs8", der, algorithmOf(alg), false, ["sign"]);
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    // The key material is never quoted back.
    throw new OAuthError(`The client private key cannot be used with ${alg}`, "configuration");
  }
}
