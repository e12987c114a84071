// A fake server of testdata/servers run as a process, with line-level access to its stdio, for the
// fixtures_smoke_*_test.ts files that speak raw JSON lines to the fakes.

import assert from "node:assert/strict";

/** A JSON-RPC message or a part of one, loosely typed. */
export type Json = Record<string, unknown>;

/** The params of a plain 2025-11-25 initialize request. */
export const INITIALIZE_PARAMS: Json = {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "smoke", version: "0.0.0" },
};

/** A fake server process with line-level access to its stdio. */
export class Fake implements AsyncDisposable {
  readonly child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reader: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>>;
  #buffer: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  #stderr = "";
  #stderrDone: Promise<void>;
  #stdinClosed = false;

  constructor(file: string, args: string[] = [], env: Record<string, string> = {}) {
    const path = new URL(`../testdata/servers/${file}`, import.meta.url).pathname;
    this.child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", path, ...args],
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.child.stdin.getWriter();
    this.#reader = this.child.stdout.getReader();
    const stderr = this.child.stderr.pipeThrough(new TextDecoderStream());
    this.#stderrDone = (async () => {
      for await (const text of stderr) this.#stderr += text;
    })();
  }

  get stderr(): string {
    return this.#stderr;
  }

  /** Writes each message as one JSON line, in a single write. */
  async send(...messages: Json[]): Promise<void> {
    const lines = messages.map((message) => JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
    await this.#writer.write(new TextEncoder().encode(lines.join("")));
  }

  /** The next stdout line as raw bytes, or undefined at EOF. Linear even for huge lines. */
  async readLine(): Promise<Uint8Array | undefined> {
    const parts: Uint8Array<ArrayBuffer>[] = [];
    while (true) {
      const index = this.#buffer.indexOf(0x0a);
      if (index >= 0) {
        parts.push(this.#buffer.subarray(0, index));
        this.#buffer = this.#buffer.subarray(index + 1);
        return new Uint8Array(await new Blob(parts).arrayBuffer());
      }
      if (this.#buffer.length > 0) parts.push(this.#buffer);
      const { value, done } = await this.#reader.read();
      if (done) {
        this.#buffer = new Uint8Array(0);
        return parts.length > 0 ? new Uint8Array(await new Blob(parts).arrayBuffer()) : undefined;
      }
      this.#buffer = value;
    }
  }

  async nextText(): Promise<string> {
    const line = await this.readLine();
    assert.ok(line, `Unexpected EOF on stdout; stderr: ${this.#stderr}`);
    return new TextDecoder().decode(line);
  }

  async next(): Promise<Json> {
    return JSON.parse(await this.nextText());
  }

  async initialize(params: Json = INITIALIZE_PARAMS): Promise<Json> {
    await this.send({ id: 0, method: "initialize", params });
    const response = await this.next();
    await this.send({ method: "notifications/initialized" });
    return response;
  }

  /** Sends tools/call; `params` adds fields such as `_meta`. */
  call(id: number | string, name: string, args: Json = {}, params: Json = {}): Promise<void> {
    return this.send({ id, method: "tools/call", params: { name, arguments: args, ...params } });
  }

  async result(): Promise<Json> {
    return (await this.next()).result as Json;
  }

  /** Polls stderr, which arrives asynchronously, until it contains `text`. */
  async waitForStderr(pattern: RegExp): Promise<RegExpMatchArray> {
    for (let i = 0; i < 250; i++) {
      const match = this.#stderr.match(pattern);
      if (match) return match;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`Stderr never matched ${pattern}: ${this.#stderr}`);
  }

  /** True when the process is still running `ms` later. */
  async aliveAfter(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const alive = new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(true), ms));
    const result = await Promise.race([alive, this.child.status.then(() => false)]);
    clearTimeout(timer);
    return result;
  }

  /** Idempotent; the process may be gone already (exit-immediately), leaving a broken pipe. */
  async closeStdin(): Promise<void> {
    if (this.#stdinClosed) return;
    this.#stdinClosed = true;
    await this.#writer.close().catch(() => {});
  }

  /** Closes stdin and waits for the exit, releasing every stream so sanitizers stay quiet. */
  async finish(): Promise<Deno.CommandStatus> {
    await this.closeStdin();
    const status = await this.child.status;
    await this.#reader.cancel();
    await this.#stderrDone;
    return status;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (await this.aliveAfter(0)) {
      try {
        this.child.kill("SIGKILL");
      } catch { /* exited meanwhile */ }
    }
    await this.finish();
  }
}

/** The text of the first content block of a tools/call response. */
export function toolText(response: Json): string {
  const result = response.result as { content: { text: string }[] };
  return result.content[0]!.text;
}
