// Wire helpers for the fake MCP servers: newline-delimited JSON-RPC over stdin/stdout.
//
// Deliberately built on Deno APIs only and never on ../../src, so that a framing or id bug in the
// client cannot be mirrored here and cancel itself out in tests (STYLE.md guideline 9).

/** A JSON-RPC id; the fakes echo it back with its type intact (spec: "string or number"). */
export type Id = string | number;

/** Params or result object of a message. */
export type Params = Record<string, unknown>;

/** The error member of a JSON-RPC response. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/** Any message read from the client, loosely typed because the fakes must survive bad input. */
export interface Incoming {
  jsonrpc?: string;
  id?: Id | null;
  method?: string;
  params?: Params;
  result?: Params;
  error?: WireError;
}

/** Thrown by a request handler to answer with a JSON-RPC error instead of a result. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** Resolved by a handler that must not answer at all (hangs, crashes, silent servers). */
export const NO_RESPONSE: unique symbol = Symbol("no response");

/** Answers one client request; `signal` aborts when the client sends `notifications/cancelled`. */
export type RequestHandler = (
  request: Incoming & { id: Id; method: string },
  signal: AbortSignal,
) => Promise<Params | typeof NO_RESPONSE>;

/** What a fake server plugs into {@link serve}. */
export interface ServeOptions {
  onRequest: RequestHandler;
  onNotification?: (notification: Incoming & { method: string }) => void;
  /** Runs before every response is written (the `garbage` mode prints noise here). */
  beforeResponse?: () => Promise<void>;
}

/** Revisions the fakes accept, newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
];

/** Spec lifecycle: echo the client's revision when supported, otherwise offer our latest. */
export function negotiate(requested: unknown): string {
  return typeof requested === "string" && SUPPORTED_VERSIONS.includes(requested)
    ? requested
    : SUPPORTED_VERSIONS[0]!;
}

/** A tool result holding one text block. */
export function text(value: string, isError = false): Params {
  const result: Params = { content: [{ type: "text", text: value }] };
  if (isError) result.isError = true;
  return result;
}

const encoder = new TextEncoder();
let writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
let lastWrite: Promise<void> = Promise.resolve();
let writeFailed = false;

/** Writes a line to stderr; stdout is reserved for protocol messages. */
export function log(line: string): void {
  Deno.stderr.writeSync(encoder.encode(line + "\n"));
}

/**
 * Queues raw bytes for stdout. One writer serialises all output so concurrent handlers never
 * interleave halves of two lines. The promise never rejects: a client that hung up must not turn
 * into an unhandled rejection and a non-zero exit code.
 */
export function writeBytes(bytes: Uint8Array): Promise<void> {
  writer ??= Deno.stdout.writable.getWriter();
  lastWrite = writer.write(bytes).catch((error: unknown) => {
    if (!writeFailed) log(`stdout write failed: ${error}`);
    writeFailed = true;
  });
  return lastWrite;
}

/** Writes one line of text to stdout. */
export function writeLine(line: string): Promise<void> {
  return writeBytes(encoder.encode(line + "\n"));
}

/** Writes one JSON-RPC message as a single line. */
export function send(message: Params): Promise<void> {
  return writeLine(JSON.stringify({ jsonrpc: "2.0", ...message }));
}

/** Closes stdout while the process keeps running. */
export async function closeStdout(): Promise<void> {
  writer ??= Deno.stdout.writable.getWriter();
  await lastWrite;
  await writer.close().catch(() => {});
}

/**
 * Flushes stdout and exits. The flush is capped because a client that stopped reading (e.g.
 * after rejecting an oversized line) would otherwise keep us blocked on a full pipe forever.
 */
export async function exit(code: number): Promise<never> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<void>((resolve) => timer = setTimeout(resolve, 2_000));
  await Promise.race([lastWrite, cap]);
  clearTimeout(timer);
  Deno.exit(code);
}

/** Splits decoded text on "\n", dropping a trailing "\r" as lenient readers do. */
class LineSplitStream extends TransformStream<string, string> {
  constructor() {
    let rest = "";
    super({
      transform(chunk, controller) {
        const parts = (rest + chunk).split("\n");
        rest = parts.pop()!;
        for (const part of parts) controller.enqueue(part.replace(/\r$/, ""));
      },
      flush(controller) {
        if (rest !== "") controller.enqueue(rest);
      },
    });
  }
}

/** Parsed messages from stdin until EOF; unparsable lines get a -32700 reply as JSON-RPC asks. */
export async function* readMessages(): AsyncGenerator<Incoming> {
  const lines = Deno.stdin.readable
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new LineSplitStream());
  for await (const line of lines) {
    if (line.trim() === "") continue;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      log(`invalid JSON from client: ${line.slice(0, 200)}`);
      void send({ id: null, error: { code: -32700, message: "Parse error" } });
      continue;
    }
    if (typeof message === "object" && message !== null && !Array.isArray(message)) {
      yield message as Incoming;
    } else {
      log(`unexpected message from client: ${line.slice(0, 200)}`);
    }
  }
}

const awaiting = new Map<Id, (response: Incoming) => void>();
let nextServerId = 1;

/**
 * Sends a server-to-client request and resolves with the client's whole response, result or
 * error. Ids are "s1", "s2", ... so they can never collide with ids the client picks.
 */
export function request(method: string, params?: Params): Promise<Incoming> {
  const id = `s${nextServerId++}`;
  const { promise, resolve } = Promise.withResolvers<Incoming>();
  awaiting.set(id, resolve);
  void send(params === undefined ? { id, method } : { id, method, params });
  return promise;
}

/**
 * Reads stdin until EOF, routing responses to {@link request}, notifications to the server, and
 * requests to concurrent handlers so a slow tool never blocks reading (cancellation needs that).
 */
export async function serve(options: ServeOptions): Promise<void> {
  const inFlight = new Map<Id, AbortController>();
  for await (const message of readMessages()) {
    const { id, method } = message;
    if (method === undefined) {
      const resolve = id === undefined || id === null ? undefined : awaiting.get(id);
      if (resolve) {
        awaiting.delete(id!);
        resolve(message);
      } else log(`response with unknown id: ${JSON.stringify(id)}`);
    } else if (id === undefined || id === null) {
      if (method === "notifications/cancelled") {
        const requestId = message.params?.requestId as Id;
        const reason = message.params?.reason;
        log(`cancelled ${requestId}${typeof reason === "string" ? ` ${reason}` : ""}`);
        inFlight.get(requestId)?.abort(reason);
        inFlight.delete(requestId);
      }
      options.onNotification?.({ ...message, method });
    } else {
      const controller = new AbortController();
      inFlight.set(id, controller);
      void answer(options, { ...message, id, method }, controller.signal).finally(() => {
        if (inFlight.get(id) === controller) inFlight.delete(id);
      });
    }
  }
}

async function answer(
  options: ServeOptions,
  message: Incoming & { id: Id; method: string },
  signal: AbortSignal,
): Promise<void> {
  let reply: Params;
  try {
    const result = await options.onRequest(message, signal);
    if (result === NO_RESPONSE) return;
    reply = { id: message.id, result };
  } catch (error) {
    const wire: WireError = error instanceof RpcError
      ? { code: error.code, message: error.message }
      : { code: -32603, message: `Internal error: ${error}` };
    if (error instanceof RpcError && error.data !== undefined) wire.data = error.data;
    reply = { id: message.id, error: wire };
  }
  // Spec (cancellation): the receiver of a cancelled request should not send a response.
  if (signal.aborted) return;
  await options.beforeResponse?.();
  await send(reply);
}

/** Resolves after `ms`, or early and quietly when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
