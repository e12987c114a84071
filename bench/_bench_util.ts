// Shared pieces of the stdio benchmark: the contender contract, timing, and the bare loop that
// speaks JSON lines to the server with no client at all, the limit clients are measured against.

/** One contender, connected and ready: it knows how to run N calls either way. */
export interface Runner {
  /** N calls, each awaited before the next is sent. */
  sequential(calls: number): Promise<void>;
  /** N calls all in flight at once. */
  concurrent(calls: number): Promise<void>;
  /** Stops the server and releases everything. */
  close(): Promise<void>;
}

/** A contender by name, and how to connect it to a server. */
export interface Contender {
  name: string;
  connect(server: ServerCommand): Promise<Runner>;
}

/** A runner for any client whose call is a function returning a promise. */
export function callRunner(call: () => Promise<unknown>, close: () => Promise<void>): Runner {
  return {
    async sequential(calls: number): Promise<void> {
      for (let i = 0; i < calls; i++) await call();
    },
    async concurrent(calls: number): Promise<void> {
      const inFlight: Promise<unknown>[] = new Array(calls);
      for (let i = 0; i < calls; i++) inFlight[i] = call();
      await Promise.all(inFlight);
    },
    close,
  };
}

/** Calls per second of one run of `calls` calls. */
export async function rate(calls: number, run: (calls: number) => Promise<void>): Promise<number> {
  const start = performance.now();
  await run(calls);
  return calls / ((performance.now() - start) / 1000);
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `a / b`, rounded to two decimals. */
export function ratio(a: number, b: number): number {
  return Math.round((a / b) * 100) / 100;
}

/**
 * `a` over `b` round by round, the median of those ratios, rounded to two places. Each round runs
 * both sides back to back, so a slow stretch of the machine slows both and cancels out, which a
 * ratio of the two medians does not do.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) throw new Error("pairedRatio needs rounds of both");
  return ratio(median(a.map((value, i) => value / b[i]!)), 1);
}

/** Aligns rows of cells: the first column left, the others right. */
export function formatTable(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows.map((row) =>
    row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join("  ")
  ).join("\n");
}

const NEWLINE = 0x0a;

/** Reads newline-delimited lines from a byte stream, one `next()` at a time. */
class LineReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer: Uint8Array = new Uint8Array(0);
  #start = 0;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  async next(): Promise<string> {
    while (true) {
      const end = this.#buffer.indexOf(NEWLINE, this.#start);
      if (end !== -1) {
        const line = this.#decoder.decode(this.#buffer.subarray(this.#start, end));
        this.#start = end + 1;
        return line;
      }
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("Bare loop: the server closed stdout");
      const rest = this.#buffer.subarray(this.#start);
      // Only copy when a line straddles two reads; the usual read holds whole lines.
      if (rest.length === 0) {
        this.#buffer = value;
      } else {
        this.#buffer = new Uint8Array(rest.length + value.length);
        this.#buffer.set(rest);
        this.#buffer.set(value, rest.length);
      }
      this.#start = 0;
    }
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

/** How to start a server, the same for every contender. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/** The command line that starts a Deno script as a server, for every contender alike. */
export function serverCommand(path: string): ServerCommand {
  return { command: Deno.execPath(), args: ["run", "--allow-all", "--no-config", path] };
}

/**
 * The bare loop: no client, no session, no id map. It still does the work any client must do
 * per call (stringify and encode the request, decode and parse the response), so the gap to it
 * is client overhead rather than JSON.
 */
export async function bareLoop(server: ServerCommand): Promise<Runner> {
  const { command, args } = server;
  const child = new Deno.Command(command, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = new LineReader(child.stdout);
  const encoder = new TextEncoder();
  let nextId = 1;
  const send = (method: string, params: Record<string, unknown>, id?: number): Promise<void> => {
    const message = id === undefined
      ? { jsonrpc: "2.0", method, params }
      : { jsonrpc: "2.0", id, method, params };
    return writer.write(encoder.encode(`${JSON.stringify(message)}\n`));
  };
  const receive = async (): Promise<void> => {
    const message = JSON.parse(await lines.next()) as { id?: unknown; result?: unknown };
    if (typeof message.id !== "number" || message.result === undefined) {
      throw new Error(`Bare loop: unexpected message ${JSON.stringify(message)}`);
    }
  };
  const call = (): Promise<void> =>
    send("tools/call", { name: "echo", arguments: { text: "hi" } }, nextId++);

  await send("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "bare-loop", version: "0.0.0" },
  }, nextId++);
  await receive();
  await send("notifications/initialized", {});

  return {
    async sequential(calls: number): Promise<void> {
      for (let i = 0; i < calls; i++) {
        await call();
        await receive();
      }
    },
    async concurrent(calls: number): Promise<void> {
      // Read while writing: otherwise the server blocks on a full stdout pipe, stops reading
      // stdin, and our writes block in turn.
      const reading = (async () => {
        for (let i = 0; i < calls; i++) await receive();
      })();
      const writes: Promise<void>[] = new Array(calls);
      for (let i = 0; i < calls; i++) writes[i] = call();
      await Promise.all(writes);
      await reading;
    },
    async close(): Promise<void> {
      await writer.close().catch(() => {});
      const status = await child.status;
      await lines.cancel();
      if (!status.success) throw new Error(`Bare loop: server exited with ${status.code}`);
    },
  };
}
