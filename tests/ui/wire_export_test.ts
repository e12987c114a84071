// The page's wire export is a recording: it stamps each message's `t` as `--record` does, so an
// export replays and diffs like a recorded file rather than with its own, coarser clock.

import assert from "node:assert/strict";
import { Client, MemoryTransport } from "../../mod.ts";
import { MemoryTokenStore } from "../../src/auth/mod.ts";
import { McpServer } from "../../src/server/mod.ts";
import { parseRecording, type RecordedMessage, Recorder } from "../../src/record/record.ts";
import { Hub } from "../../src/ui/_hub.ts";
import { fixture } from "../_helpers.ts";

const EVERYTHING = {
  command: Deno.execPath(),
  args: ["run", "--allow-all", fixture("everything.ts")],
};

/**
 * Asserts the recorder's precision: every `t` is a whole number of microseconds, and (with
 * several messages, each a whole millisecond once in a thousand) some are not whole milliseconds.
 */
function assertMicroseconds(messages: readonly RecordedMessage[]): void {
  assert.ok(messages.length >= 4, `only ${messages.length} messages`);
  for (const { t } of messages) assert.equal(t, Math.round(t * 1000) / 1000, `t = ${t}`);
  assert.ok(
    messages.some(({ t }) => !Number.isInteger(t)),
    `every t is whole milliseconds: ${messages.map(({ t }) => t).join(", ")}`,
  );
}

/** Resolves once the hub reports the server connected. */
function connected(hub: Hub, name: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = hub.subscribe((event) => {
      if (
        event.type === "servers" &&
        event.servers.some((s) => s.name === name && s.status === "connected")
      ) {
        stop();
        resolve();
      }
    });
  });
}

Deno.test("ui: an exported wire entry's t has the recorder's precision, not whole milliseconds", async () => {
  await using hub = new Hub({ store: new MemoryTokenStore() });
  const ready = connected(hub, "everything");
  hub.add("everything", EVERYTHING);
  await ready;
  for (let i = 0; i < 3; i++) await hub.client("everything").ping();
  const exported = parseRecording(hub.recording("everything"));
  assertMicroseconds(exported.messages);

  // The same check holds for what --record writes, so the two files time alike.
  const file = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const server = new McpServer({
      serverInfo: { name: "pong", version: "1.0.0" },
      capabilities: {},
      handlers: {},
    });
    {
      await using recorder = await Recorder.open(file, { server: "pong" });
      const transport = recorder.wrap(MemoryTransport.serving((end) => server.serve(end)));
      await using client = await Client.connect(transport, { protocol: "legacy" });
      recorder.ready(client);
      for (let i = 0; i < 3; i++) await client.ping();
    }
    assertMicroseconds(parseRecording(await Deno.readTextFile(file)).messages);
  } finally {
    await Deno.remove(file);
  }
});
