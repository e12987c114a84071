// Reaching the servers built on the official SDK v2 (testdata/servers/sdk_*.ts) over stdio and
// HTTP in every era they offer, and the lookups in what the client sent, for interop_sdk_*_test.ts.

import {
  type CallToolResult,
  type ClientOptions,
  HttpTransport,
  type JsonRpcMessage,
  StdioTransport,
  type StdioTransportOptions,
  StreamableHttpTransport,
  type Transport,
} from "../../mod.ts";
import { type SdkHttpServer, serveSdk } from "../../testdata/http/sdk_http.ts";
import { type CheckedClient, connectChecked, fixture } from "../_helpers.ts";
import { denoEnv } from "../_npm_servers.ts";

const CONFIG = new URL("../deno.json", import.meta.url).pathname;
export const SERVER_INFO: { name: string; version: string } = {
  name: "sdk-server",
  version: "2.4.0",
};
export const INSTRUCTIONS: string = "A test server built on the official SDK.";
export const TOOLS: string[] = "add confirm count echo lookup mislabeled summarize unlock".split(
  " ",
);

/** Runs an SDK server script with this Deno and the import map and lockfile of the tests. */
export function sdkStdio(file: "sdk_modern.ts" | "sdk_dual.ts"): StdioTransportOptions {
  return {
    command: Deno.execPath(),
    args: ["run", "--allow-all", "--quiet", "--config", CONFIG, fixture(file)],
    name: file,
    env: denoEnv(),
  };
}

/** A client connected to an SDK server over HTTP; disposing it stops the server too. */
export interface HttpFixture extends CheckedClient {
  server: SdkHttpServer;
}

/** Serves the SDK server over HTTP and connects to it with `transport`. */
export async function connectHttp(
  legacy: "reject" | "stateless",
  transport: (url: string) => Transport,
  options: ClientOptions,
): Promise<HttpFixture> {
  const server = serveSdk(legacy);
  let fx: CheckedClient;
  try {
    fx = await connectChecked(transport(server.url), options);
  } catch (error) {
    await server[Symbol.asyncDispose]();
    throw error;
  }
  return {
    client: fx.client,
    transport: fx.transport,
    server,
    async [Symbol.asyncDispose]() {
      try {
        await fx[Symbol.asyncDispose]();
      } finally {
        await server[Symbol.asyncDispose]();
      }
    },
  };
}

/** One way of reaching the SDK server. */
export interface Target {
  label: string;
  era: "modern" | "legacy";
  /** Stateless legacy HTTP serves each request with a fresh instance that keeps nothing. */
  stateless: boolean;
  connect(options?: ClientOptions): Promise<CheckedClient>;
}

/** Every way of reaching the SDK server, each in the era it lands on. */
export const TARGETS: Target[] = [
  {
    label: "SDK v2 modern-only server over stdio, auto",
    era: "modern",
    stateless: false,
    connect: (options = {}) =>
      connectChecked(new StdioTransport(sdkStdio("sdk_modern.ts")), options),
  },
  {
    label: "SDK v2 dual-era server over stdio, auto",
    era: "modern",
    stateless: false,
    connect: (options = {}) => connectChecked(new StdioTransport(sdkStdio("sdk_dual.ts")), options),
  },
  {
    label: "SDK v2 dual-era server over stdio, protocol legacy",
    era: "legacy",
    stateless: false,
    connect: (options = {}) =>
      connectChecked(new StdioTransport(sdkStdio("sdk_dual.ts")), {
        ...options,
        protocol: "legacy",
      }),
  },
  {
    label: "SDK v2 modern-only server over Streamable HTTP, auto",
    era: "modern",
    stateless: false,
    connect: (options = {}) =>
      connectHttp("reject", (url) => new StreamableHttpTransport({ url }), options),
  },
  {
    label: "SDK v2 dual-era server over HTTP (detected), auto",
    era: "modern",
    stateless: false,
    connect: (options = {}) =>
      connectHttp("stateless", (url) => new HttpTransport({ url }), options),
  },
  {
    label: "SDK v2 dual-era server over Streamable HTTP, protocol legacy",
    era: "legacy",
    stateless: true,
    connect: (options = {}) =>
      connectHttp("stateless", (url) => new StreamableHttpTransport({ url }), {
        ...options,
        protocol: "legacy",
      }),
  },
];

/** Resolves after `ms`. */
export const delay = (ms: number): Promise<unknown> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** The text items of a tool result, one a line. */
export function textOf(result: CallToolResult): string {
  return result.content.map((item) => item.type === "text" ? item.text ?? "" : "").join("\n");
}

/** The methods of the requests and notifications the client sent, in order. */
export function methods(sent: readonly JsonRpcMessage[]): string[] {
  return sent.flatMap((m) => "method" in m ? [m.method] : []);
}

/** The params of every request of one method the client sent. */
export function sentParams(
  sent: readonly JsonRpcMessage[],
  method: string,
): Record<string, unknown>[] {
  return sent.flatMap((m) => "method" in m && m.method === method ? [m.params ?? {}] : []);
}

/** Resolves on the next `toolsListChanged`, or rejects after `ms`; leaves no timer behind. */
export function nextToolsListChanged(fx: CheckedClient, ms = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`No toolsListChanged within ${ms} ms`));
    }, ms);
    const off = fx.client.on("toolsListChanged", () => {
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}
