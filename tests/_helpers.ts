import assert from "node:assert/strict";
// Test helpers: a transport wrapper that validates every message the client sends against the
// official schema of the negotiated revision, paths of the fixtures, and a fake clock.

import { type Clock, install } from "@sinonjs/fake-timers";
import {
  Client,
  type ClientOptions,
  type Diagnostic,
  type JsonRpcMessage,
  LATEST_LEGACY_PROTOCOL_VERSION,
  SPEC_REVISIONS,
  SpecValidator,
  StdioTransport,
  type StdioTransportOptions,
  type Transport,
} from "../mod.ts";

/** `../shared/spec` beside the repository when present; otherwise the schemas shipped in src/spec/. */
export const SPEC_DIR: string | undefined = (() => {
  const dir = new URL("../../shared/spec", import.meta.url).pathname;
  try {
    return Deno.statSync(`${dir}/2025-11-25/schema.json`).isFile ? dir : undefined;
  } catch {
    return undefined;
  }
})();

const validators = new Map<string, Promise<SpecValidator>>();

/** The validator of a revision, loaded once per test process. */
export function specValidator(revision: string): Promise<SpecValidator> {
  let validator = validators.get(revision);
  if (!validator) {
    validator = SpecValidator.load(revision, SPEC_DIR ? { schemaDir: SPEC_DIR } : {});
    validators.set(revision, validator);
  }
  return validator;
}

/** Absolute path of a fake server script. */
export function fixture(name: string): string {
  return new URL(`../testdata/servers/${name}`, import.meta.url).pathname;
}

/** Options to run a fake server with this Deno binary. */
export function fakeServer(
  name: string,
  args: string[] = [],
  options: Partial<StdioTransportOptions> = {},
): StdioTransportOptions {
  return {
    command: Deno.execPath(),
    args: ["run", "--allow-all", "--no-config", fixture(name), ...args],
    name,
    ...options,
  };
}

/**
 * Wraps a transport and checks each message the client writes against the schema of the
 * revision in use: the offered one for `initialize`, the negotiated one afterwards.
 */
export class CheckedTransport implements Transport {
  readonly inner: Transport;
  readonly violations: string[] = [];
  readonly sent: JsonRpcMessage[] = [];
  readonly #serverRequests = new Map<string | number, string>();
  readonly #loaded: Map<string, SpecValidator>;
  #revision = LATEST_LEGACY_PROTOCOL_VERSION;
  #initializeId: string | number | undefined;
  #readable: ReadableStream<JsonRpcMessage> | undefined;
  #writable: WritableStream<JsonRpcMessage> | undefined;

  private constructor(inner: Transport, loaded: Map<string, SpecValidator>) {
    this.inner = inner;
    this.#loaded = loaded;
  }

  static async wrap(inner: Transport): Promise<CheckedTransport> {
    const loaded = new Map<string, SpecValidator>();
    for (const revision of SPEC_REVISIONS) loaded.set(revision, await specValidator(revision));
    return new CheckedTransport(inner, loaded);
  }

  /** The session's handler for failures of one request, installed on the wrapped transport. */
  set onRequestError(handler: ((id: string | number, error: Error) => void) | undefined) {
    this.inner.onRequestError = handler;
  }

  get onRequestError(): ((id: string | number, error: Error) => void) | undefined {
    return this.inner.onRequestError;
  }

  /** The session's handler for what the wrapped transport skipped, installed on it. */
  set onDiagnostic(handler: ((diagnostic: Diagnostic) => void) | undefined) {
    this.inner.onDiagnostic = handler;
  }

  get onDiagnostic(): ((diagnostic: Diagnostic) => void) | undefined {
    return this.inner.onDiagnostic;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  get revision(): string {
    return this.#revision;
  }

  get readable(): ReadableStream<JsonRpcMessage> {
    return this.#readable!;
  }

  get writable(): WritableStream<JsonRpcMessage> {
    return this.#writable!;
  }

  async start(): Promise<void> {
    await this.inner.start();
    this.#readable = this.inner.readable.pipeThrough(
      new TransformStream<JsonRpcMessage, JsonRpcMessage>({
        transform: (message, controller) => {
          this.#observe(message);
          controller.enqueue(message);
        },
      }),
    );
    const writer = this.inner.writable.getWriter();
    this.#writable = new WritableStream<JsonRpcMessage>({
      write: (message) => {
        this.#check(message);
        return writer.write(message);
      },
    });
  }

  #observe(message: JsonRpcMessage): void {
    if ("method" in message && "id" in message) {
      this.#serverRequests.set(message.id, message.method);
    } else if ("result" in message && message.id === this.#initializeId) {
      const version = message.result.protocolVersion;
      if (typeof version === "string" && this.#loaded.has(version)) this.#revision = version;
    }
  }

  #check(message: JsonRpcMessage): void {
    this.sent.push(message);
    if ("method" in message && message.method === "initialize" && "id" in message) {
      this.#initializeId = message.id;
      const offered = message.params?.protocolVersion;
      if (typeof offered === "string" && this.#loaded.has(offered)) this.#revision = offered;
    }
    const answers = "method" in message || message.id === undefined || message.id === null
      ? undefined
      : this.#serverRequests.get(message.id);
    // A modern message names its revision in _meta; the others use the negotiated one.
    const meta = "method" in message
      ? message.params?._meta as Record<string, unknown> | undefined
      : undefined;
    const declared = meta?.["io.modelcontextprotocol/protocolVersion"];
    const revision = typeof declared === "string" && this.#loaded.has(declared)
      ? declared
      : this.#revision;
    const issues = this.#loaded.get(revision)!.checkClientMessage(message, answers)
      // The tasks extension of 2026-07-28 is specified outside the core schema (ext-tasks), so
      // the core schema does not know its methods; their JSON-RPC envelope is still checked.
      .filter((issue) =>
        !/^tasks\/\w+ is not a client request in revision 2026-07-28$/.test(issue)
      );
    for (const issue of issues) {
      this.violations.push(`[${revision}] ${JSON.stringify(message).slice(0, 300)}: ${issue}`);
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** A connected client whose sent messages are validated; disposing it asserts they were valid. */
export interface CheckedClient extends AsyncDisposable {
  client: Client;
  transport: CheckedTransport;
}

/** Connects a client through a {@link CheckedTransport}. */
export async function connectChecked(
  inner: Transport,
  options: ClientOptions = {},
): Promise<CheckedClient> {
  const transport = await CheckedTransport.wrap(inner);
  const client = await Client.connect(transport, options);
  return {
    client,
    transport,
    async [Symbol.asyncDispose]() {
      await client.close();
      if (transport.violations.length > 0) {
        throw new Error(`Messages invalid against the schema:\n${transport.violations.join("\n")}`);
      }
    },
  };
}

/** Connects to a fake server from `testdata/servers` with validation on. */
export function connectFake(
  name: string,
  args: string[] = [],
  options: ClientOptions & { transport?: Partial<StdioTransportOptions> } = {},
): Promise<CheckedClient> {
  const { transport, ...clientOptions } = options;
  return connectChecked(new StdioTransport(fakeServer(name, args, transport)), clientOptions);
}

/** Awaits a promise that must reject with an instance of `type`, and returns the error. */
// deno-lint-ignore no-explicit-any
export async function rejectsWith<T extends abstract new (...args: any[]) => Error>(
  promise: Promise<unknown> | (() => Promise<unknown>),
  type: T,
): Promise<InstanceType<T>> {
  let caught: unknown;
  await assert.rejects(typeof promise === "function" ? promise : () => promise, (error) => {
    caught = error;
    return true;
  });
  assert.ok(caught instanceof type, `expected ${type.name}, got ${String(caught)}`);
  return caught as InstanceType<T>;
}

/**
 * Fakes `setTimeout`, `setInterval` and `Date` until disposed (`using clock = fakeTime();`), for
 * tests of our own timeouts: time moves only by `await clock.tickAsync(ms)`, which also lets
 * promises and I/O run between the timers it fires, so a test neither sleeps nor races the
 * machine's load. `performance.now()` and microtasks stay real. Faked timers own no real timer,
 * so the sanitizers see nothing left behind when the clock goes.
 */
export function fakeTime(): Clock & Disposable {
  const clock = install({
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    // A timer set before the clock was faked (a session's request deadline, say) must still be
    // cleared when our code clears it, or it outlives the test.
    shouldClearNativeTimers: true,
  });
  return Object.assign(clock, { [Symbol.dispose]: () => clock.uninstall() });
}

/** Every TypeScript source file under `dir` (a path ending in `/`), declaration files left out. */
export async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) yield* sourceFiles(`${path}/`);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) yield path;
  }
}

/** `text` as a pattern that matches it literally (a path, a file name) inside a larger RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The keys of a recording's header once the session is negotiated, in the order files have. */
export const RECORDING_HEADER_KEYS: readonly string[] = [
  "format",
  "version",
  "tool",
  "server",
  "started",
  "protocolVersion",
  "era",
];
