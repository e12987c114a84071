// Reads one SSE body of the Streamable HTTP transport into messages for the session, noting the
// last event id and `retry:` delay so that a dropped stream can be resumed.

import { createParser, type EventSourceMessage } from "eventsource-parser";
import { ProtocolError } from "../errors.ts";
import { messageId, toMessage } from "../jsonrpc.ts";
import { formatBytes, preview } from "./framing.ts";
import { declaredLength, sseEvents } from "./_http.ts";
import type { HttpLink } from "./_http_channel.ts";

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
    await readDeclared(body, length, signal, (chunk) => {
      parser.feed(decoder.decode(chunk, { stream: true }));
    });
    parser.feed(decoder.decode());
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
    const id = messageId(value);
    link.diagnose({
      kind: "invalid-message",
      message: (error as Error).message,
      data: preview(event.data),
      ...(id === undefined ? {} : { id }),
    });
  }
}

/**
 * Reads a body of declared `length`, chunk by chunk, into `onChunk`, and stops at that length:
 * the read that would report the end costs another round through the connection. A byte stream
 * (fetch's own bodies) is read into one buffer of that size rather than a fresh 64 KiB buffer
 * per read. Aborting `signal` cancels the read, whatever `fetch` made the body.
 */
async function readDeclared(
  body: ReadableStream<Uint8Array>,
  length: number,
  signal: AbortSignal,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  let byob: ReadableStreamBYOBReader | undefined;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch {
    // not a byte stream (a body made by a wrapped fetch): read it chunk by chunk as it comes
  }
  const reader = byob ?? body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  try {
    let buffer = new ArrayBuffer(length);
    let received = 0;
    while (received < length) {
      const { value, done } = byob
        ? await byob.read(new Uint8Array(buffer, received, length - received))
        : await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
      if (done || !value) break;
      if (byob) buffer = value.buffer as ArrayBuffer; // the read hands the buffer back
      received += value.byteLength;
      onChunk(value);
    }
    if (received >= length) stop();
  } finally {
    signal.removeEventListener("abort", stop);
  }
}
