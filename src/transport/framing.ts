// Newline-delimited JSON framing for stream transports (stdio): bytes to messages, messages to lines.

import { type Diagnostic, ProtocolError } from "../errors.ts";
import { type JsonRpcMessage, messageId, toMessage } from "../jsonrpc.ts";
import { deliver } from "./_deliver.ts";

const NEWLINE = 0x0a;
const PREVIEW_CHARS = 200;

/** Shortens a line for a diagnostic so that a huge bad line does not flood a log. */
export function preview(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

/**
 * Splits bytes into lines on `\n` and decodes them as UTF-8, replacing invalid sequences rather
 * than failing, so one bad byte cannot stall the connection. A line longer than `maxLineBytes`
 * throws as soon as the limit is passed: nothing beyond the limit is buffered. The lines of a
 * chunk are decoded together, in one call: `\n` is never part of a multi-byte sequence, so this
 * decodes exactly as line by line would, and one decoder call per line cost ~0.5 µs a message.
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
    const last = chunk.lastIndexOf(NEWLINE);
    if (last === -1) {
      this.#keep(chunk);
      return;
    }
    // Every line ends at or before `last`: only a span longer than the limit can hold one too long.
    if (this.#partBytes + last > this.#maxLineBytes) this.#checkLengths(chunk, last);
    this.#emitLines(this.#decoder.decode(this.#joined(chunk.subarray(0, last))));
    if (last + 1 < chunk.byteLength) this.#keep(chunk.subarray(last + 1));
  }

  end(): void {
    if (this.#partBytes > 0) this.#emitLines(this.#decoder.decode(this.#joined(new Uint8Array(0))));
  }

  /** Keeps the start of a line until its end arrives. */
  #keep(bytes: Uint8Array): void {
    this.#partBytes += bytes.byteLength;
    if (this.#partBytes > this.#maxLineBytes) throw this.#tooLong();
    // Copy: the source may reuse its buffer for the next read.
    this.#parts.push(bytes.slice());
  }

  /** The kept start of the first line, then `rest`, in one buffer. */
  #joined(rest: Uint8Array): Uint8Array {
    if (this.#parts.length === 0) return rest;
    const bytes = new Uint8Array(this.#partBytes + rest.byteLength);
    let offset = 0;
    for (const part of this.#parts) {
      bytes.set(part, offset);
      offset += part.byteLength;
    }
    bytes.set(rest, offset);
    this.#parts = [];
    this.#partBytes = 0;
    return bytes;
  }

  #checkLengths(chunk: Uint8Array, last: number): void {
    let start = 0;
    let length = this.#partBytes;
    while (start <= last) {
      const index = chunk.indexOf(NEWLINE, start);
      if (length + index - start > this.#maxLineBytes) throw this.#tooLong();
      length = 0;
      start = index + 1;
    }
  }

  #emitLines(text: string): void {
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf("\n", start);
      if (end === -1) end = text.length;
      const next = end + 1;
      if (end > start && text.charCodeAt(end - 1) === 0x0d) end -= 1; // tolerate CRLF
      if (end > start) this.#onLine(text.slice(start, end));
      start = next;
    }
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

/** Options of {@link jsonRpcLines}. */
export interface JsonRpcLinesOptions {
  /** Runs when the input ends cleanly; what it throws errors the stream. */
  onEnd?: () => void | Promise<void>;
  /** Aborting cancels the source and errors the stream with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** The reader's direct hook (`Transport.onMessage`), asked for each message. */
  onMessage?: () => ((message: JsonRpcMessage) => void) | undefined;
}

/**
 * Bytes to JSON-RPC messages, read from `source` as they are asked for: split into lines (see
 * {@link LineSplitter}) and parsed (see {@link parseLine}), without pipes between streams. Each pipe
 * takes promise turns per chunk, and the caller of an answered request waited behind them (and
 * behind the allocation of a fresh 64 KiB read buffer) before it could send its next request,
 * ~10 µs per sequential call in `deno task bench`. A byte stream is read into one buffer, reused.
 * A reader with a direct hook gets each message through it (see {@link deliver}); the stream then
 * only carries the end of the input, and reading goes on as long as messages go straight.
 */
export function jsonRpcLines(
  source: ReadableStream<Uint8Array>,
  maxLineBytes: number,
  onDiagnostic: (diagnostic: Diagnostic) => void,
  options: JsonRpcLinesOptions = {},
): ReadableStream<JsonRpcMessage> {
  const { onEnd, signal, onMessage } = options;
  const read = chunkReader(source);
  let splitter: LineSplitter;
  let queued = 0;
  return new ReadableStream<JsonRpcMessage>({
    start(controller) {
      splitter = new LineSplitter(maxLineBytes, (line) => {
        const message = parseLine(line, onDiagnostic);
        if (message && !deliver(controller, onMessage?.(), message)) queued++;
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
      // The stream asks again only after something was queued: a chunk holding no whole message
      // (part of a line, or lines that are not messages), or only messages handed straight to
      // the reader, must not end the pull.
      const before = queued;
      let chunks = 0;
      while (queued === before) {
        // After a chunk whose messages went straight to the reader, let what they woke up run
        // first: a caller whose answer just arrived sends its next request within a few promise
        // turns, and its write then goes out before the next read is issued rather than behind
        // it (the read's system call sat on every sequential call's path, ~8 µs of ~80).
        if (chunks++ > 0) { for (let turn = 0; turn < TURNS_BEFORE_READ; turn++) await null; }
        const chunk = await read.next();
        if (chunk === undefined) break;
        splitter.push(chunk);
      }
      if (queued !== before) return;
      splitter.end();
      await onEnd?.();
      controller.close();
    },
    cancel(reason) {
      return read.cancel(reason);
    },
  });
}

const READ_BYTES = 64 * 1024;
/** Promise turns given to the reader's continuations before the next read (see jsonRpcLines). */
const TURNS_BEFORE_READ = 4;

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
