/**
 * The MCP data types the client reads and writes: revisions, identities, capabilities, logging,
 * roots, negotiation and tasks here; tools, resources, prompts and completion in
 * `feature_types.ts`, re-exported here. Every type is open (`[key: string]: unknown`) so that
 * fields added by later revisions pass through untouched.
 *
 * @module
 */

/**
 * The revisions of the modern, stateless era (per-request `_meta`, `server/discover`).
 *
 * @example Listing the modern revisions
 * ```ts
 * import { MODERN_PROTOCOL_VERSIONS } from "@mcp-inspect/client";
 * console.log(MODERN_PROTOCOL_VERSIONS); // ["2026-07-28"]
 * ```
 */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];

/**
 * The revisions of the handshake era (`initialize`), newest first.
 *
 * @example The newest handshake-era revision
 * ```ts
 * import { LEGACY_PROTOCOL_VERSIONS } from "@mcp-inspect/client";
 * console.log(LEGACY_PROTOCOL_VERSIONS[0]); // "2025-11-25"
 * ```
 */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
];

/**
 * Every protocol revision this client speaks, newest first.
 *
 * @example The newest revision spoken
 * ```ts
 * import { SUPPORTED_PROTOCOL_VERSIONS } from "@mcp-inspect/client";
 * console.log(SUPPORTED_PROTOCOL_VERSIONS[0]); // "2026-07-28"
 * ```
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  ...MODERN_PROTOCOL_VERSIONS,
  ...LEGACY_PROTOCOL_VERSIONS,
];

/**
 * The newest revision: what `server/discover` asks for first.
 *
 * @example Reading the newest revision
 * ```ts
 * import { LATEST_PROTOCOL_VERSION } from "@mcp-inspect/client";
 * console.log(LATEST_PROTOCOL_VERSION); // "2026-07-28"
 * ```
 */
export const LATEST_PROTOCOL_VERSION: string = "2026-07-28";

/**
 * The newest handshake-era revision: what `initialize` offers.
 *
 * @example The revision an `initialize` request offers
 * ```ts
 * import { LATEST_LEGACY_PROTOCOL_VERSION } from "@mcp-inspect/client";
 * const params = { protocolVersion: LATEST_LEGACY_PROTOCOL_VERSION, capabilities: {} };
 * console.log(params.protocolVersion); // "2025-11-25"
 * ```
 */
export const LATEST_LEGACY_PROTOCOL_VERSION: string = "2025-11-25";

/**
 * The name and version of a client or server.
 *
 * @example Naming a client
 * ```ts
 * import type { Implementation } from "@mcp-inspect/client";
 * const info: Implementation = { name: "my-host", version: "1.0.0" };
 * ```
 */
export interface Implementation {
  /** Programmatic name. */
  name: string;
  /** Version string. */
  version: string;
  /** Display name. */
  title?: string;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * What a server can do, as it advertised in `initialize`.
 *
 * @example Subscribing only when the server supports it
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const uri = "mem://today";
 * const fake = new FakeServer({ resources: [{ uri, text: "Sunny" }] });
 * await using client = await Client.connect(fake.transport());
 * if (client.serverCapabilities.resources?.subscribe) await client.subscribeResource(uri);
 * console.log(client.serverCapabilities.resources); // {}: no subscriptions, so none was asked for
 * ```
 */
export interface ServerCapabilities {
  /** Offers tools. */
  tools?: { listChanged?: boolean; [key: string]: unknown };
  /** Offers resources. */
  resources?: { subscribe?: boolean; listChanged?: boolean; [key: string]: unknown };
  /** Offers prompts. */
  prompts?: { listChanged?: boolean; [key: string]: unknown };
  /** Sends log messages and accepts `logging/setLevel`. */
  logging?: Record<string, unknown>;
  /** Answers `completion/complete`. */
  completions?: Record<string, unknown>;
  /** Experimental, non-standard capabilities. */
  experimental?: Record<string, unknown>;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * What this client can do, as advertised in `initialize`.
 *
 * @example Declaring roots that can change
 * ```ts
 * import type { ClientCapabilities } from "@mcp-inspect/client";
 * const capabilities: ClientCapabilities = { roots: { listChanged: true } };
 * ```
 */
export interface ClientCapabilities {
  /** Answers `roots/list`. */
  roots?: { listChanged?: boolean };
  /** Answers `sampling/createMessage`. */
  sampling?: Record<string, unknown>;
  /** Answers `elicitation/create`. */
  elicitation?: { form?: Record<string, unknown>; url?: Record<string, unknown> };
  /** Experimental, non-standard capabilities. */
  experimental?: Record<string, unknown>;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

export * from "./feature_types.ts";

/**
 * Log severities, from RFC 5424, least severe first.
 *
 * @example Asking the server for warnings and worse
 * ```ts
 * import { Client, MemoryTransport } from "@mcp-inspect/client";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * const server = new McpServer({
 *   serverInfo: { name: "worker", version: "1.0.0" },
 *   capabilities: { logging: {} },
 *   handlers: {},
 * });
 * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
 * await client.setLoggingLevel("warning");
 * ```
 */
export type LoggingLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/**
 * A log message from the server (`notifications/message`).
 *
 * @example Printing the server's log messages
 * ```ts
 * import { Client, type LogMessage, MemoryTransport } from "@mcp-inspect/client";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * const server = new McpServer({
 *   serverInfo: { name: "worker", version: "1.0.0" },
 *   capabilities: { tools: {}, logging: {} },
 *   handlers: { "tools/call": (_, { log }) => (log({ level: "info", data: "hi" }), { content: [] }) },
 * });
 * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
 * client.on("log", (message: LogMessage) => console.error(message.level, message.data));
 * await client.setLoggingLevel("info");
 * await client.callTool("work"); // "info" "hi"
 * ```
 */
export interface LogMessage {
  /** Severity. */
  level: LoggingLevel;
  /** Which logger. */
  logger?: string;
  /** Any JSON value. */
  data: unknown;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * A root: a directory or file the server may work with.
 *
 * @example A project folder as a root
 * ```ts
 * import type { Root } from "@mcp-inspect/client";
 * const root: Root = { uri: "file:///home/ada/project", name: "project" };
 * ```
 */
export interface Root {
  /** A `file://` URI. */
  uri: string;
  /** A display name. */
  name?: string;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * Which protocol a client speaks: `"auto"` probes with `server/discover` and falls back to the
 * handshake; `"modern"` and `"legacy"` force an era; a revision string such as `"2025-06-18"`
 * pins it.
 *
 * @example Pinning one revision
 * ```ts
 * import type { ProtocolChoice } from "@mcp-inspect/client";
 * const choice: ProtocolChoice = "2025-06-18";
 * ```
 */
// deno-lint-ignore ban-types -- `string & {}` keeps the literal suggestions in editors
export type ProtocolChoice = "auto" | "modern" | "legacy" | (string & {});

/**
 * What a connection learned about a server's era. Feed it back to `Client.connect()` as
 * `discovery` to skip the probe next time.
 *
 * @example Skipping the probe on the next connection
 * ```ts
 * import { Client, type DiscoveryVerdict } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer();
 * await using client = await Client.connect(fake.transport(), { protocol: "legacy" });
 * const transport = fake.transport();
 * const verdict: DiscoveryVerdict = client.discovery;
 * await using again = await Client.connect(transport, { discovery: verdict });
 * console.log(again.era); // "legacy", without probing for the modern era first
 * ```
 */
export interface DiscoveryVerdict {
  /** The era the server speaks. */
  era: "modern" | "legacy";
  /** The revision that was used. */
  protocolVersion: string;
}

/**
 * The notifications a `subscriptions/listen` stream opts in to (revision 2026-07-28).
 *
 * @example Listening for tool changes and one resource
 * ```ts
 * import type { ListenFilter } from "@mcp-inspect/client";
 * const filter: ListenFilter = { toolsListChanged: true, resourceSubscriptions: ["file:///a"] };
 * ```
 */
export interface ListenFilter {
  /** `notifications/tools/list_changed`. */
  toolsListChanged?: boolean;
  /** `notifications/prompts/list_changed`. */
  promptsListChanged?: boolean;
  /** `notifications/resources/list_changed`. */
  resourcesListChanged?: boolean;
  /** `notifications/resources/updated` for these URIs. */
  resourceSubscriptions?: string[];
}

/**
 * The state of a task: a durable handle for a long-running request (the tasks of 2025-11-25 and
 * the `io.modelcontextprotocol/tasks` extension of 2026-07-28, normalized to one shape).
 *
 * @example Reading the state of a task
 * ```ts
 * import { Client, MemoryTransport, type TaskInfo } from "@mcp-inspect/client";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * const server = new McpServer({
 *   serverInfo: { name: "builder", version: "1.0.0" },
 *   capabilities: { tasks: {} },
 *   handlers: {
 *     "tasks/get": ({ taskId }) => ({ taskId, status: "working", statusMessage: "Linking" }),
 *   },
 * });
 * const transport = MemoryTransport.serving((end) => server.serve(end));
 * await using client = await Client.connect(transport, { protocol: "2025-11-25" });
 * const task: TaskInfo = await client.getTask("t1");
 * console.log(task.status, task.statusMessage); // "working" "Linking"
 * ```
 */
export interface TaskInfo {
  /** The server's id of the task. */
  taskId: string;
  /** Where the task is. `completed`, `failed` and `cancelled` are final. */
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  /** A human-readable word on the current state. */
  statusMessage?: string;
  /** When the task was created (ISO 8601). */
  createdAt?: string;
  /** When it last changed (ISO 8601). */
  lastUpdatedAt?: string;
  /** How long the server keeps it, in milliseconds; `null` for unlimited. */
  ttlMs?: number | null;
  /** How often the server suggests polling, in milliseconds. */
  pollIntervalMs?: number;
  /** The raw task object as the server sent it. */
  raw: Record<string, unknown>;
}
