// Where authorization traffic may go. Every URL the OAuth machinery fetches or opens comes from
// a server we do not trust yet (WWW-Authenticate, protected resource metadata, authorization
// server metadata), so each one is checked here before use: scheme, and the kind of address it
// names, so that a hostile server cannot point the client at a cloud metadata service or at the
// user's private network (SSRF).

import { OAuthError } from "./errors.ts";

/** What an address is, from the point of view of request forgery. */
export type AddressKind = "public" | "loopback" | "private" | "link-local" | "metadata";

/** Resolves a host name to its IP addresses; the seam tests replace. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** Well-known names of cloud instance metadata services. */
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** Instance metadata services by address: AWS/GCP/Azure, Alibaba, AWS over IPv6. */
const METADATA_ADDRESSES = new Set([
  "169.254.169.254",
  "100.100.100.200",
  "fd00:ec2:0:0:0:0:0:254",
]);

function ipv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : undefined;
}

function ipv4Kind([a, b, c, d]: number[]): AddressKind {
  if (METADATA_ADDRESSES.has(`${a}.${b}.${c}.${d}`)) return "metadata";
  if (a === 127) return "loopback";
  if (a === 169 && b === 254) return "link-local";
  if (
    a === 0 || a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168) ||
    (a === 100 && b! >= 64 && b! <= 127) || a! >= 224
  ) {
    return "private"; // this network, RFC 1918, CGNAT, multicast and reserved
  }
  return "public";
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function ipv6(text: string): number[] | undefined {
  let body = text.replace(/^\[|\]$/g, "").toLowerCase();
  const v4 = body.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const bytes = ipv4(v4[2]!);
    if (!bytes) return undefined;
    body = `${v4[1]}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${
      ((bytes[2]! << 8) | bytes[3]!).toString(16)
    }`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const parse = (s: string) => (s === "" ? [] : s.split(":"));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  const numbers = groups.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return numbers.some(Number.isNaN) ? undefined : numbers;
}

function ipv6Kind(g: number[]): AddressKind {
  if (METADATA_ADDRESSES.has(g.map((n) => n.toString(16)).join(":"))) return "metadata";
  const embedded = [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255];
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return ipv4Kind(embedded); // IPv4-mapped
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return ipv4Kind(embedded); // NAT64
  }
  if (zeros(7) && (g[7] === 1)) return "loopback";
  if (zeros(8)) return "private"; // unspecified
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0]! & 0xfe00) === 0xfc00 || (g[0]! & 0xff00) === 0xff00) return "private"; // ULA, multicast
  return "public";
}

/**
 * The kind of an IP literal or special host name, or undefined for an ordinary name that only
 * DNS can classify.
 */
export function hostKind(hostname: string): AddressKind | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  const v4 = ipv4(host);
  if (v4) return ipv4Kind(v4);
  const v6 = host.includes(":") ? ipv6(host) : undefined;
  if (v6) return ipv6Kind(v6);
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (METADATA_NAMES.has(host)) return "metadata";
  return undefined;
}

/** Whether a URL names this machine by a loopback address or `localhost`. */
export function isLoopback(url: URL): boolean {
  return hostKind(url.hostname) === "loopback";
}

/** Whether the server itself is on this machine or the local network. */
export function isLocal(url: URL): boolean {
  const kind = hostKind(url.hostname);
  return kind === "loopback" || kind === "private" || kind === "link-local";
}

/**
 * Parses a URL the client will fetch or show, and checks its scheme: `https:`, or `http:` to a
 * loopback address (OAuth 2.1 section 1.5; spec: authorization server endpoints MUST use HTTPS,
 * redirect URIs MUST be localhost or HTTPS). `javascript:`, `data:`, `file:` and the rest fail.
 */
export function checkScheme(value: unknown, what: string): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new OAuthError(`The ${what} is not a valid URL`, "unsafe-url");
  }
  if (url.username || url.password) {
    throw new OAuthError(`The ${what} must not carry credentials`, "unsafe-url");
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && isLoopback(url)) return url;
  throw new OAuthError(
    url.protocol === "http:"
      ? `The ${what} ${url.origin} must use https: (plain http: is allowed only to loopback)`
      : `The ${what} uses the ${url.protocol} scheme; only https: (or http: to loopback) is allowed`,
    "unsafe-url",
  );
}

/** Resolves a host with the system's DNS; names DNS cannot resolve are left to fetch. */
export const systemResolve: ResolveHost = async (hostname) => {
  const found: string[] = [];
  for (const type of ["A", "AAAA"] as const) {
    try {
      found.push(...await Deno.resolveDns(hostname, type));
    } catch {
      // no such record, no permission, or a name only /etc/hosts knows: fetch decides
    }
  }
  return found;
};

/**
 * Checks a URL the client is about to fetch for authorization: a safe scheme, and an address
 * that is neither a metadata service (never) nor loopback, private or link-local (unless the MCP
 * server is itself local, where such addresses are expected).
 */
export async function checkTarget(
  value: unknown,
  what: string,
  policy: { allowLocal: boolean; resolve: ResolveHost },
): Promise<URL> {
  const url = checkScheme(value, what);
  const kinds = new Set<AddressKind>();
  const literal = hostKind(url.hostname);
  if (literal) kinds.add(literal);
  else for (const address of await policy.resolve(url.hostname)) kinds.add(hostKind(address)!);
  if (kinds.has("metadata")) {
    throw new OAuthError(
      `Refusing to fetch the ${what} ${url.origin}: it is a cloud metadata service address`,
      "unsafe-url",
    );
  }
  const local = [...kinds].find((k) => k !== "public");
  if (local && !policy.allowLocal) {
    throw new OAuthError(
      `Refusing to fetch the ${what} ${url.origin}: it is a ${local} address and the server is not`,
      "unsafe-url",
    );
  }
  return url;
}
