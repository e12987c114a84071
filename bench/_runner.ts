// The contender contract of the stdio and HTTP benchmarks: a contender, once connected, is a
// runner of N calls either way; and, over stdio, the command that starts a server, the same for
// every contender.

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

/** How to start a server, the same for every contender. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/** The command line that starts a Deno script as a server, for every contender alike. */
export function serverCommand(path: string): ServerCommand {
  return { command: Deno.execPath(), args: ["run", "--allow-all", "--no-config", path] };
}
