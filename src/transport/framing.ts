// Newline-delimited JSON framing for stream transports (stdio): bytes to messages, messages to lines.

import { type Diagnostic, ProtocolError } from "../errors.ts";
import { type JsonRpcMessage, messageId, toMessage } from "../jsonrpc.ts";

const NEWLINE = 0x0a;
const PREVIEW_CHARS = 200;

/** Shortens a line for a diagnostic so that a huge bad line does not flood a log. */
export function preview(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

/**
 * Splits bytes into lines on `\n` and decodes each as UTF-8, replacing invalid sequences rather
 * than failing, so one bad byte cannot stall the connection. A line longer than `maxLineBytes`
 * throws as soon as the limit is passed: nothing beyond the limit is buffered.
 */
class LineSplitter {
  readonly #maxLineBytes: number;
  readonly #onLine: (line: string) => void;
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  #parts: Uint8Array[] = [];
  #partBytes = 0;

  constructor(maxLineBytes: number, onLine: (line: string) => void) {
    this.#maxLineBytes = maxLineBytes;
    this.#onLine = onLine;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    let index = chunk.indexOf(NEWLINE, start);
    while (index !== -1) {
      if (this.#partBytes + index - start > this.#maxLineBytes) throw this.#tooLong();
      this.#emit(chunk.subarray(start, index));
      start = index + 1;
      index = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.byteLength) {
      this.#partBytes += chunk.byteLength - start;
      if (this.#partBytes > this.#maxLineBytes) throw this.#tooLong();
      // Copy: the source may reuse its buffer for the next read.
      this.#parts.push(chunk.slice(start));
    }
  }

  end(): void {
    if (this.#partBytes > 0) this.#emit(new Uint8Array(0));
  }

  #emit(last: Uint8Array): void {
    let bytes = last;
    if (this.#parts.length > 0) {
      this.#parts.push(last);
      bytes = new Uint8Array(this.#partBytes + last.byteLength);
      let offset = 0;
      for (const part of this.#parts) {
        bytes.set(part, offset);
        offset += part.byteLength;
      }
      this.#parts = [];
      this.#partBytes = 0;
    }
    let end = bytes.byteLength;
    if (end > 0 && bytes[end - 1] === 0x0d) end -= 1; // tolerate CRLF
    if (end > 0) this.#onLine(this.#decoder.decode(bytes.subarray(0, end)));
  }

  #tooLong(): ProtocolError {
    return new ProtocolError(
      `Message from server exceeds the ${formatBytes(this.#maxLineBytes)} limit (maxMessageBytes)`,
    );
  }
}

/**
 * Parses a line as a JSON-RPC message. Lines that are not JSON, or JSON that is not a JSON-RPC
 * message, are reported to `onDiagnostic` and give `undefined`: many servers log to stdout.
 */
function parseLine(
  line: string,
  onDiagnostic: (diagnostic: Diagnostic) => void,
): JsonRpcMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    if (line.trim() === "") return undefined;
    onDiagnostic({
      kind: "non-json-line",
      message: "Skipped a line from the server that is not JSON",
      data: preview(line),
    });
    return undefined;
  }
  try {
    return toMessage(value);
  } catch (error) {
    const id = messageId(value);
    onDiagnostic({
      kind: "invalid-message",
      message: `Skipped an invalid message from the server: ${(error as Error).message}`,
      data: preview(line),
      ...(id === undefined ? {} : { id }),
    });
    return undefined;
  }
}

/**
 * Bytes to JSON-RPC messages, read from `source` as they are asked for: split into lines (see
 * {@link LineSplitter}) and parsed (see {@link parseLine}), without pipes between streams. Each pipe
 * takes promise turns per chunk, and the caller of an answered request waited behind them (and
 * behind the allocation of a fresh 64 KiB read buffer) before it could send its next request,
 * ~10 µs per sequential call in `deno task bench`. A byte stream is read into one buffer, reused.
 * `onEnd` runs when the input ends cleanly; what it throws errors the stream. Aborting `signal`
 * cancels the source and errors the stream with the signal's reason.
 */
export function jsonRpcLines(
  source: ReadableStream<Uint8Array>,
  maxLineBytes: number,
  onDiagnostic: (diagnostic: Diagnostic) => void,
  onEnd: () => void | Promise<void> = () => {},
  signal?: AbortSignal,
): ReadableStream<JsonRpcMessage> {
  const read = chunkReader(source);
  let splitter: LineSplitter;
  let delivered = 0;
  return new ReadableStream<JsonRpcMessage>({
    start(controller) {
      splitter = new LineSplitter(maxLineBytes, (line) => {
        const message = parseLine(line, onDiagnostic);
        if (message) {
          controller.enqueue(message);
          delivered++;
        }
      });
      signal?.addEventListener("abort", () => {
        read.cancel(signal.reason).catch(() => {});
        try {
          controller.error(signal.reason);
        } catch {
          // already closed or errored
        }
      }, { once: true });
    },
    async pull(controller) {
      // The stream asks again only after something was enqueued: a chunk holding no whole
      // message (part of a line, or lines that are not messages) must not end the pull.
      const before = delivered;
      while (delivered === before) {
        const chunk = await read.next();
        if (chunk === undefined) break;
        splitter.push(chunk);
      }
      if (delivered !== before) return;
      splitter.end();
      await onEnd();
      controller.close();
    },
    cancel(reason) {
      return read.cancel(reason);
    },
  });
}

const READ_BYTES = 64 * 1024;

/**
 * Chunks of `source`, `undefined` at its end. A byte stream (what Deno gives for a process's
 * pipes) is read into one buffer that each read hands back; a chunk is valid until the next read.
 */
function chunkReader(source: ReadableStream<Uint8Array>): {
  next(): Promise<Uint8Array | undefined>;
  cancel(reason: unknown): Promise<void>;
} {
  let byob: ReadableStreamBYOBReader | undefined;
  try {
    byob = source.getReader({ mode: "byob" });
  } catch {
    // not a byte stream
  }
  if (byob) {
    const reader = byob;
    let buffer = new ArrayBuffer(READ_BYTES);
    return {
      async next() {
        const { value, done } = await reader.read(new Uint8Array(buffer));
        if (done) return undefined;
        buffer = value.buffer as ArrayBuffer;
        return value;
      },
      cancel: (reason) => reader.cancel(reason),
    };
  }
  const reader = source.getReader();
  return {
    async next() {
      const { value, done } = await reader.read();
      return done ? undefined : value;
    },
    cancel: (reason) => reader.cancel(reason),
  };
}

const encoder = new TextEncoder();

/** Encodes one message as a line of UTF-8 JSON. */
export function encodeLine(message: JsonRpcMessage): Uint8Array {
  return encoder.encode(`${JSON.stringify(message)}\n`);
}

/** Formats a byte count the way limits are usually stated. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
