// Where a benchmark's processes run: the server on one CPU and the contenders on the others
// (`taskset`), when the machine allows.

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
