// Newline-delimited JSON framing for stream transports (stdio), as web stream classes.

import { type Diagnostic, ProtocolError } from "../errors.ts";
import { type JsonRpcMessage, toMessage } from "../jsonrpc.ts";

const NEWLINE = 0x0a;
const PREVIEW_CHARS = 200;

/** Shortens a line for a diagnostic so that a huge bad line does not flood a log. */
export function preview(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

/**
 * Splits bytes into lines on `\n` and decodes each as UTF-8, replacing invalid sequences rather
 * than failing, so one bad byte cannot stall the connection. A line longer than `maxLineBytes`
 * errors the stream as soon as the limit is passed: nothing beyond the limit is buffered.
 */
export class LineDecodeStream extends TransformStream<Uint8Array, string> {
  constructor(maxLineBytes: number) {
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    let parts: Uint8Array[] = [];
    let partBytes = 0;
    const emit = (
      controller: TransformStreamDefaultController<string>,
      last: Uint8Array,
    ) => {
      let bytes = last;
      if (parts.length > 0) {
        parts.push(last);
        bytes = new Uint8Array(partBytes + last.byteLength);
        let offset = 0;
        for (const part of parts) {
          bytes.set(part, offset);
          offset += part.byteLength;
        }
        parts = [];
        partBytes = 0;
      }
      let end = bytes.byteLength;
      if (end > 0 && bytes[end - 1] === 0x0d) end -= 1; // tolerate CRLF
      if (end > 0) controller.enqueue(decoder.decode(bytes.subarray(0, end)));
    };
    const tooLong = () =>
      new ProtocolError(
        `Message from server exceeds the ${formatBytes(maxLineBytes)} limit (maxMessageBytes)`,
      );
    super({
      transform(chunk, controller) {
        let start = 0;
        let index = chunk.indexOf(NEWLINE, start);
        while (index !== -1) {
          if (partBytes + index - start > maxLineBytes) throw tooLong();
          emit(controller, chunk.subarray(start, index));
          start = index + 1;
          index = chunk.indexOf(NEWLINE, start);
        }
        if (start < chunk.byteLength) {
          partBytes += chunk.byteLength - start;
          if (partBytes > maxLineBytes) throw tooLong();
          // Copy: the source may reuse its buffer for the next read.
          parts.push(chunk.slice(start));
        }
      },
      flush(controller) {
        if (partBytes > 0) emit(controller, new Uint8Array(0));
      },
    });
  }
}

/**
 * Parses each line as a JSON-RPC message. Lines that are not JSON, or JSON that is not a
 * JSON-RPC message, are reported to `onDiagnostic` and skipped: many servers log to stdout.
 */
export class JsonRpcDecodeStream extends TransformStream<string, JsonRpcMessage> {
  constructor(onDiagnostic: (diagnostic: Diagnostic) => void) {
    super({
      transform(line, controller) {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          if (line.trim() === "") return;
          onDiagnostic({
            kind: "non-json-line",
            message: "Skipped a line from the server that is not JSON",
            data: preview(line),
          });
          return;
        }
        try {
          controller.enqueue(toMessage(value));
        } catch (error) {
          onDiagnostic({
            kind: "invalid-message",
            message: `Skipped an invalid message from the server: ${(error as Error).message}`,
            data: preview(line),
          });
        }
      },
    });
  }
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
