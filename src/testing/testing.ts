/**
 * Testing MCP servers and hosts: recordings of sessions ({@link Recorder}) served back as fake
 * servers ({@link replayTransport}, {@link serveReplay}), re-sent to a live server to find drift
 * ({@link verifyRecording}), and a server's surface as a snapshot ({@link snapshotSurface}) with
 * a diff that marks breaking changes ({@link diffSurfaces}).
 *
 * @example A recorded server as a fake in `deno test`
 * ```ts ignore
 * import { Client } from "@mcp-inspect/client";
 * import { parseRecording, replayTransport } from "@mcp-inspect/client/testing";
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
export {
  type VerifyMismatch,
  type VerifyOptions,
  verifyRecording,
  type VerifyResult,
} from "../record/verify.ts";
export {
  diffSurfaces,
  parseSurface,
  snapshotSurface,
  type Surface,
  SURFACE_FORMAT,
  type SurfaceChange,
  surfaceFromRecording,
  surfaceJson,
} from "../surface/surface.ts";
export {
  type FakeMisbehaviour,
  type FakePrompt,
  type FakeResource,
  FakeServer,
  type FakeServerOptions,
  type FakeTool,
} from "./fake.ts";
