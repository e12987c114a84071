// The signals that stop a command, and the exit codes they give (128 + the signal's number, as
// shells report them). Each command that runs a server listens to all three, so that neither a
// terminal closing (SIGHUP) nor a supervisor stopping us (SIGTERM) leaves the server running:
// aborting the command closes the client, which stops the server's whole process group.

/** Exit codes by stopping signal. */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** A signal that stops a command. */
export type StopSignal = keyof typeof SIGNAL_EXIT;

/**
 * Calls `handler` on SIGINT, SIGTERM or SIGHUP (those this platform can listen to) until the
 * returned handle is disposed.
 */
export function onStopSignals(
  handler: (signal: StopSignal) => void,
  signals: readonly StopSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"],
): Disposable {
  const added: [StopSignal, () => void][] = [];
  for (const signal of signals) {
    const listener = () => handler(signal);
    try {
      Deno.addSignalListener(signal, listener);
      added.push([signal, listener]);
    } catch {
      // Windows listens to SIGINT (and SIGBREAK) only
    }
  }
  return {
    [Symbol.dispose]() {
      for (const [signal, listener] of added) Deno.removeSignalListener(signal, listener);
    },
  };
}
