// The request side of the Streamable HTTP transport: one HTTP request carrying the configured,
// computed and protocol headers; the session id the server gave; the values kept out of error
// messages. Also the small context the transport's private parts share.

import { type Diagnostic, type HttpError, ProtocolError } from "../errors.ts";
import type { JsonObject, JsonRpcMessage } from "../jsonrpc.ts";
import { checkedHeaders, endpointUrl, networkError, secretsOf, statusError } from "./_http.ts";
import {
  type HeaderParam,
  headerParams,
  paramHeaders,
  setStandardHeaders,
} from "./_mcp_headers.ts";
import { concurrencyLimit, DEFAULT_MAX_CONCURRENT_REQUESTS, RequestGate } from "./_http_gate.ts";
import { fetchWithinOrigin, followRedirect } from "./_redirect.ts";
import { META } from "../protocol.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./stdio.ts";
import type { StreamableHttpTransportOptions } from "./streamable_http.ts";

/** The options of the transport with their defaults filled in, resolved once. */
export interface HttpLimits {
  maxBytes: number;
  maxRetries: number;
  maxReconnects: number;
  reconnectDelayMs: number;
  maxDelayMs: number;
  reinitializeOnExpiry: boolean;
  openServerStream: boolean;
}

/** What the private parts of the transport share: the channel, the limits and the sinks. */
export interface HttpLink {
  readonly channel: HttpChannel;
  readonly limits: HttpLimits;
  /** Bounds the requests waiting for their response headers. */
  readonly gate: RequestGate;
  /** Aborted when the transport closes. */
  readonly signal: AbortSignal;
  /** Hands a message from the server to the session. */
  deliver(message: JsonRpcMessage): void;
  /** Reports a non-fatal oddity. */
  diagnose(diagnostic: Diagnostic): void;
  /** Whether close() has begun. */
  closing(): boolean;
}

/** What the transport gives the link besides its options: its signal and its sinks. */
export type LinkSinks = Pick<HttpLink, "signal" | "deliver" | "diagnose" | "closing">;

/**
 * The link of a transport: the channel to its endpoint, its options with their defaults filled
 * in, and its request gate. The URL, the headers and the limit on requests in flight are checked
 * here, before anything is sent.
 */
export function openLink(options: StreamableHttpTransportOptions, sinks: LinkSinks): HttpLink {
  const channel = new HttpChannel({
    url: endpointUrl(options.url),
    headers: checkedHeaders(options.headers, "headers"),
    requestHeaders: options.requestHeaders,
    fetch: options.fetch ?? fetch,
    signal: sinks.signal,
  });
  const limit = concurrencyLimit(options.maxConcurrentRequests, DEFAULT_MAX_CONCURRENT_REQUESTS);
  return {
    ...sinks,
    channel,
    limits: {
      maxBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      maxRetries: options.maxRetries ?? 3,
      maxReconnects: options.maxReconnects ?? 5,
      reconnectDelayMs: options.reconnectDelayMs ?? 1_000,
      maxDelayMs: options.maxDelayMs ?? 30_000,
      reinitializeOnExpiry: options.reinitializeOnExpiry ?? true,
      openServerStream: options.openServerStream ?? true,
    },
    gate: new RequestGate(limit, sinks.signal),
  };
}

/** The protocol revision a modern message declares in its `_meta`, if any. */
export function declaredVersion(message: JsonRpcMessage | undefined): string | undefined {
  if (!message || !("method" in message)) return undefined;
  const meta = message.params?._meta as JsonObject | undefined;
  const version = meta?.[META.protocolVersion];
  return typeof version === "string" ? version : undefined;
}

/** What {@link HttpChannel} needs from the transport's options. */
export interface ChannelOptions {
  url: URL;
  headers: [string, string][];
  requestHeaders:
    | ((message: JsonRpcMessage | undefined) => HeadersInit | Promise<HeadersInit>)
    | undefined;
  fetch: typeof fetch;
  signal: AbortSignal;
}

/** Sends requests to one endpoint with the headers of the current session. */
export class HttpChannel {
  /** The endpoint. */
  readonly url: URL;
  readonly #fetch: typeof fetch;
  readonly #headers: [string, string][];
  /** The configured headers with lowercased names, built once and copied per request. */
  readonly #base: Record<string, string> = {};
  readonly #requestHeaders: ChannelOptions["requestHeaders"];
  readonly #signal: AbortSignal;
  /** `x-mcp-header` parameters of the tools, from the last modern tools/list. */
  readonly #toolHeaders = new Map<string, HeaderParam[]>();
  /** Every session id the server gave, and the last computed headers: kept out of messages. */
  readonly #sessionIds = new Set<string>();
  #dynamicHeaders: [string, string][] = [];
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;

  constructor(options: ChannelOptions) {
    this.url = options.url;
    this.#fetch = options.fetch;
    this.#headers = options.headers;
    for (const [name, value] of options.headers) this.#base[name.toLowerCase()] = value;
    this.#requestHeaders = options.requestHeaders;
    this.#signal = options.signal;
  }

  /** The session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The revision sent as `MCP-Protocol-Version` by requests that declare none. */
  set protocolVersion(version: string) {
    this.#protocolVersion = version;
  }

  /** Stops sending the session id: the session ended and a new one is being started. */
  forgetSession(): void {
    this.#sessionId = undefined;
  }

  /** Keeps the `Mcp-Session-Id` of an answer to initialize, after checking it. */
  keepSessionId(response: Response): void {
    const id = response.headers.get("mcp-session-id");
    if (id === null) return;
    // spec: visible ASCII only; anything else could smuggle bytes into our next requests
    if (!/^[\x21-\x7e]+$/.test(id)) {
      throw new ProtocolError("Server sent an invalid Mcp-Session-Id");
    }
    this.#sessionId = id;
    this.#sessionIds.add(id);
  }

  /** Values that must never appear in an error message, the longest first. */
  secrets(): string[] {
    const all = [
      ...this.#sessionIds,
      ...secretsOf([...this.#headers, ...this.#dynamicHeaders], this.url),
    ];
    return all.sort((a, b) => b.length - a.length);
  }

  /** An error status as a typed error, with our secrets redacted from the body's excerpt. */
  statusError(response: Response, method: string): Promise<HttpError> {
    return statusError(response, method, this.url, this.secrets());
  }

  /**
   * Learns each tool's x-mcp-header parameters and drops the tools whose annotations break the
   * rules (spec: such a tool MUST be excluded, so one bad tool cannot spoil the others).
   */
  learnTools(result: JsonObject, diagnose: (diagnostic: Diagnostic) => void): JsonObject {
    if (!Array.isArray(result.tools)) return result;
    const kept = [];
    for (const tool of result.tools as { name?: unknown; inputSchema?: unknown }[]) {
      const params = headerParams(tool?.inputSchema);
      if (typeof params === "string") {
        diagnose({
          kind: "invalid-message",
          message: `Dropped tool ${JSON.stringify(tool?.name)} from tools/list: ${params}`,
        });
        continue;
      }
      if (typeof tool.name === "string") this.#toolHeaders.set(tool.name, params);
      kept.push(tool);
    }
    return { ...result, tools: kept };
  }

  /**
   * One HTTP request with our headers, following redirects only within the server's origin. Not
   * async itself: without a `requestHeaders` callback to await, the request goes out in this
   * turn. A network error is rewritten as a {@link TransportError} (see {@link failure}).
   */
  request(
    method: "POST" | "GET" | "DELETE",
    message: JsonRpcMessage | undefined,
    body: string | undefined,
    lastEventId?: string,
    signal: AbortSignal = this.#signal,
  ): Promise<Response> {
    // The session as it is now: a renewal that starts while the headers are computed must not
    // leave this request without an id. Sent under the old one, it gets a 404 and joins the
    // renewal like any other request of the old session.
    const sessionId = this.#sessionId;
    const send = (computed: HeadersInit | undefined) => {
      const headers = this.#headersOf(method, message, body, lastEventId, sessionId, computed);
      return fetchWithinOrigin(this.#fetch, this.url, this.#init(method, headers, body, signal))
        .then(undefined, (error) => {
          throw this.failure(error, method, signal);
        });
    };
    try {
      if (this.#requestHeaders === undefined) return send(undefined);
      // Computed headers that fail, or that are not headers, fail the request like the above.
      return Promise.resolve(this.#requestHeaders(message)).then(send);
    } catch (error) {
      return Promise.reject(error); // fails as the awaited request, not in the caller's turn
    }
  }

  /** Whether a POST can go out in this turn: no `requestHeaders` callback to await first. */
  get immediate(): boolean {
    return this.#requestHeaders === undefined;
  }

  /**
   * The hot path of a request, when {@link immediate}: the POST of `message` under `sessionId`,
   * as fetch answers it. A redirect is the caller's to {@link follow}, a network error its to
   * rewrite with {@link failure}: so the caller's handler is the only reaction between fetch and
   * the answer.
   */
  postNow(message: JsonRpcMessage, body: string, sessionId: string | undefined): Promise<Response> {
    return this.#fetch(this.url.href, this.#postInit(message, body, sessionId));
  }

  /** Follows a redirect answered to {@link postNow}, within the origin. */
  follow(
    redirect: Response,
    message: JsonRpcMessage,
    body: string,
    sessionId: string | undefined,
  ): Promise<Response> {
    return followRedirect(
      this.#fetch,
      this.url,
      this.#postInit(message, body, sessionId),
      redirect,
    );
  }

  /**
   * A request's failure as the caller sees it: fetch's own network error (a `TypeError`) becomes
   * a {@link TransportError} naming the server, unless the request was aborted; anything else
   * (a wrapped fetch's typed errors, an abort's reason) passes as it is.
   */
  failure(error: unknown, method: string, signal: AbortSignal = this.#signal): unknown {
    return signal.aborted || !(error instanceof TypeError)
      ? error
      : networkError(error, method, this.url);
  }

  /** The init of {@link postNow}'s POST, without `requestHeaders`. */
  #postInit(
    message: JsonRpcMessage,
    body: string,
    sessionId: string | undefined,
  ): RequestInit & { method: string } {
    const headers = this.#headersOf("POST", message, body, undefined, sessionId, undefined);
    return this.#init("POST", headers, body, this.#signal);
  }

  #init(
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
  ): RequestInit & { method: string } {
    return { method, headers, body: body ?? null, signal, redirect: "manual" };
  }

  /** The headers of one request: ours, the computed ones, and the session's and revision's. */
  #headersOf(
    method: "POST" | "GET" | "DELETE",
    message: JsonRpcMessage | undefined,
    body: string | undefined,
    lastEventId: string | undefined,
    sessionId: string | undefined,
    computed: HeadersInit | undefined,
  ): Record<string, string> {
    // A plain record, lowercased keys: one conversion inside fetch instead of a Headers.set
    // (with its validation) per header on the hot path.
    const headers: Record<string, string> = { ...this.#base };
    if (computed !== undefined) {
      const extra = checkedHeaders(computed, "requestHeaders");
      this.#dynamicHeaders = extra;
      for (const [name, value] of extra) headers[name.toLowerCase()] = value;
    }
    headers.accept = method === "POST"
      ? "application/json, text/event-stream"
      : "text/event-stream";
    if (body !== undefined) headers["content-type"] = "application/json";
    const declared = declaredVersion(message);
    // A modern request has no session; the revision it declares goes in the header too.
    if (sessionId !== undefined && !declared) headers["mcp-session-id"] = sessionId;
    const version = declared ?? this.#protocolVersion;
    if (version !== undefined) headers["mcp-protocol-version"] = version;
    if (declared && message) this.#modernHeaders(message, headers);
    if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
    return headers;
  }

  /** Mcp-Method, Mcp-Name and the Mcp-Param-* headers of a tools/call (revision 2026-07-28). */
  #modernHeaders(message: JsonRpcMessage, headers: Record<string, string>): void {
    setStandardHeaders(message, headers);
    if ("method" in message && message.method === "tools/call") {
      const params = this.#toolHeaders.get(String(message.params?.name));
      if (params === undefined || params.length === 0) return;
      for (const [name, value] of paramHeaders(params, message.params?.arguments)) {
        headers[name.toLowerCase()] = value;
      }
    }
  }
}
