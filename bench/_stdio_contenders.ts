// The contenders of bench/stdio.ts and the servers they run against: the bare JSON-lines loop (the
// limit) and that loop again (how far apart identical code measures), this client, its layers
// (the transport alone and the session alone, which show where its time goes), and the official
// SDK v1 and v2 clients; the Deno fast fixture, which joins its answers to one stdin chunk into
// one write, and a Node server writing each answer on its own. Each contender runs in a process
// of its own, started by bench/stdio.ts.

import { Client as SdkV1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as SdkV1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as SdkV2Client } from "@modelcontextprotocol/client";
import { StdioClientTransport as SdkV2StdioTransport } from "@modelcontextprotocol/client/stdio";
import {
  Client,
  type JsonObject,
  type JsonRpcMessage,
  type RequestId,
  StdioTransport,
} from "../mod.ts";
import { EventEmitter } from "node:events";
import { bareLoop } from "./_bare_loop.ts";
import {
  callRunner,
  type Contender,
  type Runner,
  type ServerCommand,
  serverCommand,
} from "./_runner.ts";

/**
 * The SDKs' stdio transports wait for `drain` once per write that meets backpressure, so a burst
 * of thousands of calls puts more than Node's default of 10 such listeners on the child's stdin,
 * and Node warns of a leak that is not one. Raised in the SDK contenders' own processes only.
 */
function quietDrainListeners(): void {
  EventEmitter.defaultMaxListeners = Infinity;
}

const FAST = decodeURIComponent(new URL("../testdata/servers/fast.ts", import.meta.url).pathname);
const ONE_WRITE = decodeURIComponent(
  new URL("../testdata/servers/one_write.mjs", import.meta.url).pathname,
);
const CLIENT_INFO = { name: "bench", version: "0.0.0" };

/** The servers every contender runs against, in turn. */
export const SERVERS: readonly (ServerCommand & { name: string; key: string })[] = [
  { name: "fast.ts (Deno, one write per stdin chunk)", key: "fast", ...serverCommand(FAST) },
  // What real servers do: the official SDK's stdio server writes each message on its own.
  {
    name: "one_write.mjs (Node, one write per message)",
    key: "one-write",
    command: "node",
    args: [ONE_WRITE],
  },
];

export const BARE = "bare loop";
/** The bare loop again, in a process of its own: how far apart identical code measures. */
export const BARE_AGAIN = "bare loop again";
export const OURS = "mcp-inspect";
export const SESSION_ONLY = "mcp-inspect request()";
export const TRANSPORT_ONLY = "StdioTransport alone";
/**
 * Rows that are no contenders of their own: the bare loop again (what the harness can resolve)
 * and the layers of this client (where its time goes).
 */
export const LAYERS = [BARE_AGAIN, SESSION_ONLY, TRANSPORT_ONLY];

/**
 * This client's transport under the least a caller must add: an id per request and a map from id
 * to the waiting caller; no session, timeouts, cancellation or checks. Against the bare loop, it
 * shows what the transport costs; against `request()`, what the session costs.
 */
async function transportAlone(server: ServerCommand): Promise<Runner> {
  const transport = new StdioTransport(server);
  await transport.start();
  const waiting = new Map<RequestId, (message: JsonRpcMessage) => void>();
  transport.onMessage = (message) => {
    if ("method" in message || message.id === null || message.id === undefined) return;
    const answered = waiting.get(message.id);
    waiting.delete(message.id);
    answered?.(message);
  };
  // The readable stream only carries the end of the connection once onMessage is set.
  const reader = transport.readable.getReader();
  const ended = (async () => {
    while (!(await reader.read()).done);
  })().catch(() => {});
  let nextId = 1;
  const request = (method: string, params: JsonObject): Promise<void> => {
    const id = nextId++;
    const answer = new Promise<void>((resolve, reject) => {
      waiting.set(id, (message) => {
        if ("result" in message) resolve();
        else reject(new Error(`${TRANSPORT_ONLY}: ${JSON.stringify(message)}`));
      });
    });
    transport.send({ jsonrpc: "2.0", id, method, params }).catch(() => {});
    return answer;
  };
  await request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: CLIENT_INFO,
  });
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return callRunner(
    () => request("tools/call", { name: "echo", arguments: { text: "hi" } }),
    async () => {
      await transport.close();
      await ended;
    },
  );
}

export const CONTENDERS: readonly Contender[] = [
  { name: BARE, connect: (server) => bareLoop(server) },
  { name: BARE_AGAIN, connect: (server) => bareLoop(server) },
  {
    name: OURS,
    async connect(server): Promise<Runner> {
      const client = await Client.connect(new StdioTransport(server), {
        clientInfo: CLIENT_INFO,
      });
      return callRunner(() => client.callTool("echo", { text: "hi" }), () => client.close());
    },
  },
  { name: TRANSPORT_ONLY, connect: transportAlone },
  {
    // Where this client's time goes: the same call through the session alone, without the
    // tools/call layer (result shape check, output schema lookup, task detection).
    name: SESSION_ONLY,
    async connect(server): Promise<Runner> {
      const client = await Client.connect(new StdioTransport(server), {
        clientInfo: CLIENT_INFO,
      });
      return callRunner(
        () => client.request("tools/call", { name: "echo", arguments: { text: "hi" } }),
        () => client.close(),
      );
    },
  },
  {
    name: "sdk v1 1.32.2",
    async connect(server): Promise<Runner> {
      quietDrainListeners();
      const client = new SdkV1Client(CLIENT_INFO);
      await client.connect(new SdkV1StdioTransport(server));
      return callRunner(
        () => client.callTool({ name: "echo", arguments: { text: "hi" } }),
        () => client.close(),
      );
    },
  },
  {
    name: "sdk v2 2.4.0",
    async connect(server): Promise<Runner> {
      quietDrainListeners();
      const client = new SdkV2Client(CLIENT_INFO);
      await client.connect(new SdkV2StdioTransport(server));
      return callRunner(
        () => client.callTool({ name: "echo", arguments: { text: "hi" } }),
        () => client.close(),
      );
    },
  },
];
