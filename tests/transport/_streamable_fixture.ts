// The fake of testdata/http/streamable_fake.ts on a free port, a transport with short waits, and
// the small waits and lookups that the streamable_http_*_test.ts files share.

import assert from "node:assert/strict";
import {
  type CallToolResult,
  type ClientOptions,
  StreamableHttpTransport,
  type StreamableHttpTransportOptions,
} from "../../mod.ts";
import {
  type SeenRequest,
  streamableFake,
  type StreamableFakeOptions,
} from "../../testdata/http/streamable_fake.ts";
import { type CheckedClient, connectChecked } from "../_helpers.ts";

/** A request handler, as Deno.serve takes it. */
export type Handler = (req: Request) => Response | Promise<Response>;

/** Serves `handler` on a free port of 127.0.0.1. */
export function listen(handler: Handler): { server: Deno.HttpServer; origin: string } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { server, origin: `http://127.0.0.1:${server.addr.port}` };
}

/** The fake on a free port; `wrap` may answer some requests itself. */
export function serve(
  options: StreamableFakeOptions = {},
  wrap?: (inner: Handler) => Handler,
): AsyncDisposable & { url: string; log: SeenRequest[] } {
  const log: SeenRequest[] = [];
  const fake = streamableFake({ ...options, log });
  const { server, origin } = listen(wrap ? wrap(fake) : fake);
  return {
    url: `${origin}/mcp`,
    log,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** Short waits everywhere, so that no test sleeps for long. */
export function transport(
  url: string,
  options: Partial<StreamableHttpTransportOptions> = {},
): StreamableHttpTransport {
  return new StreamableHttpTransport({ url, reconnectDelayMs: 10, maxDelayMs: 100, ...options });
}

/** Connects through `transport()`, checking every message the client sends against the schema. */
export function connect(
  url: string,
  options: Partial<StreamableHttpTransportOptions> = {},
  client: ClientOptions = {},
): Promise<CheckedClient> {
  return connectChecked(transport(url, options), client);
}

/** The text blocks of a tool result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => c.text ?? "").join("");
}

/** Resolves when `check` holds; fails after 5 s instead of hanging. */
export async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 5_000) assert.fail(`Still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A promise and the function that resolves it, for events. */
export function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => resolve = r);
  return { promise, resolve };
}

/** Awaits an event, failing after 5 s instead of hanging. */
export async function eventually<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Still waiting for ${what}`)), 5_000);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** How many requests of one JSON-RPC method the fake has seen. */
export const count = (log: SeenRequest[], rpc: string): number =>
  log.filter((r) => r.rpc === rpc).length;

/** The session id the transport under the schema check holds. */
export function sessionOf(fx: CheckedClient): string | undefined {
  return (fx.transport.inner as StreamableHttpTransport).sessionId;
}
