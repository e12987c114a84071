// Newline-delimited lines from a process's pipe, read as the fastest client would: what the bare
// loop reads its answers with, and what a contender process and its driver speak over.

const NEWLINE = 0x0a;

/** What a read asks for at most: Deno's default for pipes. */
const READ_BYTES = 64 * 1024;

/**
 * Reads newline-delimited lines from a byte stream, one `next()` at a time. A byte stream (what
 * Deno gives for a process's pipes) is read into one reused buffer, as the fastest client would;
 * only a line cut by a read is copied.
 */
export class LineReader {
  readonly #byob: ReadableStreamBYOBReader | undefined;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  readonly #decoder = new TextDecoder();
  /** Who reads, for the error when the stream ends. */
  readonly #label: string;
  #storage = new ArrayBuffer(READ_BYTES);
  #buffer: Uint8Array = new Uint8Array(0);
  #start = 0;

  constructor(stream: ReadableStream<Uint8Array>, label: string) {
    this.#label = label;
    try {
      this.#byob = stream.getReader({ mode: "byob" });
    } catch {
      this.#reader = stream.getReader(); // not a byte stream
    }
  }

  async next(): Promise<string> {
    while (true) {
      const end = this.#buffer.indexOf(NEWLINE, this.#start);
      if (end !== -1) {
        const line = this.#decoder.decode(this.#buffer.subarray(this.#start, end));
        this.#start = end + 1;
        return line;
      }
      // The rest of a line cut by the last read, copied before the next read reuses the buffer.
      const rest = this.#start < this.#buffer.length ? this.#buffer.slice(this.#start) : undefined;
      const value = await this.#read();
      if (value === undefined) throw new Error(`${this.#label}: the other side closed the pipe`);
      if (rest === undefined) {
        this.#buffer = value;
      } else {
        this.#buffer = new Uint8Array(rest.length + value.length);
        this.#buffer.set(rest);
        this.#buffer.set(value, rest.length);
      }
      this.#start = 0;
    }
  }

  async #read(): Promise<Uint8Array | undefined> {
    if (this.#byob) {
      const { value, done } = await this.#byob.read(new Uint8Array(this.#storage));
      if (done || !value) return undefined;
      this.#storage = value.buffer as ArrayBuffer;
      return value;
    }
    const { value, done } = await this.#reader!.read();
    return done ? undefined : value;
  }

  async cancel(): Promise<void> {
    await (this.#byob ?? this.#reader)!.cancel().catch(() => {});
  }
}
