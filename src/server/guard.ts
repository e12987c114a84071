// Who may talk to the HTTP server. Spec 2025-11-25 transports (security warning): servers MUST
// validate Origin to stop DNS rebinding, SHOULD bind to localhost when run locally, and SHOULD
// authenticate. A rebinding attack sends the attacker's own host name in Host, so Host is
// checked too. Shared by every HTTP server of ours (the proxy, replay) so they refuse alike.

import { timingSafeEqual } from "node:crypto";
import { isIPv4 } from "node:net";

export interface GuardOptions {
  hostname: string;
  allowedHosts: readonly string[] | undefined;
  allowedOrigins: readonly string[] | undefined;
  token: string | undefined;
}

// RFC 9110 Host: uri-host [ ":" port ], where uri-host is a bracketed IPv6 literal or a name /
// IPv4 address. Userinfo, spaces and paths are not part of it: a Host holding them is malformed,
// never "parsed leniently" into something that looks local.
const HOST_HEADER = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?)(?::(\d{1,5}))?$/;

/**
 * The host name of a `Host` header (lower-cased, IPv6 in brackets), or `undefined` when the
 * header is not a well-formed host with an optional port.
 */
export function hostOf(header: string): string | undefined {
  const match = HOST_HEADER.exec(header);
  if (!match) return undefined;
  const port = match[2];
  if (port !== undefined && Number(port) > 65_535) return undefined;
  return match[1]!.toLowerCase();
}

/**
 * Whether a host name (as {@link hostOf} or `URL.hostname` gives it) is this machine's loopback:
 * `localhost`, an IPv4 address inside 127.0.0.0/8 written as a dotted quad, or `[::1]`. Names
 * that merely start like an address (`127.0.0.1.attacker.example`) resolve wherever their owner
 * says, and a trailing dot makes a name absolute: neither is loopback.
 */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase();
  if (name === "localhost" || name === "[::1]" || name === "::1") return true;
  return isIPv4(name) && name.split(".")[0] === "127";
}

/** The host name of an `Origin` header when it is a plain `scheme://host[:port]`, else `undefined`. */
function originHost(origin: string): string | undefined {
  // Read as sent: the URL parser would turn "0x7f.1" into 127.0.0.1 and drop userinfo.
  const authority = /^https?:\/\/([^/?#]*)$/i.exec(origin)?.[1];
  return authority === undefined ? undefined : hostOf(authority);
}

const encoder = new TextEncoder();

/** 32 random bytes, base64url: the token a local server requires when the user chose none. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** Whether `given` is `token`, compared in constant time; a missing value never is. */
export function isToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = encoder.encode(given);
  const b = encoder.encode(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `undefined` when the request may proceed; else the response that refuses it. */
export function refuse(request: Request, options: GuardOptions): Response | undefined {
  const host = request.headers.get("host") ?? "";
  const name = hostOf(host);
  if (name === undefined) {
    return badRequest(host === "" ? "Missing Host header" : "Malformed Host header");
  }
  if (options.allowedHosts) {
    if (!options.allowedHosts.some((allowed) => allowed.toLowerCase() === host.toLowerCase())) {
      return forbidden("Host not allowed");
    }
  } else if (isLoopbackHost(options.hostname)) {
    // Bound to loopback: only loopback names are real; anything else is a rebinding attempt.
    if (!isLoopbackHost(name)) return forbidden("Host not allowed");
  }
  const origin = request.headers.get("origin");
  if (origin !== null) {
    const allowed = options.allowedOrigins
      ? options.allowedOrigins.includes(origin)
      : isLoopbackHost(originHost(origin) ?? "");
    if (!allowed) return forbidden("Origin not allowed");
  }
  if (options.token !== undefined) {
    const given = request.headers.get("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1];
    if (!isToken(given, options.token)) {
      return new Response("Unauthorized\n", {
        status: 401,
        headers: { "www-authenticate": 'Bearer realm="mcp-inspect"' },
      });
    }
  }
  return undefined;
}

function forbidden(why: string): Response {
  return new Response(`Forbidden: ${why}\n`, { status: 403 });
}

function badRequest(why: string): Response {
  return new Response(`Bad Request: ${why}\n`, { status: 400 });
}
