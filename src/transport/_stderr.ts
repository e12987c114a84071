// Reads a server's stderr line by line, keeping the last lines for crash reports.

import { within } from "./_process.ts";

/** Longest stderr line kept, so a runaway line cannot grow memory. */
const MAX_LINE_CHARS = 2_000;

export class StderrCollector {
  readonly #limit: number;
  readonly #onLine: ((line: string) => void) | undefined;
  readonly #redact: (line: string) => string;
  readonly #lines: string[] = [];
  #reader: ReadableStreamDefaultReader<string> | undefined;
  #done: Promise<void> = Promise.resolve();

  /** `redact` hides secrets (the server's env values) before a line is kept or passed on. */
  constructor(
    limit: number,
    onLine?: (line: string) => void,
    redact: (line: string) => string = (line) => line,
  ) {
    this.#limit = limit;
    this.#onLine = onLine;
    this.#redact = redact;
  }

  /** The last lines, oldest first. */
  get tail(): readonly string[] {
    return [...this.#lines];
  }

  /** Settles when the stream has been read to its end. */
  get done(): Promise<void> {
    return this.#done;
  }

  pump(stream: ReadableStream<Uint8Array>): void {
    this.#reader = stream.pipeThrough(new TextDecoderStream()).getReader();
    this.#done = this.#read(this.#reader);
  }

  async #read(reader: ReadableStreamDefaultReader<string>): Promise<void> {
    let partial = "";
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        const pieces = (partial + value).split("\n");
        partial = (pieces.pop() ?? "").slice(0, MAX_LINE_CHARS);
        for (const piece of pieces) this.#add(piece);
      }
    } catch {
      // cancelled by stop(), or the pipe broke: either way there is nothing more to read
    }
    if (partial !== "") this.#add(partial);
  }

  #add(raw: string): void {
    const line = this.#redact(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
    const kept = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
    this.#lines.push(kept);
    if (this.#lines.length > this.#limit) this.#lines.shift();
    try {
      this.#onLine?.(kept);
    } catch {
      // a throwing callback must not stop us from draining stderr (the server would block)
    }
  }

  /** Waits briefly for the rest of stderr, then stops reading. */
  async stop(): Promise<void> {
    await within(this.#done, 200);
    await this.#reader?.cancel().catch(() => {});
    await this.#done;
  }
}
