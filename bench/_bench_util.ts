// Shared pieces of the stdio and HTTP benchmarks: the contender contract, timing, contenders in
// processes of their own, and the bare loop that speaks JSON lines to the server with no client at
// all, the limit clients are measured against.

import process from "node:process";

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

/** What a contender is asked to run: steady calls on its connection, or cold ones on a fresh one. */
export type RunMode = "sequential" | "concurrent" | "coldSequential" | "coldConcurrent";

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

/**
 * `a` over `b` round by round, the median of those ratios. Each round runs both sides back to
 * back, so a slow stretch of the machine slows both and cancels out, which a ratio of the two
 * medians does not do. Not rounded: a target is judged on the ratio itself (0.8996 is below 0.9),
 * and only the display rounds.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) throw new Error("pairedRatio needs rounds of both");
  return median(a.map((value, i) => value / b[i]!));
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

/** What a read asks for at most: Deno's default for pipes. */
const READ_BYTES = 64 * 1024;

/**
 * Reads newline-delimited lines from a byte stream, one `next()` at a time. A byte stream (what
 * Deno gives for a process's pipes) is read into one reused buffer, as the fastest client would;
 * only a line cut by a read is copied.
 */
class LineReader {
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
  const lines = new LineReader(child.stdout, "Bare loop");
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
        // The answer is read while the write completes: nothing waits for the write by itself.
        const written = call();
        await receive();
        await written;
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

/** The first word of every line a contender process answers on stdout; other lines are ignored. */
const ANSWER = "@rate ";

/**
 * What a contender measured of one run: calls per second, and the CPU time its own process spent
 * per call (all its threads; not the server's). The rate is what the targets are about; the CPU
 * time shows where it goes, and moves far less from run to run than the rate of round trips
 * between two processes does.
 */
export interface Sample {
  rate: number;
  cpuMicros: number;
}

/** Runs `calls` calls and measures them: the wall clock for the rate, getrusage for the CPU. */
async function sample(calls: number, run: (calls: number) => Promise<void>): Promise<Sample> {
  const before = process.cpuUsage();
  const measured = await rate(calls, run);
  const used = process.cpuUsage(before);
  return { rate: measured, cpuMicros: (used.user + used.system) / calls };
}

/**
 * The contender side of {@link ContenderProcess}: runs in a process of its own and takes one
 * command per line on stdin: `ready` (answered at once: the process has started and loaded its
 * modules), `warmup N` (connects if needed and runs N calls each way), a
 * {@link RunMode} and a count (answered with the calls per second and the CPU microseconds per
 * call measured), or `close`. Cold modes connect afresh for that run alone (the connection is not
 * measured, its first calls are); the others reuse one connection, made on first use.
 */
export async function serveContender(connect: () => Promise<Runner>): Promise<void> {
  const commands = new LineReader(Deno.stdin.readable, "Contender");
  const encoder = new TextEncoder();
  let steady: Runner | undefined;
  const answer = ({ rate, cpuMicros }: Sample) =>
    Deno.stdout.write(encoder.encode(`${ANSWER}${rate} ${cpuMicros}\n`));
  try {
    while (true) {
      const [command, count] = (await commands.next()).split(" ");
      const calls = Number(count);
      if (command === "close") break;
      if (command === "ready") {
        await answer({ rate: 0, cpuMicros: 0 });
      } else if (command === "warmup") {
        steady ??= await connect();
        await steady.sequential(calls);
        await steady.concurrent(calls);
        await answer({ rate: 0, cpuMicros: 0 });
      } else if (command === "coldSequential" || command === "coldConcurrent") {
        const fresh = await connect();
        let measured: Sample;
        try {
          const kind = command === "coldSequential" ? "sequential" : "concurrent";
          measured = await sample(calls, (n) => fresh[kind](n));
        } finally {
          // Closed before the answer: a server still exiting would take CPU from the next
          // contender's run, and always from the same one, since the turns go round in order.
          await fresh.close();
        }
        await answer(measured);
      } else if (command === "sequential" || command === "concurrent") {
        steady ??= await connect();
        const runner = steady;
        await answer(await sample(calls, (n) => runner[command](n)));
      } else {
        throw new Error(`Contender: unknown command ${JSON.stringify(command)}`);
      }
    }
  } finally {
    await steady?.close();
    await commands.cancel();
  }
}

/** The command line that runs `command` on `cpus` (`taskset -c`), or as it is without them. */
export function onCpus(
  cpus: string | undefined,
  command: string,
  args: readonly string[],
): [string, string[]] {
  return cpus === undefined ? [command, [...args]] : ["taskset", ["-c", cpus, command, ...args]];
}

/** Where a benchmark's server and its contenders run when they are pinned. */
export interface CpuSplit {
  server: string;
  contenders: string;
}

/**
 * The last CPU for the server, the others for the contenders; undefined with fewer than two CPUs
 * or no `taskset`. Unpinned, on two cores, where the scheduler happened to place each process
 * decided its rate: driving two identical bare loops in turns, whichever ran first measured up
 * to twice what the second did, slice after slice, and fresh processes moved that from round to
 * round. Pinned, the two measure alike.
 */
export async function cpuSplit(): Promise<CpuSplit | undefined> {
  const cpus = navigator.hardwareConcurrency;
  if (cpus < 2) return undefined;
  const split = { server: String(cpus - 1), contenders: cpus === 2 ? "0" : `0-${cpus - 2}` };
  // Both sets must be ours to use: a container may allow other CPU numbers than 0 to n-1.
  for (const set of [split.server, split.contenders]) {
    try {
      const { success } = await new Deno.Command("taskset", {
        args: ["-c", set, "true"],
        stdout: "null",
        stderr: "null",
      }).output();
      if (!success) return undefined;
    } catch {
      return undefined; // no taskset on this machine
    }
  }
  return split;
}

/**
 * A contender in a process of its own, so that no contender shares a heap, a JIT or a connection
 * pool with another: what one allocates is collected on its own time, as in real use, where a
 * client never shares its process with a bare loop or another client. The process runs `script`
 * with `args`, and the script calls {@link serveContender}. Rounds still alternate the
 * contenders back to back, and the others wait idle on their stdin while one runs.
 */
export class ContenderProcess {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #answers: LineReader;
  readonly #name: string;
  readonly #encoder = new TextEncoder();

  /**
   * Starts `script` with `args` under the benchmark's import map, on the CPUs `cpus` names
   * (`taskset -c` syntax; see {@link cpuSplit}) or wherever the scheduler puts it.
   */
  constructor(name: string, script: URL, args: readonly string[], cpus?: string) {
    this.#name = name;
    const [command, commandArgs] = onCpus(cpus, Deno.execPath(), [
      "run",
      "--allow-all",
      "--config",
      new URL("../tests/deno.json", import.meta.url).pathname,
      script.pathname,
      ...args,
    ]);
    this.#child = new Deno.Command(command, {
      args: commandArgs,
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#answers = new LineReader(this.#child.stdout, `Contender ${name}`);
  }

  /**
   * Resolves once the process has started and loaded its modules: processes started together
   * must not measure while the others are still starting.
   */
  async ready(): Promise<void> {
    await this.run("ready", 0);
  }

  /** Runs `calls` calls in `mode` and resolves with what the process measured of them. */
  async run(mode: RunMode | "warmup" | "ready", calls: number): Promise<Sample> {
    await this.#writer.write(this.#encoder.encode(`${mode} ${calls}\n`));
    while (true) {
      const line = await this.#answers.next();
      if (!line.startsWith(ANSWER)) continue; // something the contender's code printed
      const [rate, cpuMicros] = line.slice(ANSWER.length).split(" ").map(Number);
      if (!Number.isFinite(rate) || !Number.isFinite(cpuMicros)) {
        throw new Error(`Contender ${this.#name} answered ${line}`);
      }
      return { rate: rate!, cpuMicros: cpuMicros! };
    }
  }

  /** Closes the contender's connection and waits for its process to end. */
  async close(): Promise<void> {
    await this.#writer.write(this.#encoder.encode("close\n")).catch(() => {});
    await this.#writer.close().catch(() => {});
    const status = await this.#child.status;
    await this.#answers.cancel();
    if (!status.success) throw new Error(`Contender ${this.#name} exited with ${status.code}`);
  }
}

/**
 * Runs `mode` on every contender `times` times, `calls` calls a run, the contenders taking turns
 * (each pass started by the next one, the first pass by contender `first`, so that none always
 * runs first), and returns each one's
 * calls per second and CPU per call over all its runs. Drift in machine load within the passes
 * hits every contender alike, and short runs (a few dozen milliseconds) are measured more than
 * once.
 */
export async function alternate(
  processes: readonly ContenderProcess[],
  mode: RunMode,
  calls: number,
  times: number,
  first = 0,
): Promise<Sample[]> {
  const seconds = processes.map(() => 0);
  const cpu = processes.map(() => 0);
  for (let pass = 0; pass < times; pass++) {
    for (let k = 0; k < processes.length; k++) {
      const i = (first + pass + k) % processes.length;
      const { rate, cpuMicros } = await processes[i]!.run(mode, calls);
      seconds[i]! += calls / rate;
      cpu[i]! += cpuMicros;
    }
  }
  return seconds.map((total, i) => ({ rate: (calls * times) / total, cpuMicros: cpu[i]! / times }));
}

/** How many slices a round's steady sequential calls are cut into, the contenders taking turns. */
export const SLICES = 10;
/** How many steady concurrent runs make one round. */
export const CONCURRENT_RUNS = 3;

/**
 * One round of steady calls, `calls` per contender: sequential calls in {@link SLICES} slices,
 * the contenders taking turns slice by slice, so that drift in machine load within the round hits
 * every contender alike; concurrent runs whole (slicing them would change how many calls are in
 * flight), {@link CONCURRENT_RUNS} times.
 */
export function steadyRound(
  processes: readonly ContenderProcess[],
  mode: "sequential" | "concurrent",
  calls: number,
): Promise<Sample[]> {
  return mode === "sequential"
    ? alternate(processes, mode, Math.ceil(calls / SLICES), SLICES)
    : alternate(processes, mode, calls, CONCURRENT_RUNS);
}
