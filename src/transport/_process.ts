// Process plumbing for the stdio transport: the environment allowlist, process-group signals,
// and cancellable delays.

const IS_WINDOWS = Deno.build.os === "windows";

/**
 * Variables passed to a server by default. Like the official SDK, we pass only what a process
 * needs to find binaries and a home directory, so API keys in the parent's environment do not
 * leak into every server.
 *
 * @example Checking that a variable reaches the server
 * ```ts
 * import { DEFAULT_INHERITED_ENV_VARS } from "@mcp-inspect/client";
 * console.log(DEFAULT_INHERITED_ENV_VARS.includes("PATH")); // true
 * console.log(DEFAULT_INHERITED_ENV_VARS.includes("OPENAI_API_KEY")); // false: pass it in `env`
 * ```
 */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] = IS_WINDOWS
  ? [
    "APPDATA",
    "HOMEDRIVE",
    "HOMEPATH",
    "LOCALAPPDATA",
    "PATH",
    "PROCESSOR_ARCHITECTURE",
    "SYSTEMDRIVE",
    "SYSTEMROOT",
    "TEMP",
    "USERNAME",
    "USERPROFILE",
    "PROGRAMFILES",
  ]
  : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/** Builds the environment of a server process from the allowlist and the configured `env`. */
export function serverEnv(
  env: Readonly<Record<string, string>> | undefined,
  inherit: boolean,
): Record<string, string> {
  const result: Record<string, string> = {};
  if (!inherit) {
    for (const key of DEFAULT_INHERITED_ENV_VARS) {
      let value: string | undefined;
      try {
        value = Deno.env.get(key);
      } catch {
        continue; // no --allow-env for this variable: pass nothing rather than fail
      }
      // Values starting with "()" are exported shell functions; they are a known injection path.
      if (value !== undefined && !value.startsWith("()")) result[key] = value;
    }
  }
  return { ...result, ...env };
}

/** Whether process groups are available (everywhere but Windows). */
export const USE_PROCESS_GROUP: boolean = !IS_WINDOWS;

/**
 * Sends a signal to a whole process group. Returns false when no process is left in it.
 */
export function signalGroup(pgid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any process of the group is still running. A zombie is not running: where the init
 * process does not reap orphans (some containers), zombies would otherwise look alive forever.
 */
export function groupAlive(pgid: number): boolean {
  if (Deno.build.os === "linux") {
    try {
      for (const entry of Deno.readDirSync("/proc")) {
        if (!/^\d+$/.test(entry.name)) continue;
        let stat: string;
        try {
          stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
        } catch {
          continue; // exited while we looked
        }
        // Fields after the parenthesised command name: state, ppid, pgrp.
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
      }
      return false;
    } catch {
      // No read access to /proc: fall back to the signal probe below.
    }
  }
  return signalGroup(pgid, "SIGCONT");
}

/** Resolves after `ms` milliseconds, or at once when `signal` aborts; never leaves a timer. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Resolves with the promise's value, or with `undefined` after `ms` milliseconds. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  const controller = new AbortController();
  try {
    return await Promise.race([promise, sleep(ms, controller.signal).then(() => undefined)]);
  } finally {
    controller.abort();
  }
}
