/**
 * Testing MCP servers and hosts: recordings of sessions ({@link Recorder}) served back as fake
 * servers ({@link replayTransport}, {@link serveReplay}), re-sent to a live server to find drift
 * ({@link verifyRecording}), and a server's surface as a snapshot ({@link snapshotSurface}) with
 * a diff that marks breaking changes ({@link diffSurfaces}).
 *
 * @example A recorded server as a fake in `deno test`
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { parseRecording, replayTransport } from "@mcp-inspect/client/testing";
 *
 * Deno.test("my host lists the recorded tools", async () => {
 *   const recording = parseRecording(`
 * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}
 * {"t":1,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}}
 * {"t":2,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"my-server","version":"1.0.0"}}}}
 * {"t":3,"dir":"send","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}}
 * {"t":4,"dir":"recv","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}}`);
 *   await using client = await Client.connect(replayTransport(recording), { protocol: "legacy" });
 *   console.log((await client.listTools()).map((t) => t.name)); // ["echo"]
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
