/**
 * Helpers for testing MCP hosts and servers with `deno test`: a recording made with
 * `mcp-inspect --record` (or the library's {@link Recorder}) served back as a fake server, in
 * process or on stdio.
 *
 * @example A recorded server as a fake in a test
 * ```ts ignore
 * import { Client } from "jsr:@mcp-inspect/client";
 * import { parseRecording, replayTransport } from "jsr:@mcp-inspect/client/testing";
 *
 * Deno.test("my host lists the recorded tools", async () => {
 *   const recording = parseRecording(await Deno.readTextFile("testdata/session.jsonl"));
 *   await using client = await Client.connect(replayTransport(recording), { protocol: "legacy" });
 *   console.log((await client.listTools()).map((t) => t.name));
 * });
 * ```
 *
 * @module
 */

export {
  parseRecording,
  type RecordedMessage,
  Recorder,
  type RecorderOptions,
  type Recording,
  type RecordingHeader,
} from "../record/record.ts";
export {
  type ReplayHttpOptions,
  ReplayServer,
  replayTransport,
  serveReplay,
  serveReplayHttp,
} from "../record/replay.ts";
