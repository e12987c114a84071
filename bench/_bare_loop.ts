// The bare loop that speaks JSON lines to a stdio server with no client at all: the limit clients
// are measured against.

import { LineReader } from "./_line_reader.ts";
import type { Runner, ServerCommand } from "./_runner.ts";

/**
 * The bare loop: no client, no session, no id map. It still does the work any client must do
 * per call (stringify and encode the request, decode and parse the response), so the gap to it
 * is client overhead rather than JSON.
 */
export async function bareLoop(server: ServerCommand): Promise<Runner> {
  const { command, args } = server;
  const child = new Deno.Command(command, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = new LineReader(child.stdout, "Bare loop");
  const encoder = new TextEncoder();
  let nextId = 1;
  const send = (method: string, params: Record<string, unknown>, id?: number): Promise<void> => {
    const message = id === undefined
      ? { jsonrpc: "2.0", method, params }
      : { jsonrpc: "2.0", id, method, params };
    return writer.write(encoder.encode(`${JSON.stringify(message)}\n`));
  };
  const receive = async (): Promise<void> => {
    const message = JSON.parse(await lines.next()) as { id?: unknown; result?: unknown };
    if (typeof message.id !== "number" || message.result === undefined) {
      throw new Error(`Bare loop: unexpected message ${JSON.stringify(message)}`);
    }
  };
  const call = (): Promise<void> =>
    send("tools/call", { name: "echo", arguments: { text: "hi" } }, nextId++);

  await send("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "bare-loop", version: "0.0.0" },
  }, nextId++);
  await receive();
  await send("notifications/initialized", {});

  return {
    async sequential(calls: number): Promise<void> {
      for (let i = 0; i < calls; i++) {
        // The answer is read while the write completes: nothing waits for the write by itself.
        const written = call();
        await receive();
        await written;
      }
    },
    async concurrent(calls: number): Promise<void> {
      // Read while writing: otherwise the server blocks on a full stdout pipe, stops reading
      // stdin, and our writes block in turn.
      const reading = (async () => {
        for (let i = 0; i < calls; i++) await receive();
      })();
      const writes: Promise<void>[] = new Array(calls);
      for (let i = 0; i < calls; i++) writes[i] = call();
      await Promise.all(writes);
      await reading;
    },
    async close(): Promise<void> {
      await writer.close().catch(() => {});
      const status = await child.status;
      await lines.cancel();
      if (!status.success) throw new Error(`Bare loop: server exited with ${status.code}`);
    },
  };
}
