/**
 * The stdio transport: a server process started with `Deno.Command`, speaking newline-delimited
 * JSON-RPC on its stdin and stdout.
 *
 * @module
 */

import { ConnectionClosedError, type Diagnostic, TransportError } from "../errors.ts";
import type { JsonRpcMessage } from "../jsonrpc.ts";
import { jsonRpcLines } from "./framing.ts";
import {
  groupAlive,
  serverEnv,
  signalGroup,
  sleep,
  USE_PROCESS_GROUP,
  within,
} from "./_process.ts";
import { StderrCollector } from "./_stderr.ts";
import { Redactor } from "../redact.ts";
import type { Transport } from "./transport.ts";

export { DEFAULT_INHERITED_ENV_VARS } from "./_process.ts";

const encoder = new TextEncoder();

/**
 * The default largest message accepted from a server: 10 MiB.
 *
 * @example Accepting larger results than the default
 * ```ts
 * import { DEFAULT_MAX_MESSAGE_BYTES, StdioTransport } from "@mcp-inspect/client";
 * const transport = new StdioTransport({
 *   command: "server",
 *   maxMessageBytes: 4 * DEFAULT_MAX_MESSAGE_BYTES, // 40 MiB
 * });
 * await transport.close();
 * ```
 */
export const DEFAULT_MAX_MESSAGE_BYTES: number = 10 * 1024 * 1024;

/**
 * How long each step of the shutdown ladder waits, by default.
 *
 * @example Giving a slow server more time to exit
 * ```ts
 * import { DEFAULT_CLOSE_STEP_MS, StdioTransport } from "@mcp-inspect/client";
 * const transport = new StdioTransport({
 *   command: "server",
 *   closeStepMs: 3 * DEFAULT_CLOSE_STEP_MS, // 6 s before SIGTERM, 6 s more before SIGKILL
 * });
 * await transport.close();
 * ```
 */
export const DEFAULT_CLOSE_STEP_MS: number = 2_000;

/**
 * Options of {@link StdioTransport}.
 *
 * @example Running the memory server through npx
 * ```ts
 * import type { StdioTransportOptions } from "@mcp-inspect/client";
 * const options: StdioTransportOptions = {
 *   command: "npx",
 *   args: ["-y", "@modelcontextprotocol/server-memory"],
 *   env: { MEMORY_FILE_PATH: "/tmp/memory.json" },
 *   stderr: (line) => console.error(`[memory] ${line}`),
 * };
 * ```
 */
export interface StdioTransportOptions {
  /** The program to run. It is never run through a shell. */
  command: string;
  /** Its arguments, passed as an array. */
  args?: readonly string[] | undefined;
  /**
   * Variables added to the server's environment. Their values are secrets: each one of 4 or
   * more characters is shown as `***` in stderr lines and error messages (see {@link Redactor}).
   */
  env?: Readonly<Record<string, string>> | undefined;
  /**
   * Pass the whole environment of this process to the server. By default only
   * {@link DEFAULT_INHERITED_ENV_VARS} are passed, plus `env`.
   */
  inheritEnv?: boolean;
  /** The server's working directory. */
  cwd?: string | URL | undefined;
  /**
   * What to do with the server's stderr: `"tail"` (default) keeps the last lines for error
   * messages; `"inherit"` passes it to this process's stderr; `"ignore"` discards it; a function
   * receives each line (and the tail is kept too). Lines kept or passed on have the `env` values
   * redacted; with `"inherit"` they reach this process's stderr untouched.
   */
  stderr?: "tail" | "inherit" | "ignore" | ((line: string) => void) | undefined;
  /** How many stderr lines to keep for error messages (default 20). */
  stderrTailLines?: number;
  /** The largest message accepted from the server, in bytes (default 10 MiB). */
  maxMessageBytes?: number;
  /** Receives non-fatal oddities, such as non-JSON lines on stdout. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** How long each shutdown step waits: stdin closed, then SIGTERM, then SIGKILL (default 2 s). */
  closeStepMs?: number;
  /** A name for the server in error messages (default: the command). */
  name?: string;
}

/**
 * Runs an MCP server as a child process and talks to it over stdin/stdout.
 *
 * The server runs in its own process group, so closing the transport also ends the processes
 * it started (a server launched through `npx` or `sh -c` leaves nothing behind). Closing
 * escalates: stdin is closed, then after 2 s the group gets SIGTERM, then after 2 s SIGKILL.
 *
 * @example Connecting to a server started with Deno
 * ```ts
 * import { Client, StdioTransport } from "@mcp-inspect/client";
 *
 * // A test server of this repository
 * const server = new URL("../../testdata/servers/everything.ts", import.meta.url).href;
 * await using client = await Client.connect(
 *   new StdioTransport({ command: "deno", args: ["run", "--allow-env", server] }),
 * );
 * console.log(client.serverInfo); // { name: "fake-everything", version: "1.0.0" }
 * ```
 */
export class StdioTransport implements Transport {
  /** Set by the session; see {@link Transport.onDiagnostic}. */
  onDiagnostic: ((diagnostic: Diagnostic) => void) | undefined;
  /** Set by the session; see {@link Transport.onMessage}. */
  onMessage: ((message: JsonRpcMessage) => void) | undefined;
  readonly #options: StdioTransportOptions;
  readonly #name: string;
  readonly #stderr: StderrCollector;
  readonly #stop = new AbortController();
  #child: Deno.ChildProcess | undefined;
  #status: Promise<Deno.CommandStatus> | undefined;
  #readable: ReadableStream<JsonRpcMessage> | undefined;
  #writable: WritableStream<JsonRpcMessage> | undefined;
  #stdin: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #closing: Promise<void> | undefined;
  /** Lines sent while a write is in flight, and the promise they share. */
  #outbox: string[] = [];
  #outboxSent: PromiseWithResolvers<void> | undefined;
  #writing = false;

  /**
   * Prepares the transport; the process starts when a client calls {@link start}.
   *
   * @example Constructing starts nothing
   * ```ts
   * import { StdioTransport } from "@mcp-inspect/client";
   * const transport = new StdioTransport({ command: "deno", args: ["run", "server.ts"] });
   * await transport.close(); // nothing was started, nothing to stop
   * ```
   */
  constructor(options: StdioTransportOptions) {
    this.#options = options;
    this.#name = options.name ?? options.command;
    const mode = options.stderr ?? "tail";
    // A server that prints its token before crashing must not put it in our error message.
    const redactor = new Redactor(Object.values(options.env ?? {}));
    this.#stderr = new StderrCollector(
      options.stderrTailLines ?? 20,
      typeof mode === "function" ? mode : undefined,
      (line) => redactor.redact(line),
    );
  }

  /**
   * The process id of the server, once started.
   *
   * @example The pid of a running process
   * ```ts
   * import { StdioTransport } from "@mcp-inspect/client";
   * // A stand-in for a server: a Deno process that writes back each line it reads
   * const echo = ["eval", "await Deno.stdin.readable.pipeTo(Deno.stdout.writable)"];
   * await using transport = new StdioTransport({ command: Deno.execPath(), args: echo });
   * console.log(transport.pid); // undefined
   * await transport.start();
   * console.log(typeof transport.pid); // "number"
   * ```
   */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * The last lines the server wrote to stderr.
   *
   * @example What a server said before it stopped
   * ```ts
   * import { StdioTransport } from "@mcp-inspect/client";
   * const script = "console.error('ready'); await Deno.stdin.readable.cancel()";
   * const transport = new StdioTransport({ command: Deno.execPath(), args: ["eval", script] });
   * await transport.start();
   * await transport.close();
   * console.log(transport.stderrTail); // ["ready"]
   * ```
   */
  get stderrTail(): readonly string[] {
    return this.#stderr.tail;
  }

  /**
   * Messages from the server. Available once {@link start} has resolved.
   *
   * @example Reading what a process writes back
   * ```ts
   * import { StdioTransport } from "@mcp-inspect/client";
   * // A stand-in for a server: a Deno process that writes back each line it reads
   * const echo = ["eval", "await Deno.stdin.readable.pipeTo(Deno.stdout.writable)"];
   * await using transport = new StdioTransport({ command: Deno.execPath(), args: echo });
   * await transport.start();
   * await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
   * const reader = transport.readable.getReader();
   * console.log((await reader.read()).value); // { jsonrpc: "2.0", id: 1, method: "ping" }
   * reader.releaseLock();
   * ```
   */
  get readable(): ReadableStream<JsonRpcMessage> {
    if (!this.#readable) throw new TransportError(`Transport for "${this.#name}" is not started`);
    return this.#readable;
  }

  /**
   * Messages to the server. Available once {@link start} has resolved.
   *
   * @example Writing a message through the stream
   * ```ts
   * import { StdioTransport } from "@mcp-inspect/client";
   * // A stand-in for a server: a Deno process that writes back each line it reads
   * const echo = ["eval", "await Deno.stdin.readable.pipeTo(Deno.stdout.writable)"];
   * await using transport = new StdioTransport({ command: Deno.execPath(), args: echo });
   * await transport.start();
   * const writer = transport.writable.getWriter();
   * await writer.write({ jsonrpc: "2.0", method: "notifications/initialized" });
   * writer.releaseLock();
   * ```
   */
  get writable(): WritableStream<JsonRpcMessage> {
    if (!this.#writable) throw new TransportError(`Transport for "${this.#name}" is not started`);
    return this.#writable;
  }

  /**
   * Spawns the server process.
   *
   * @example A command that is not installed
   * ```ts
   * import { StdioTransport, TransportError } from "@mcp-inspect/client";
   * await using transport = new StdioTransport({ command: "no-such-server" });
   * const error = await transport.start().catch((e) => e);
   * console.log(error instanceof TransportError, error.message);
   * // true Cannot start server "no-such-server": command "no-such-server" not found on PATH
   * ```
   */
  start(): Promise<void> {
    if (this.#closing) {
      return Promise.reject(new TransportError(`Transport for "${this.#name}" is closed`));
    }
    if (this.#child) return Promise.resolve();
    const options = this.#options;
    const mode = options.stderr ?? "tail";
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(options.command, {
        args: [...(options.args ?? [])],
        env: serverEnv(options.env, options.inheritEnv ?? false),
        clearEnv: !(options.inheritEnv ?? false),
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
        stdin: "piped",
        stdout: "piped",
        stderr: mode === "inherit" ? "inherit" : mode === "ignore" ? "null" : "piped",
        // Own process group, so that shutdown can signal every descendant at once.
        detached: USE_PROCESS_GROUP,
      }).spawn();
    } catch (error) {
      return Promise.reject(this.#spawnError(error));
    }
    this.#child = child;
    this.#status = child.status;
    if (mode !== "inherit" && mode !== "ignore") this.#stderr.pump(child.stderr);
    this.#stdin = child.stdin.getWriter();
    const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const onDiagnostic = (diagnostic: Diagnostic) => {
      options.onDiagnostic?.(diagnostic);
      this.onDiagnostic?.(diagnostic);
    };
    this.#readable = jsonRpcLines(child.stdout, maxBytes, onDiagnostic, {
      onEnd: () => this.#ended(),
      signal: this.#stop.signal,
      onMessage: () => this.onMessage,
    });
    this.#writable = new WritableStream<JsonRpcMessage>({ write: (message) => this.send(message) });
    return Promise.resolve();
  }

  /**
   * Sends one message. Messages sent while a write is in flight go out together in the next
   * write: one syscall (and one wake-up of the server) for a burst of calls instead of one each.
   * Resolves when the write carrying the message completes.
   *
   * @example Sending a burst of notifications
   * ```ts
   * import { StdioTransport } from "@mcp-inspect/client";
   * // A stand-in for a server: a Deno process that writes back each line it reads
   * const echo = ["eval", "await Deno.stdin.readable.pipeTo(Deno.stdout.writable)"];
   * await using transport = new StdioTransport({ command: Deno.execPath(), args: echo });
   * await transport.start();
   * const progress = [1, 2, 3].map((n) => ({ progressToken: "t", progress: n }));
   * await Promise.all(progress.map((params) =>
   *   transport.send({ jsonrpc: "2.0", method: "notifications/progress", params })
   * ));
   * ```
   */
  send(message: JsonRpcMessage): Promise<void> {
    if (!this.#stdin) {
      return Promise.reject(new TransportError(`Transport for "${this.#name}" is not started`));
    }
    this.#outbox.push(JSON.stringify(message));
    this.#outboxSent ??= Promise.withResolvers<void>();
    const sent = this.#outboxSent.promise;
    if (!this.#writing) this.#drain(this.#stdin);
    return sent;
  }

  async #drain(stdin: WritableStreamDefaultWriter<Uint8Array>): Promise<void> {
    this.#writing = true;
    while (this.#outbox.length > 0) {
      const lines = this.#outbox;
      const sent = this.#outboxSent!;
      this.#outbox = [];
      this.#outboxSent = undefined;
      try {
        await stdin.write(encoder.encode(`${lines.join("\n")}\n`));
        sent.resolve();
      } catch (error) {
        sent.reject(await this.#closedError("Cannot write to server: its stdin is closed", error));
      }
    }
    this.#writing = false;
  }

  #spawnError(error: unknown): TransportError {
    const command = this.#options.command;
    const prefix = `Cannot start server "${this.#name}"`;
    if (error instanceof Deno.errors.NotFound) {
      // A command with a separator is a path, tried as it is: "on PATH" would mislead.
      const where = this.#options.cwd !== undefined
        ? `or working directory "${this.#options.cwd}" does not exist`
        : /[\\/]/.test(command)
        ? "(no such file)"
        : "on PATH";
      return new TransportError(`${prefix}: command "${command}" not found ${where}`, {
        cause: error,
      });
    }
    if (error instanceof Deno.errors.PermissionDenied) {
      return new TransportError(`${prefix}: permission denied running "${command}"`, {
        cause: error,
      });
    }
    return new TransportError(`${prefix}: ${(error as Error).message}`, { cause: error });
  }

  /** Called when stdout ends: unless we are closing, the server went away, so say why. */
  async #ended(): Promise<void> {
    if (this.#closing) return;
    throw await this.#closedError("Server closed the connection");
  }

  async #closedError(message: string, cause?: unknown): Promise<ConnectionClosedError> {
    // Give the process a moment to be reaped and stderr to drain, so the error can say why.
    const status = this.#status ? await within(this.#status, 1_000) : undefined;
    await within(this.#stderr.done, 200);
    const exited = status === undefined ? message : `Server "${this.#name}" exited`;
    return new ConnectionClosedError(
      exited,
      {
        exitCode: status?.code,
        signal: status?.signal ?? undefined,
        stderrTail: this.#stderr.tail,
      },
      cause === undefined ? undefined : { cause },
    );
  }

  /**
   * Stops the server: stdin closed, then SIGTERM, then SIGKILL, to the whole process group.
   *
   * @example A process that ignores the end of its stdin gets SIGTERM
   * ```ts
   * import { StdioTransport } from "@mcp-inspect/client";
   * const stubborn = ["eval", "setInterval(() => {}, 1_000)"];
   * const transport = new StdioTransport({
   *   command: Deno.execPath(),
   *   args: stubborn,
   *   closeStepMs: 100,
   * });
   * await transport.start();
   * await transport.close(); // stdin closed, 100 ms, then SIGTERM
   * ```
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /**
   * Same as {@link close}.
   *
   * @example Stopping the server at the end of a scope
   * ```ts
   * import { StdioTransport } from "@mcp-inspect/client";
   * // A stand-in for a server: a Deno process that writes back each line it reads
   * const echo = ["eval", "await Deno.stdin.readable.pipeTo(Deno.stdout.writable)"];
   * {
   *   await using transport = new StdioTransport({ command: Deno.execPath(), args: echo });
   *   await transport.start();
   * } // the process is stopped here
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #shutdown(): Promise<void> {
    const child = this.#child;
    if (!child || !this.#status) return;
    const step = this.#options.closeStepMs ?? DEFAULT_CLOSE_STEP_MS;
    const exited = this.#status.then(() => true);
    // Not awaited: a server that stopped reading would block close() on a full pipe.
    this.#stdin?.close().catch(() => {});
    if (!(await within(exited, step))) {
      this.#signal(child, "SIGTERM");
      if (!(await within(exited, step))) this.#signal(child, "SIGKILL");
    }
    await this.#status;
    if (USE_PROCESS_GROUP) await this.#reapGroup(child.pid, step);
    // Descendants outside the group could still hold stdout open; stop reading it regardless.
    this.#stop.abort(new TransportError("Transport closed"));
    if (!this.#readable || !this.#readable.locked) await this.#readable?.cancel().catch(() => {});
    await this.#stderr.stop();
  }

  #signal(child: Deno.ChildProcess, signal: Deno.Signal): void {
    if (USE_PROCESS_GROUP && signalGroup(child.pid, signal)) return;
    try {
      child.kill(signal);
    } catch {
      // already exited
    }
  }

  /** The server exited; end whatever it left in its group (npx and sh -c leave children). */
  async #reapGroup(pgid: number, step: number): Promise<void> {
    if (!groupAlive(pgid)) return;
    signalGroup(pgid, "SIGTERM");
    const deadline = Date.now() + step;
    while (Date.now() < deadline) {
      await sleep(25);
      if (!groupAlive(pgid)) return;
    }
    signalGroup(pgid, "SIGKILL");
  }
}
