// A minimal, fast Streamable HTTP MCP server for the benchmark, in its own process so that it
// does not share an event loop with the clients. Stateless and dual-era: it answers initialize
// and server/discover alike. FAST_HTTP_MODE=sse answers with SSE streams instead of JSON.
// Prints its port on stdout once listening. Raw JSON-RPC: it shares no code with the client; its
// answers are in fast_answers.ts.

import { answer } from "./fast_answers.ts";

const sse = Deno.env.get("FAST_HTTP_MODE") === "sse";

Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(port),
}, async (req) => {
  if (req.method !== "POST") {
    await req.body?.cancel();
    return new Response(null, { status: 405 });
  }
  const message = await req.json();
  if (message.id === undefined) return new Response(null, { status: 202 });
  const body = JSON.stringify(answer(message));
  return sse
    ? new Response(`event: message\ndata: ${body}\n\n`, {
      headers: { "content-type": "text/event-stream" },
    })
    : new Response(body, { headers: { "content-type": "application/json" } });
});
