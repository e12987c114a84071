// Reads one SSE body of the Streamable HTTP transport into messages for the session, noting the
// last event id and `retry:` delay so that a dropped stream can be resumed.

import { createParser, type EventSourceMessage } from "eventsource-parser";
import { ProtocolError } from "../errors.ts";
import { toMessage } from "../jsonrpc.ts";
import { formatBytes, preview } from "./_framing.ts";
import { sseEvents } from "./_http.ts";
import type { HttpLink } from "./_http_channel.ts";

/** Where a stream stands, carried across its resumptions. */
export interface StreamState {
  lastEventId: string | undefined;
  retryMs: number | undefined;
}

/** Answers of declared length up to this size are read whole: one read, no stream machinery. */
const WHOLE_BYTES = 64 * 1024;

/**
 * Reads the SSE body of `response` to its end, delivering each message event. Throws a
 * {@link ProtocolError} when an event exceeds the limit, and whatever the body throws when the
 * connection drops.
 */
export async function readSse(
  link: HttpLink,
  response: Response,
  state: StreamState,
  signal: AbortSignal,
): Promise<void> {
  const body = response.body!;
  const maxBytes = link.limits.maxBytes;
  const callbacks = {
    onId: (id: string) => state.lastEventId = id,
    onRetry: (ms: number) => state.retryMs = ms,
  };
  const declared = response.headers.get("content-length");
  const length = declared ? Number(declared) : NaN;
  if (Number.isInteger(length) && length <= maxBytes) {
    // A whole answer in one response skips the two stream stages, which cost more than the
    // answer itself; Deno enforces Content-Length, so the body cannot grow past it.
    const parser = createParser({ ...callbacks, onEvent: (event) => onEvent(link, event) });
    if (length <= WHOLE_BYTES) {
      // A small one is read in one go. Cut short, it counts as a stream that ended before its
      // answer with no event id: a modern request is sent again, an older one fails.
      parser.feed(await response.text());
      return;
    }
    // A large one is fed chunk by chunk, so that a connection lost halfway keeps the events and
    // the event id received before the loss.
    const decoder = new TextDecoder();
    const reader = body.getReader();
    const stop = () => void reader.cancel().catch(() => {});
    signal.addEventListener("abort", stop, { once: true });
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
      parser.feed(decoder.decode());
    } finally {
      signal.removeEventListener("abort", stop);
    }
    return;
  }
  const events = sseEvents(body, maxBytes, callbacks, signal);
  try {
    for await (const event of events) onEvent(link, event);
  } catch (error) {
    if (
      (error as Error)?.name === "ParseError" || /buffer/i.test((error as Error)?.message ?? "")
    ) {
      throw new ProtocolError(
        `SSE event exceeds the ${formatBytes(maxBytes)} limit (maxMessageBytes)`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** Delivers one event: message events carrying JSON-RPC; anything else is skipped or reported. */
function onEvent(link: HttpLink, event: EventSourceMessage): void {
  if ((event.event !== undefined && event.event !== "message") || event.data.trim() === "") {
    return;
  }
  const maxBytes = link.limits.maxBytes;
  // The parser bounds only what it buffers across chunks; an event that came whole in one
  // chunk is measured here.
  if (
    event.data.length > maxBytes / 3 &&
    new TextEncoder().encode(event.data).byteLength > maxBytes
  ) {
    throw new ProtocolError(
      `SSE event exceeds the ${formatBytes(maxBytes)} limit (maxMessageBytes)`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(event.data);
  } catch {
    link.diagnose({
      kind: "non-json-line",
      message: "Skipped an SSE event that is not JSON",
      data: preview(event.data),
    });
    return;
  }
  try {
    link.deliver(toMessage(value));
  } catch (error) {
    link.diagnose({
      kind: "invalid-message",
      message: (error as Error).message,
      data: preview(event.data),
    });
  }
}
