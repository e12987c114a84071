/**
 * Recordings of MCP sessions: every message both ways as JSON Lines, a header line first, taken
 * from a {@link TapTransport} around any transport. A recording can be replayed as a server
 * ({@link replayServer}), re-sent to a live server to find drift ({@link verifyRecording}), or read
 * as a surface for `diff`.
 *
 * @module
 */

import type { JsonRpcMessage } from "../jsonrpc.ts";
import { Redactor } from "../redact.ts";
import { TapTransport } from "../transport/tap.ts";
import type { Transport } from "../transport/transport.ts";
import { VERSION } from "../version.ts";

/**
 * The first line of a recording.
 *
 * @example Reading which server a recording is of
 * ```ts
 * import { parseRecording } from "@mcp-inspect/client/testing";
 * const { header } = parseRecording(`
 * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z","protocolVersion":"2025-11-25"}`);
 * console.log(header.server, header.protocolVersion); // "my-server" "2025-11-25"
 * ```
 */
export interface RecordingHeader {
  /** Always `"mcp-inspect-recording"`. */
  format: "mcp-inspect-recording";
  /** The version of the format: 1. */
  version: 1;
  /** The mcp-inspect version that recorded it. */
  tool: string;
  /** The negotiated revision, when the session got that far. */
  protocolVersion?: string | undefined;
  /** The negotiated era, likewise. */
  era?: "legacy" | "modern" | undefined;
  /** The server: its command line or URL, secrets redacted. */
  server: string;
  /** When the recording started (ISO 8601). */
  started: string;
}

/**
 * One message of a recording: `send` went to the server, `recv` came from it.
 *
 * @example A ping sent 12 ms into the session
 * ```ts
 * import type { RecordedMessage } from "@mcp-inspect/client/testing";
 * const line: RecordedMessage = { t: 12, dir: "send", msg: { jsonrpc: "2.0", id: 1, method: "ping" } };
 * ```
 */
export interface RecordedMessage {
  /** Milliseconds since the recording started. */
  t: number;
  /** Which way it went. */
  dir: "send" | "recv";
  /** The message. */
  msg: JsonRpcMessage;
}

/**
 * A parsed recording.
 *
 * @example Counting the messages of a recording
 * ```ts
 * import { parseRecording } from "@mcp-inspect/client/testing";
 * const recording = parseRecording(`
 * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}
 * {"t":0.4,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}
 * {"t":0.9,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{}}}`);
 * console.log(recording.messages.length); // 2
 * ```
 */
export interface Recording {
  /** The header line. */
  header: RecordingHeader;
  /** Every message, in order. */
  messages: RecordedMessage[];
}

/**
 * The header line of a recording of `server` (its command line or URL) that started at
 * `started`, with the negotiated revision and era once the session got that far. The
 * {@link Recorder} and the web page's wire export both write it, so their files stay one format.
 * Keys come in the order files have always had, `format` first, since `mcp-inspect diff` tells a
 * recording from a snapshot by its opening characters.
 *
 * @example The header of a negotiated session
 * ```ts
 * import { recordingHeader } from "./record.ts"; // internal: not exported by any entry point
 * const header = recordingHeader("npx my-server", new Date("2025-06-01T12:00:00Z"), {
 *   protocolVersion: "2025-11-25",
 *   era: "legacy",
 * });
 * console.log(JSON.stringify(header));
 * // {"format":"mcp-inspect-recording","version":1,"tool":"<VERSION>","server":"npx my-server",
 * //  "started":"2025-06-01T12:00:00.000Z","protocolVersion":"2025-11-25","era":"legacy"}
 * ```
 */
export function recordingHeader(
  server: string,
  started: Date,
  session?: {
    protocolVersion?: string | undefined;
    era?: "legacy" | "modern" | undefined;
  } | undefined,
): RecordingHeader {
  return {
    format: "mcp-inspect-recording",
    version: 1,
    tool: VERSION,
    server,
    started: started.toISOString(),
    ...(session?.protocolVersion !== undefined ? { protocolVersion: session.protocolVersion } : {}),
    ...(session?.era !== undefined ? { era: session.era } : {}),
  };
}

/**
 * A recording's `t` for a message seen now: milliseconds since `started` (a `performance.now()`
 * reading), to the microsecond. An in-process or local answer often comes in well under a
 * millisecond, so whole milliseconds would record it as taking no time at all; digits past the
 * microsecond would only lengthen every line. The {@link Recorder} and the web page's wire log
 * both stamp messages with it, so a page export replays and diffs like a `--record` file.
 *
 * @example The time of a message, as a line of a recording has it
 * ```ts
 * import { recordingTime } from "./record.ts"; // internal: not exported by any entry point
 * const started = performance.now();
 * const msg = { jsonrpc: "2.0", id: 1, method: "ping" };
 * const line = { t: recordingTime(started), dir: "send", msg };
 * console.log(JSON.stringify(line)); // e.g. {"t":0.016,"dir":"send",...}: 16 µs after `started`
 * ```
 */
export function recordingTime(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

/**
 * Options of {@link Recorder}.
 *
 * @example Keeping a secret out of the file
 * ```ts
 * import type { RecorderOptions } from "@mcp-inspect/client/testing";
 * const options: RecorderOptions = { server: "npx my-server", secrets: ["s3cret"] };
 * ```
 */
export interface RecorderOptions {
  /** The server's command line or URL, for the header (redacted like every line). */
  server: string;
  /** Values that must never reach the file (tokens, env values, header values). */
  secrets?: readonly string[];
  /** More redaction, applied to every line after the secrets above (a proxy's server configs). */
  redact?: (line: string) => string;
  /** Header values, every one of them a secret. */
  headers?: Iterable<readonly [string, string]> | Readonly<Record<string, string>>;
}

/**
 * Writes every message of a connection to a JSON Lines file: the header once the session is
 * negotiated ({@link Recorder.ready}) or closed, then one line per message. Secrets given in the
 * options are replaced with `***` in every line, header included.
 *
 * @example Recording a session
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer, parseRecording, Recorder } from "@mcp-inspect/client/testing";
 *
 * const file = await Deno.makeTempFile({ suffix: ".jsonl" }); // session.jsonl
 * {
 *   await using recorder = await Recorder.open(file, { server: "my-server" });
 *   const transport = new FakeServer({ tools: [{ name: "echo" }] }).transport(); // any transport
 *   await using client = await Client.connect(recorder.wrap(transport));
 *   recorder.ready(client);
 *   await client.listTools();
 * }
 * const { header, messages } = parseRecording(await Deno.readTextFile(file));
 * console.log(header.server, messages.length); // "my-server" 4
 * await Deno.remove(file);
 * ```
 */
export class Recorder implements AsyncDisposable {
  readonly #file: Deno.FsFile;
  readonly #redactor: Redactor;
  readonly #redact: (line: string) => string;
  readonly #server: string;
  readonly #startedAt = new Date();
  readonly #started = performance.now();
  #session: { protocolVersion: string; era: "legacy" | "modern" } | undefined;
  #pending: string[] | undefined = [];
  #closed = false;
  readonly #encoder = new TextEncoder();

  private constructor(file: Deno.FsFile, options: RecorderOptions) {
    this.#file = file;
    this.#redactor = new Redactor(options.secrets ?? []);
    if (options.headers) this.#redactor.addHeaders(options.headers);
    const more = options.redact ?? ((line: string) => line);
    this.#redact = (line) => more(this.#redactor.redact(line));
    this.#server = options.server;
  }

  /**
   * Creates (or truncates) the file and returns a recorder writing to it.
   *
   * @example Recording into a file
   * ```ts
   * import { Recorder } from "@mcp-inspect/client/testing";
   * const file = await Deno.makeTempFile({ suffix: ".jsonl" });
   * await Deno.writeTextFile(file, "an older recording\n");
   * const recorder = await Recorder.open(file, { server: "my-server" });
   * console.log((await Deno.readTextFile(file)).length); // 0: truncated; the header comes later
   * await recorder.close();
   * await Deno.remove(file);
   * ```
   */
  static async open(path: string, options: RecorderOptions): Promise<Recorder> {
    const file = await Deno.open(path, { write: true, create: true, truncate: true });
    return new Recorder(file, options);
  }

  /**
   * Wraps a transport so that every message both ways is recorded.
   *
   * @example Recording a server's session
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer, Recorder } from "@mcp-inspect/client/testing";
   *
   * const file = await Deno.makeTempFile({ suffix: ".jsonl" });
   * await using recorder = await Recorder.open(file, { server: "my-server" });
   * // new StdioTransport({ command: "my-server" }) is wrapped the same way
   * const transport = recorder.wrap(new FakeServer().transport());
   * await using _client = await Client.connect(transport);
   * await recorder.close();
   * console.log((await Deno.readTextFile(file)).trim().split("\n").length); // 3: header, 2 messages
   * await Deno.remove(file);
   * ```
   */
  wrap(transport: Transport): Transport {
    return new TapTransport(transport, {
      sent: (msg) => this.#record("send", msg),
      received: (msg) => this.#record("recv", msg),
    });
  }

  /**
   * Wraps a server-side transport (a proxy's, for instance): what its client sends is recorded as
   * `send` and what it answers as `recv`, as if recorded at the client. The header is written
   * when the handshake's answer goes out.
   *
   * @example Recording what a proxy's client sends and gets
   * ```ts
   * import { Client, MemoryTransport } from "@mcp-inspect/client";
   * import { FakeServer, parseRecording, Recorder } from "@mcp-inspect/client/testing";
   *
   * const server = new FakeServer().server; // a proxy's server, say
   * const file = await Deno.makeTempFile({ suffix: ".jsonl" });
   * const recorder = await Recorder.open(file, { server: "proxy" });
   * // a proxy on stdio: server.serve(recorder.wrapServer(new StdioServerTransport()))
   * const transport = MemoryTransport.serving((end) => server.serve(recorder.wrapServer(end)));
   * const client = await Client.connect(transport);
   * await client.close();
   * await recorder.close();
   * const { header, messages } = parseRecording(await Deno.readTextFile(file));
   * console.log(header.era, messages[0]?.dir); // "modern" "send"
   * await Deno.remove(file);
   * ```
   */
  wrapServer(transport: Transport): Transport {
    const asked = new Map<unknown, string>();
    return new TapTransport(transport, {
      received: (msg) => {
        if ("method" in msg && "id" in msg) asked.set(msg.id, msg.method);
        this.#record("send", msg);
      },
      sent: (msg) => {
        this.#record("recv", msg);
        const method = "id" in msg ? asked.get(msg.id) : undefined;
        const result = "result" in msg ? msg.result as Record<string, unknown> : undefined;
        if (!result || (method !== "initialize" && method !== "server/discover")) return;
        const versions = result.supportedVersions;
        const version = typeof result.protocolVersion === "string"
          ? result.protocolVersion
          : Array.isArray(versions)
          ? String(versions[0])
          : undefined;
        if (version !== undefined && this.#pending) {
          this.ready({
            protocolVersion: version,
            era: method === "initialize" ? "legacy" : "modern",
          });
        }
      },
    });
  }

  /**
   * Notes the negotiated revision and era and writes the header with the lines held so far.
   *
   * @example Writing the header once the client has connected
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer, Recorder } from "@mcp-inspect/client/testing";
   *
   * const file = await Deno.makeTempFile({ suffix: ".jsonl" });
   * await using recorder = await Recorder.open(file, { server: "fake" });
   * await using client = await Client.connect(recorder.wrap(new FakeServer().transport()));
   * recorder.ready(client);
   * const header = JSON.parse((await Deno.readTextFile(file)).split("\n")[0]!);
   * console.log(header.protocolVersion, header.era); // "2026-07-28" "modern"
   * await Deno.remove(file);
   * ```
   */
  ready(session: { protocolVersion: string; era: "legacy" | "modern" }): void {
    this.#session = { protocolVersion: session.protocolVersion, era: session.era };
    this.#flush();
  }

  #record(dir: "send" | "recv", msg: JsonRpcMessage): void {
    const line = this.#redact(JSON.stringify({ t: recordingTime(this.#started), dir, msg }));
    if (this.#pending) this.#pending.push(line);
    else this.#write([line]);
  }

  #flush(): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = undefined;
    const header = recordingHeader(this.#server, this.#startedAt, this.#session);
    this.#write([this.#redact(JSON.stringify(header)), ...pending]);
  }

  #write(lines: string[]): void {
    if (this.#closed) return;
    const bytes = this.#encoder.encode(`${lines.join("\n")}\n`);
    // Synchronous, so lines stay in order and nothing is pending when the process exits.
    for (let offset = 0; offset < bytes.length;) {
      offset += this.#file.writeSync(bytes.subarray(offset));
    }
  }

  /**
   * Writes the header (if the session never got negotiated) and closes the file.
   *
   * @example Closing the recording
   * ```ts
   * import { Recorder } from "@mcp-inspect/client/testing";
   * const file = await Deno.makeTempFile({ suffix: ".jsonl" });
   * const recorder = await Recorder.open(file, { server: "my-server" });
   * await recorder.close();
   * console.log(JSON.parse(await Deno.readTextFile(file)).format); // "mcp-inspect-recording"
   * await Deno.remove(file);
   * ```
   */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#flush();
      this.#closed = true;
      this.#file.close();
    }
    return Promise.resolve();
  }

  /**
   * Same as {@link Recorder.close}.
   *
   * @example Writing the header and closing the file at the end of a scope
   * ```ts
   * import { Recorder } from "@mcp-inspect/client/testing";
   * const file = await Deno.makeTempFile({ suffix: ".jsonl" });
   * {
   *   await using _recorder = await Recorder.open(file, { server: "my-server" });
   * }
   * console.log(JSON.parse(await Deno.readTextFile(file)).server); // "my-server"
   * await Deno.remove(file);
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Parses a recording, naming the line that is not one.
 *
 * @example Parsing a recording file
 * ```ts
 * import { parseRecording } from "@mcp-inspect/client/testing";
 * const recording = parseRecording(`
 * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}
 * {"t":0.4,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}
 * {"t":0.9,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{}}}`);
 * console.log(recording.messages.map((m) => m.dir)); // ["send", "recv"]
 * ```
 */
export function parseRecording(text: string, source = "the recording"): Recording {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const parse = (line: string, n: number) => {
    try {
      return JSON.parse(line);
    } catch (error) {
      throw new SyntaxError(`${source}, line ${n}: not JSON (${(error as Error).message})`);
    }
  };
  const header = parse(lines[0] ?? "null", 1) as RecordingHeader | null;
  if (header?.format !== "mcp-inspect-recording" || header.version !== 1) {
    throw new SyntaxError(`${source}, line 1: not an mcp-inspect recording header (format 1)`);
  }
  const messages = lines.slice(1).map((line, i) => {
    const value = parse(line, i + 2) as RecordedMessage;
    if (
      typeof value !== "object" || value === null ||
      (value.dir !== "send" && value.dir !== "recv") ||
      typeof value.msg !== "object" || value.msg === null
    ) {
      throw new SyntaxError(`${source}, line ${i + 2}: expected {"t", "dir", "msg"}`);
    }
    return value;
  });
  return { header, messages };
}
