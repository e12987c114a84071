// How a round drives the contender processes: in turns, so that drift in machine load hits every
// contender alike.

import type { ContenderProcess, RunMode, Sample } from "./_contender_process.ts";

/**
 * Runs `mode` on every contender `times` times, `calls` calls a run, the contenders taking turns
 * (each pass in an order of its own, see {@link shuffled}, started by contender `first + pass`, so
 * that none always runs first), and returns each one's calls per second and CPU per call over all
 * its runs. Drift in machine load within the passes hits every contender alike, and short runs (a
 * few dozen milliseconds) are measured more than once.
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
    const order = shuffled(processes.length, first + pass);
    for (const i of order) {
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

/**
 * The indices 0 to n-1 in a random order whose first is `first` mod n: the order of one pass.
 * Random, so that no contender always runs right after the same one. In a fixed order, moving two
 * HTTP rows to other places in it moved their ratios by 1-2 points, about what separates the rows
 * compared there; which contender runs before another should not be part of the measure.
 */
export function shuffled(n: number, first: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const head = order.indexOf(first % n);
  [order[0], order[head]] = [order[head]!, order[0]!];
  return order;
}
