// The common case of a request over Streamable HTTP, in as few steps as it takes: the POST goes
// out in the caller's turn, and a 200 answer in JSON within the size limit, with no content
// encoding, is read and handed on in the turns fetch and the body read settle, with one handler
// each. Whatever else the answer turns out to be (a redirect, an error status, SSE, JSON of
// undeclared length or encoded) goes on along the general path, post()'s, with the response in
// hand.

import type { JsonRpcRequest } from "../jsonrpc.ts";
import type { HttpLink } from "./_http_channel.ts";
import type { SentPost } from "./_http_post.ts";
import type { SessionKeeper } from "./_http_session.ts";

/**
 * The transport's side of a request sent by {@link sendRequest}: one object per transport, so
 * that a request allocates no handlers of the transport's own.
 */
export interface RequestSink {
  /** `request` goes out now: called once, before its POST. */
  sending(request: JsonRpcRequest): void;
  /** The text of a JSON answer to `request`, read within the size limit. Never throws. */
  json(request: JsonRpcRequest, text: string): void;
  /** Any other answer, on the general path; the promise never rejects. */
  other(sent: SentPost, response: Response): Promise<void>;
  /** The request failed: its POST (the error rewritten as the channel does) or its body's read. */
  failed(request: JsonRpcRequest, error: unknown): void;
  /** The exchange is over, however it ended: called once per request sent. */
  done(): void;
}

/**
 * Sends `request` now if it can go without waiting (no renewal under way, no `requestHeaders`
 * callback to await, a free slot when `gated`) and returns true; false leaves it to the general
 * path, untouched.
 */
export function sendRequest(
  link: HttpLink,
  session: SessionKeeper,
  request: JsonRpcRequest,
  gated: boolean,
  sink: RequestSink,
): boolean {
  const channel = link.channel;
  if (session.renewing !== undefined || !channel.immediate) return false;
  // The slot first: a request that must wait for one is not turned into JSON twice.
  if (gated && !link.gate.tryEnter()) return false;
  let body: string;
  try {
    body = JSON.stringify(request);
  } catch {
    // A request JSON cannot carry fails on the general path, as any refused POST.
    if (gated) link.gate.leave();
    return false;
  }
  sink.sending(request);
  const sessionId = channel.sessionId;
  let answer: Promise<Response>;
  try {
    answer = channel.postNow(request, body, sessionId);
  } catch (error) {
    // A fetch that throws (not a network error) fails the request in a later turn, as it is.
    if (gated) link.gate.leave();
    Promise.reject(error).then(undefined, (thrown) => {
      sink.failed(request, thrown);
      sink.done();
    });
    return true;
  }
  answer.then((response) => {
    const length = response.status === 200 ? jsonLength(response.headers) : undefined;
    if (length === undefined || length > link.limits.maxBytes) {
      const sent: SentPost = { link, session, message: request, body, sessionId, gated };
      return void sink.other(sent, response).then(sink.done);
    }
    if (gated) link.gate.leave();
    response.text().then((text) => {
      sink.json(request, text);
      sink.done();
    }, (error) => {
      sink.failed(request, error);
      sink.done();
    });
  }, (error) => {
    if (gated) link.gate.leave();
    sink.failed(request, channel.failure(error, "POST"));
    sink.done();
  });
  return true;
}

/**
 * The declared length of an answer in JSON (as the general path tells it, SSE first) sent with no
 * content encoding; undefined for any other answer. An encoded one, even `identity`, takes the
 * general path: asking only whether the header is there costs less than reading it.
 */
function jsonLength(headers: Headers): number | undefined {
  const type = headers.get("content-type")?.toLowerCase();
  if (
    type === undefined || type.includes("text/event-stream") || !type.includes("application/json")
  ) {
    return undefined;
  }
  const declared = headers.get("content-length");
  if (!declared || headers.has("content-encoding")) return undefined;
  const length = Number(declared);
  return Number.isInteger(length) && length >= 0 ? length : undefined;
}
