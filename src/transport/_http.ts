// Shared plumbing of the HTTP transports: URL and header checks, same-origin redirects, error
// statuses as typed errors, bounded body reads, SSE parsing and retry delays.

import { EventSourceParserStream } from "eventsource-parser/stream";
import type { EventSourceMessage } from "eventsource-parser";
import { AuthorizationError, HttpError, TransportError } from "../errors.ts";
import type { JsonRpcMessage, RequestId } from "../jsonrpc.ts";
import { Redactor } from "../redact.ts";
import { parseChallenges, readLimited } from "../http_util.ts";

export { parseChallenges, readLimited };

/** Parses and checks an endpoint URL: only `http:` and `https:` are spoken. */
export function endpointUrl(url: string | URL, what = "Server URL"): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TransportError(`${what} is not a valid URL: ${JSON.stringify(String(url))}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TransportError(`${what} must use http: or https:, not ${parsed.protocol}`);
  }
  return parsed;
}

/** A URL fit for messages: origin and path, never the query, which may hold a token. */
export function displayUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Checks header names and values before any request, so that a CR/LF in a configured value can
 * never split a request, and the error names the header but never shows its value.
 */
export function checkedHeaders(init: HeadersInit | undefined, where: string): [string, string][] {
  const entries: [string, string][] = init === undefined
    ? []
    : init instanceof Headers
    ? [...init.entries()]
    : Array.isArray(init)
    ? init.map(([k, v]) => [String(k), String(v)] as [string, string])
    : Object.entries(init);
  for (const [name, value] of entries) {
    if (!TOKEN.test(name)) {
      throw new TransportError(`Invalid header name ${JSON.stringify(name)} in ${where}`);
    }
    if (/[\r\n\0]/.test(value)) {
      throw new TransportError(
        `Invalid value for header "${name}" in ${where}: it contains CR, LF or NUL`,
      );
    }
    // fetch takes only byte strings; left to it, this would fail as if the server were down
    if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) {
      throw new TransportError(
        `Invalid value for header "${name}" in ${where}: only printable Latin-1 characters may be sent`,
      );
    }
  }
  return entries;
}

/** Parses `Retry-After` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The request a `notifications/cancelled` message cancels; undefined for any other message. */
export function cancelledRequest(message: JsonRpcMessage): RequestId | undefined {
  if (!("method" in message) || message.method !== "notifications/cancelled") return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/**
 * The body's length as the response declares it, when that bounds what reading yields: not for a
 * compressed body, which fetch inflates past its declared length.
 */
export function declaredLength(response: Response): number | undefined {
  const declared = response.headers.get("content-length");
  if (!declared) return undefined;
  const encoding = response.headers.get("content-encoding");
  if (encoding !== null && encoding.toLowerCase() !== "identity") return undefined;
  const length = Number(declared);
  return Number.isInteger(length) && length >= 0 ? length : undefined;
}

/**
 * Replaces each secret in `text` with "***". Servers echo what they were sent (a session id in
 * "unknown session …", a token in a debug page), and error messages end up in logs.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  return new Redactor(secrets).redact(text);
}

/**
 * The values worth hiding among request headers and the URL: every header value the user gave
 * (and the token after a scheme such as "Bearer"), the URL's user name and password, and query
 * parameter values.
 */
export function secretsOf(headers: Iterable<[string, string]>, url: URL): string[] {
  const secrets: string[] = [];
  for (const [, value] of headers) {
    secrets.push(value);
    const credentials = value.match(/^\S+\s+(\S+)$/)?.[1];
    if (credentials) secrets.push(credentials);
  }
  for (const value of url.searchParams.values()) secrets.push(value);
  if (url.username) secrets.push(url.username, decodeURIComponent(url.username));
  if (url.password) secrets.push(url.password, decodeURIComponent(url.password));
  // the longest first, so that a token inside a header value is not half replaced
  return secrets.sort((a, b) => b.length - a.length);
}

/**
 * A failed fetch (a TypeError: refused, reset, DNS) as a {@link TransportError} that names the
 * endpoint. Deno puts the full URL, query and all, in the cause's message; the query may hold a
 * token, so queries are cut from every URL in the detail and the raw cause is not attached.
 */
export function networkError(error: TypeError, method: string, url: URL): TransportError {
  const cause = error.cause instanceof Error ? error.cause.message : "";
  let detail = (cause || error.message).replace(/(https?:\/\/[^\s?#)]*)[?#][^\s)]*/g, "$1");
  const prefix = detail.match(/^error sending request (?:from \S+ )?for url \(([^)]*)\):?\s*/);
  // the URL is ours: say it once; another (an authorization server behind a wrapped fetch) stays
  if (prefix && prefix[1] === displayUrl(url)) detail = detail.slice(prefix[0].length);
  return new TransportError(
    `Cannot reach the server (${method} ${displayUrl(url)}): ${detail || "fetch failed"}`,
  );
}

/** A short, tag-free excerpt of an error body, such as an HTML error page. */
async function excerpt(response: Response): Promise<string> {
  let text: string;
  try {
    text = await readLimited(response.body, 64 * 1024);
  } catch {
    return "";
  }
  const title = text.match(/<title[^>]*>([^<]*)<\/title>/i)?.[1];
  const plain = (title ?? text.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
  return plain.length > 200 ? `${plain.slice(0, 199)}…` : plain;
}

/** Turns an error status into a typed error, reading (and releasing) the body. */
export async function statusError(
  response: Response,
  method: string,
  url: URL,
  secrets: readonly string[] = [],
): Promise<HttpError> {
  const where = `${method} ${displayUrl(url)}`;
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    const challenges = parseChallenges(response.headers.get("www-authenticate"));
    const verb = response.status === 401 ? "requires authorization" : "refused authorization";
    return new AuthorizationError(
      `Server ${verb} (${status} from ${where})`,
      response.status,
      challenges,
    );
  }
  const detail = redact(await excerpt(response), secrets);
  return new HttpError(
    `Server answered ${status} to ${where}${detail ? `: ${detail}` : ""}`,
    response.status,
    retryAfterMs(response.headers.get("retry-after")),
  );
}

/**
 * Parses a `text/event-stream` body into events, bounded in memory. Aborting `signal` ends the
 * stream even when the body itself would not notice (an aborted fetch does not always error a
 * body that is already being read).
 */
export function sseEvents(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  callbacks: { onId?: (id: string) => void; onRetry?: (ms: number) => void } = {},
  signal?: AbortSignal,
): ReadableStream<EventSourceMessage> {
  return body
    .pipeThrough(new TextDecoderStream(), signal ? { signal } : {})
    .pipeThrough(new EventSourceParserStream({ ...callbacks, maxBufferSize: maxBytes }));
}

/**
 * Exponential backoff with jitter: between half and all of `initial * 2^attempt`, capped, so that
 * many clients dropped at once do not come back in step.
 */
export function backoffMs(attempt: number, initialMs: number, maxMs: number): number {
  const cap = Math.min(maxMs, initialMs * 2 ** attempt);
  return Math.round(cap / 2 + Math.random() * (cap / 2));
}
