// A fetch with no network behind it, for `bench:http:layers --instant`: each POST is answered at
// once, in memory, as the benchmark server answers it (testdata/http/fast_answers.ts), with the
// same headers. What a layer costs over it is that layer's own work, with Deno's fetch, the
// kernel and the server out of the way.

import { answer } from "../testdata/http/fast_answers.ts";

/** The URL every layer is given: never contacted. */
export const INSTANT_URL = "http://127.0.0.1:9/mcp";

const encoder = new TextEncoder();

/**
 * Answers a POST of one JSON-RPC message at once: 202 for a notification, the JSON answer with
 * its `content-type` and `content-length` (as Deno.serve sends them) for a request, and 405 for
 * any other method. An aborted signal rejects, as fetch does.
 */
export function instantFetch(
  _input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  if (init?.signal?.aborted) return Promise.reject(init.signal.reason);
  if (init?.method !== "POST" || typeof init.body !== "string") {
    return Promise.resolve(new Response(null, { status: 405 }));
  }
  const message = JSON.parse(init.body);
  if (message.id === undefined) return Promise.resolve(new Response(null, { status: 202 }));
  const bytes = encoder.encode(JSON.stringify(answer(message)));
  return Promise.resolve(
    new Response(bytes, {
      headers: { "content-type": "application/json", "content-length": String(bytes.length) },
    }),
  );
}
