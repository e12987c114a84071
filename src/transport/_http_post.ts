// The POST of the Streamable HTTP transport: one message per request, a new session when the old
// one expired, retries of idempotent requests after 429 and 503, error statuses as typed errors,
// and the JSON answer read within the size limit.

import { HttpError, ProtocolError, SessionExpiredError } from "../errors.ts";
import type { JsonRpcErrorObject, JsonRpcMessage, RequestId } from "../jsonrpc.ts";
import { preview } from "./framing.ts";
import {
  backoffMs,
  declaredLength,
  displayUrl,
  readLimited,
  redact,
  retryAfterMs,
} from "./_http.ts";
import type { HttpLink } from "./_http_channel.ts";
import { takesSlot } from "./_http_gate.ts";
import { isRedirect } from "./_redirect.ts";
import type { SessionKeeper } from "./_http_session.ts";
import { sleep } from "./_process.ts";
import { MODERN_ERROR_CODES } from "../protocol.ts";

/** Methods whose repetition does no harm, retried after 429 or 503. */
const IDEMPOTENT = new Set([
  "initialize",
  "ping",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "server/discover",
]);

/** Errors only a modern server sends (HeaderMismatch, MissingRequiredClientCapability, Unsupported version). */

/** A JSON-RPC error that came as the body of an HTTP error status: the server's real answer. */
export class ErrorBody extends Error {
  /** The error, to deliver as the response to the request. */
  readonly error: JsonRpcErrorObject;
  constructor(error: JsonRpcErrorObject) {
    super(error.message);
    this.error = error;
  }
}

/**
 * POSTs a message; handles session expiry and retries. The successful response goes to
 * `onResponse`, or `undefined` when a request is no longer `wanted` (asked with its id) by the
 * time it would be sent; a failure goes to `onError`. `unlimited` sends a request past the gate.
 *
 * Requests that can go at once take their own path (`_http_fast.ts`); this one carries the rest:
 * notifications, answers, `initialize`, and requests that must wait. With a free slot, no renewal
 * under way and no `requestHeaders` callback, it takes no async frame and no promise turn of its
 * own: the POST goes out in this turn, and its response reaches {@link answered} in the turn fetch
 * settles. Anything else (a wait for a slot, a renewal or computed headers) goes through
 * {@link postLoop}.
 */
export function post<T>(
  link: HttpLink,
  session: SessionKeeper,
  message: JsonRpcMessage,
  onResponse: (response: Response | undefined) => T | PromiseLike<T>,
  onError: (error: unknown) => T | PromiseLike<T>,
  wanted?: (id: RequestId) => boolean,
  unlimited = false,
): Promise<T> {
  const gated = !unlimited && takesSlot(message);
  const body = JSON.stringify(message);
  const channel = link.channel;
  if (
    session.renewing !== undefined || !channel.immediate || (gated && !link.gate.tryEnter())
  ) {
    return postLoop(link, session, message, wanted, gated, body).then(onResponse, onError);
  }
  // Nothing was awaited, so a request is still wanted: the session gave up on nothing meanwhile.
  const sent: SentPost = { link, session, message, body, sessionId: channel.sessionId, gated };
  const failed = (error: unknown): T | PromiseLike<T> => {
    if (gated) link.gate.leave();
    return onError(channel.failure(error, "POST"));
  };
  try {
    return channel.postNow(message, body, sent.sessionId).then(
      (response) => answered(sent, response, wanted, onResponse, onError),
      failed,
    );
  } catch (error) {
    // fails as the awaited request, not in the caller's turn
    if (gated) link.gate.leave();
    return Promise.reject(error).then(undefined, onError);
  }
}

/** A POST that went out in the caller's turn (`channel.postNow()`), its slot still held. */
export interface SentPost {
  link: HttpLink;
  session: SessionKeeper;
  message: JsonRpcMessage;
  body: string;
  /** The session id it was sent under. */
  sessionId: string | undefined;
  /** Whether it holds a slot of the gate. */
  gated: boolean;
}

/**
 * What becomes of fetch's answer to a {@link SentPost}: a redirect is followed within the origin
 * (the slot held until its headers arrive), the slot is given back, a 2xx answer goes to
 * `onResponse`, and an error status to the retries, renewals and typed errors of
 * {@link postLoop}. {@link post} ends here, and so does the transport's own path for a request's
 * JSON answer when the answer turns out to be anything else.
 */
export function answered<T>(
  sent: SentPost,
  response: Response,
  wanted: ((id: RequestId) => boolean) | undefined,
  onResponse: (response: Response | undefined) => T | PromiseLike<T>,
  onError: (error: unknown) => T | PromiseLike<T>,
): T | PromiseLike<T> {
  const { link, session, message, body, sessionId, gated } = sent;
  if (isRedirect(response.status)) {
    return link.channel.follow(response, message, body, sessionId).then(
      (next) => answered(sent, next, wanted, onResponse, onError),
      (error) => {
        if (gated) link.gate.leave();
        return onError(link.channel.failure(error, "POST"));
      },
    );
  }
  if (gated) link.gate.leave();
  return response.ok
    ? onResponse(response)
    : postLoop(link, session, message, wanted, gated, body, { response, sessionId })
      .then(onResponse, onError);
}

/**
 * The POST with its waits, renewals and retries; `first` is the answer to an attempt {@link post}
 * already made (its slot given back).
 */
async function postLoop(
  link: HttpLink,
  session: SessionKeeper,
  message: JsonRpcMessage,
  wanted: ((id: RequestId) => boolean) | undefined,
  gated: boolean,
  body: string,
  first?: { response: Response; sessionId: string | undefined },
): Promise<Response | undefined> {
  const { channel, limits } = link;
  const method = "method" in message ? message.method : undefined;
  let renewed = false;
  for (let attempt = 0;; attempt++) {
    let sessionId: string | undefined;
    let response: Response;
    if (attempt === 0 && first) {
      ({ response, sessionId } = first);
    } else {
      if (gated) {
        const queued = link.gate.enter(); // no promise, and no tick, when a slot is free
        if (queued) await queued;
      }
      try {
        // Sent during a renewal, a request would carry no session id: wait for the new one.
        // This comes after the wait for a slot, during which a renewal may have begun.
        if (session.renewing) await session.renewing;
        // A request the session gave up on while it waited (for a slot, a renewal or a retry)
        // is not sent after all.
        if (wanted && "id" in message && "method" in message && !wanted(message.id)) {
          return undefined;
        }
        sessionId = channel.sessionId;
        response = await channel.request("POST", message, body);
      } finally {
        // The slot is held until the headers arrive: a stream that follows does not keep it.
        if (gated) link.gate.leave();
      }
    }
    if (response.status === 404 && sessionId !== undefined && method !== "initialize") {
      // The renewal starts before anything is awaited, so that the requests let through by the
      // slot just freed wait for the new session instead of trying the expired one.
      const renewal = limits.reinitializeOnExpiry && !renewed
        ? session.renew(sessionId)
        : undefined;
      renewal?.catch(() => {}); // awaited below; not unhandled if it fails while the body closes
      await response.body?.cancel().catch(() => {});
      if (!limits.reinitializeOnExpiry) {
        throw new SessionExpiredError(
          `Session expired: the server answered 404 to ${method ?? "a response"}`,
        );
      }
      if (!renewal) {
        throw new SessionExpiredError("Session expired again right after a new one was started");
      }
      await renewal;
      // An answer to a request of the old session means nothing to the new one.
      if (method === undefined) {
        throw new SessionExpiredError("Session expired before the answer could be delivered");
      }
      renewed = true;
      continue;
    }
    const retryable = response.status === 429 || response.status === 503;
    // A server that asks for a longer wait than maxDelayMs is not asked again early: the caller
    // gets its answer (an HttpError with retryAfterMs) now, rather than a timeout later.
    const asked = retryable ? retryAfterMs(response.headers.get("retry-after")) : undefined;
    if (
      retryable && attempt < limits.maxRetries && method !== undefined &&
      IDEMPOTENT.has(method) && (asked === undefined || asked <= limits.maxDelayMs)
    ) {
      const wait = asked ?? backoffMs(attempt, limits.reconnectDelayMs, limits.maxDelayMs);
      await response.body?.cancel();
      await sleep(Math.min(wait, limits.maxDelayMs), link.signal);
      if (link.signal.aborted) throw link.signal.reason; // closed while waiting to retry
      continue;
    }
    if (!response.ok) throw await postError(link, response, method);
    return response;
  }
}

/**
 * An error status, as a typed error. A JSON-RPC error in the body is the server's real answer
 * (modern servers send UnsupportedProtocolVersion and HeaderMismatch with 400), so it reaches
 * the session as an error response; for initialize only a modern error counts, because a 4xx
 * there is how an older server says it predates Streamable HTTP.
 */
async function postError(
  link: HttpLink,
  response: Response,
  method: string | undefined,
): Promise<Error> {
  const channel = link.channel;
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  if (response.status === 401 || response.status === 403 || !type.includes("application/json")) {
    return await channel.statusError(response, "POST");
  }
  const secrets = channel.secrets();
  const text = await readLimited(response.body, 64 * 1024).catch(() => "");
  let error: JsonRpcErrorObject | undefined;
  try {
    const body = JSON.parse(text);
    if (typeof body?.error?.code === "number" && typeof body.error.message === "string") {
      error = body.error;
    }
  } catch {
    // not JSON after all
  }
  if (error && (method !== "initialize" || MODERN_ERROR_CODES.has(error.code))) {
    return new ErrorBody({ ...error, message: redact(error.message, secrets) });
  }
  return new HttpError(
    `Server answered HTTP ${response.status} to POST ${displayUrl(channel.url)}: ${
      preview(redact(text, secrets))
    }`,
    response.status,
  );
}

/**
 * The text of a JSON answer, read within the size limit. A declared length within the limit is
 * read in one go, straight from the response (no stream wrapped in a new Response); Deno enforces
 * Content-Length, so it cannot grow past it. Not async itself: the caller's await is the only turn.
 */
export function jsonText(link: HttpLink, response: Response): Promise<string> {
  const limit = link.limits.maxBytes;
  const length = declaredLength(response);
  return length !== undefined && length <= limit
    ? response.text()
    : readLimited(response.body, limit);
}

/** A JSON answer's text parsed: one message or a batch, not yet checked. */
export function parseJson(text: string, method: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ProtocolError(`Server answered ${method} with invalid JSON: ${preview(text)}`);
  }
}
