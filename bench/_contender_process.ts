// Contenders in processes of their own: the contender side (serveContender(), run by the bench
// script started again with --contender) and the driver side (ContenderProcess), which speak one
// command and one answer per line; and the timing each run's answer carries.

import process from "node:process";
import { onCpus } from "./_cpus.ts";
import { LineReader } from "./_line_reader.ts";
import type { Runner } from "./_runner.ts";

/** What a contender is asked to run: steady calls on its connection, or cold ones on a fresh one. */
export type RunMode = "sequential" | "concurrent" | "coldSequential" | "coldConcurrent";

/** Calls per second of one run of `calls` calls. */
export async function rate(calls: number, run: (calls: number) => Promise<void>): Promise<number> {
  const start = performance.now();
  await run(calls);
  return calls / ((performance.now() - start) / 1000);
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
   * (`taskset -c` syntax; see cpuSplit() in _cpus.ts) or wherever the scheduler puts it.
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
