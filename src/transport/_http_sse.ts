// Reads one SSE body of the Streamable HTTP transport into messages for the session, noting the
// last event id and `retry:` delay so that a dropped stream can be resumed.

import { createParser, type EventSourceMessage } from "eventsource-parser";
import { ProtocolError } from "../errors.ts";
import { toMessage } from "../jsonrpc.ts";
import { formatBytes, preview } from "./_framing.ts";
import { sseEvents } from "./_http.ts";
import type { HttpLink } from "./_http_channel.ts";
import { declaredLength } from "./_http_post.ts";

/** Where a stream stands, carried across its resumptions. */
export interface StreamState {
  lastEventId: string | undefined;
  retryMs: number | undefined;
}

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
  const length = declaredLength(response);
  if (length !== undefined && length <= maxBytes) {
    // A whole answer in one response skips the two stream stages, which cost more than the
    // answer itself; Deno enforces Content-Length, so the body cannot grow past it. It is still
    // fed chunk by chunk, so that a connection lost halfway keeps the events (the answer among
    // them, perhaps) and the event id received before the loss.
    const parser = createParser({ ...callbacks, onEvent: (event) => onEvent(link, event) });
    const decoder = new TextDecoder();
    const reader = body.getReader();
    const stop = () => void reader.cancel().catch(() => {});
    signal.addEventListener("abort", stop, { once: true });
    try {
      // Stops at the declared length: the read that would report the end costs another round
      // through the connection, and cancelling frees the body at once.
      let received = 0;
      while (received < length) {
        const { value, done } = await reader.read();
        if (done) break;
        received += value.byteLength;
        parser.feed(decoder.decode(value, { stream: true }));
      }
      if (received >= length) void reader.cancel().catch(() => {});
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
