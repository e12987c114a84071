// Who may talk to the HTTP server. Spec 2025-11-25 transports (security warning): servers MUST
// validate Origin to stop DNS rebinding, SHOULD bind to localhost when run locally, and SHOULD
// authenticate. A rebinding attack sends the attacker's own host name in Host, so Host is
// checked too.

import { timingSafeEqual } from "node:crypto";

export interface GuardOptions {
  hostname: string;
  allowedHosts: readonly string[] | undefined;
  allowedOrigins: readonly string[] | undefined;
  token: string | undefined;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function isLoopback(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || hostname.startsWith("127.");
}

const encoder = new TextEncoder();

/** `undefined` when the request may proceed; else the response that refuses it. */
export function refuse(request: Request, options: GuardOptions): Response | undefined {
  const host = request.headers.get("host");
  if (options.allowedHosts) {
    if (!host || !options.allowedHosts.includes(host)) return forbidden("Host not allowed");
  } else if (isLoopback(options.hostname)) {
    // Bound to loopback: only loopback names are real; anything else is a rebinding attempt.
    const name = host ? new URL(`http://${host}`).hostname : "";
    if (!isLoopback(name)) return forbidden("Host not allowed");
  }
  const origin = request.headers.get("origin");
  if (origin !== null) {
    let allowed: boolean;
    if (options.allowedOrigins) allowed = options.allowedOrigins.includes(origin);
    else {
      try {
        allowed = isLoopback(new URL(origin).hostname);
      } catch {
        allowed = false;
      }
    }
    if (!allowed) return forbidden("Origin not allowed");
  }
  if (options.token !== undefined) {
    const given = request.headers.get("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1] ?? "";
    const a = encoder.encode(given);
    const b = encoder.encode(options.token);
    if (a.length !== b.length || !timingSafeEqual(a, b)) {
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
