// A transport wrapper that adds `_meta` entries (W3C trace context) to outgoing tools/call
// requests. Client.callTool() takes no `_meta`; until RequestOptions grows one, the manager
// queues the entries here just before the call and the wrapper merges them into the next
// tools/call of that tool. The client sends tools/call synchronously when it already knows the
// tool list, which the manager makes sure of, so the entries meet their own call.

import type { JsonObject, JsonRpcMessage, RequestId } from "../jsonrpc.ts";
import type { Transport } from "../transport/transport.ts";

export class MetaTransport implements Transport {
  readonly inner: Transport;
  readonly #queued = new Map<string, JsonObject[]>();
  #writable: WritableStream<JsonRpcMessage> | undefined;
  #writer: WritableStreamDefaultWriter<JsonRpcMessage> | undefined;

  constructor(inner: Transport) {
    this.inner = inner;
  }

  get readable(): ReadableStream<JsonRpcMessage> {
    return this.inner.readable;
  }

  get writable(): WritableStream<JsonRpcMessage> {
    this.#writable ??= new WritableStream({ write: (message) => this.send(message) });
    return this.#writable;
  }

  get onRequestError(): ((id: RequestId, error: Error) => void) | undefined {
    return this.inner.onRequestError;
  }

  set onRequestError(handler: ((id: RequestId, error: Error) => void) | undefined) {
    this.inner.onRequestError = handler;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  /** Queues `_meta` entries for the next tools/call of `tool`; returns a function unqueuing them. */
  expectCall(tool: string, meta: JsonObject): () => void {
    let queue = this.#queued.get(tool);
    if (!queue) this.#queued.set(tool, queue = []);
    queue.push(meta);
    return () => {
      const index = queue.indexOf(meta);
      if (index !== -1) queue.splice(index, 1);
      if (queue.length === 0 && this.#queued.get(tool) === queue) this.#queued.delete(tool);
    };
  }

  send(message: JsonRpcMessage): Promise<void> {
    const out = this.#inject(message);
    if (this.inner.send) return this.inner.send(out);
    this.#writer ??= this.inner.writable.getWriter();
    return this.#writer.write(out);
  }

  #inject(message: JsonRpcMessage): JsonRpcMessage {
    if (!("method" in message) || message.method !== "tools/call" || !("id" in message)) {
      return message;
    }
    const params = message.params ?? {};
    const queue = this.#queued.get(String(params.name));
    const meta = queue?.shift();
    if (!meta) return message;
    if (queue!.length === 0) this.#queued.delete(String(params.name));
    // What the client set (its progress token, the modern-era keys) wins over ours.
    const merged = { ...meta, ...(params._meta as JsonObject | undefined) };
    return { ...message, params: { ...params, _meta: merged } };
  }
}
