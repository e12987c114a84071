/**
 * The public types of the {@link Client}: its options, the options of its calls, its events, and
 * the raw pages of list results.
 *
 * @module
 */

import type { Diagnostic } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { RequestOptions } from "../session.ts";
import type {
  ClientCapabilities,
  DiscoveryVerdict,
  Implementation,
  LogMessage,
  ProtocolChoice,
  Root,
  TaskInfo,
} from "../types.ts";
import type { ElicitationHandler, SamplingHandler } from "./handlers.ts";

/**
 * Options of {@link Client.connect}.
 *
 * @example A client that answers roots and elicitation
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const transport = new FakeServer().transport();
 * await using client = await Client.connect(transport, {
 *   clientInfo: { name: "my-host", version: "1.0.0" },
 *   roots: [{ uri: "file:///work", name: "work" }],
 *   onElicitation: () => ({ action: "decline" }),
 * });
 * ```
 */
export interface ClientOptions {
  /** How the client introduces itself (default `mcp-inspect` and its version). */
  clientInfo?: Implementation;
  /** Capabilities to advertise beyond those the handlers imply (e.g. `experimental`). */
  capabilities?: ClientCapabilities;
  /** Default per-request timeout in milliseconds (60 s). */
  requestTimeoutMs?: number | undefined;
  /** Default maximum total time of a request, whatever progress arrives (10 minutes). */
  maxTotalTimeoutMs?: number;
  /** Most pages a list call walks before failing (64). */
  maxPages?: number;
  /** Check tool arguments against `inputSchema` before sending (off by default). */
  validateArguments?: boolean;
  /** Check `structuredContent` against `outputSchema` (on by default). */
  validateOutput?: boolean;
  /** Roots to offer, or a function returning them; advertises the `roots` capability. */
  roots?: readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>) | undefined;
  /** Answers `sampling/createMessage`; advertises the `sampling` capability. */
  onSampling?: SamplingHandler;
  /** Answers `elicitation/create`; advertises the `elicitation` capability. */
  onElicitation?: ElicitationHandler;
  /** Elicitation modes the handler supports (default `["form"]`). */
  elicitationModes?: readonly ("form" | "url")[];
  /** Receives non-fatal oddities. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /**
   * Event listeners installed before the handshake, so that nothing the server sends early
   * (a log line, a list change) is missed. Later ones can be added with {@link Client.on}.
   */
  listeners?: { [K in keyof ClientEvents]?: (payload: ClientEvents[K]) => void };
  /** Aborts the handshake. */
  signal?: AbortSignal;
  /** A name for the server in error messages (default: its `serverInfo.name`). */
  name?: string;
  /**
   * Which protocol to speak: `"auto"` (default) probes with `server/discover` and falls back to
   * the `initialize` handshake for older servers; `"modern"` or `"legacy"` forces an era; a
   * revision such as `"2025-06-18"` pins it.
   */
  protocol?: ProtocolChoice;
  /**
   * A verdict from an earlier connection ({@link Client.discovery}): a legacy one skips the
   * `server/discover` probe, a modern one starts discovery at the revision found.
   */
  discovery?: DiscoveryVerdict;
  /** How long the `server/discover` probe waits before taking silence as "legacy" (5 s). */
  probeTimeoutMs?: number;
  /** Most rounds of a multi round-trip request before giving up (10). */
  maxInputRounds?: number;
  /**
   * In the modern era, open a `subscriptions/listen` stream for the list changes the server
   * advertises (default true), so the same events arrive as in the legacy era.
   */
  listen?: boolean;
  /**
   * Accept tasks in the modern era: declares the `io.modelcontextprotocol/tasks` extension, so a
   * server may answer a long call with a task, which `callTool()` then waits for (default false).
   */
  tasks?: boolean;
}

/**
 * Options of {@link Client.waitForTask}.
 *
 * @example Logging each state of a task while waiting
 * ```ts
 * import { Client, MemoryTransport } from "@mcp-inspect/client";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * let polls = 0;
 * const server = new McpServer({
 *   serverInfo: { name: "builder", version: "1.0.0" },
 *   capabilities: { tasks: {} },
 *   handlers: {
 *     "tasks/get": () => ({ taskId: "t1", status: polls++ ? "completed" : "working" }),
 *     "tasks/result": () => ({ content: [] }),
 *   },
 * });
 * const transport = MemoryTransport.serving((end) => server.serve(end));
 * await using client = await Client.connect(transport, { protocol: "2025-11-25" });
 * await client.waitForTask("t1", { onTaskStatus: (task) => console.error(task.status) });
 * // "working", then "completed"
 * ```
 */
export interface TaskWaitOptions extends RequestOptions {
  /** Receives each state of the task. */
  onTaskStatus?: (task: TaskInfo) => void;
}

/**
 * Options of {@link Client.callTool}.
 *
 * @example Running a long tool as a task
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * // A tool that may run as a task (2025-11-25)
 * const build = { name: "build", execution: { taskSupport: "optional" }, handler: () => "built" };
 * const fake = new FakeServer({ tools: [build] });
 * await using client = await Client.connect(fake.transport(), { protocol: "2025-11-25" });
 * const result = await client.callTool("build", {}, {
 *   task: { ttlMs: 600_000 },
 *   onTaskStatus: (task) => console.error(task.status), // "working", then "completed"
 * });
 * console.log(result.content); // [{ type: "text", text: "built" }]
 * ```
 */
export interface CallToolOptions extends RequestOptions {
  /**
   * Ask for task execution (2025-11-25 task augmentation, with an optional retention time). Tools
   * whose `execution.taskSupport` is `"required"` always run as tasks. In the modern era the
   * server decides, when the client was connected with `tasks: true`.
   */
  task?: boolean | { ttlMs?: number };
  /** Receives each state of the task while `callTool()` waits for it. */
  onTaskStatus?: (task: TaskInfo) => void;
}

/**
 * The events a {@link Client} emits.
 *
 * @example Refreshing on list changes and printing log messages
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using client = await Client.connect(fake.transport());
 * const refresh = () => client.listTools({ bypassCache: true });
 * client.on("toolsListChanged", () => refresh());
 * client.on("log", (message) => console.error(`[${message.level}]`, message.data));
 * ```
 */
export interface ClientEvents {
  /** The server's tool list changed. */
  toolsListChanged: undefined;
  /** The server's prompt list changed. */
  promptsListChanged: undefined;
  /** The server's resource list changed. */
  resourcesListChanged: undefined;
  /** A subscribed resource changed. */
  resourceUpdated: { uri: string };
  /** The server logged a message. */
  log: LogMessage;
  /** The connection ended, with the reason. */
  close: Error;
}

/**
 * Options of requests whose results may be cached (lists and `readResource`).
 *
 * @example Asking past a fresh cached list
 * ```ts
 * import { Client, MemoryTransport } from "@mcp-inspect/client";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * let asked = 0;
 * const server = new McpServer({
 *   serverInfo: { name: "tools", version: "1.0.0" },
 *   capabilities: { tools: {} },
 *   handlers: { "tools/list": () => { asked++; return { tools: [], ttlMs: 60_000 }; } },
 * });
 * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
 * await client.listTools(); // fresh for a minute
 * const fresh = await client.listTools({ bypassCache: true });
 * console.log(fresh, asked); // [] 2: asked again, though the cached list was fresh
 * ```
 */
export interface CacheOptions extends RequestOptions {
  /** Ask the server even when a fresh cached result exists. */
  bypassCache?: boolean;
}

/**
 * Options of list calls that walk every page.
 *
 * @example Walking at most eight pages, past the cache
 * ```ts
 * import { Client, type ListOptions } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ prompts: [{ name: "greet", text: "Hello" }] });
 * await using client = await Client.connect(fake.transport());
 * const options: ListOptions = { maxPages: 8, bypassCache: true, timeoutMs: 5_000 };
 * console.log((await client.listPrompts(options)).map((p) => p.name)); // ["greet"]
 * ```
 */
export interface ListOptions extends CacheOptions {
  /** Most pages to walk (the client's `maxPages`, default 64). */
  maxPages?: number;
}

/**
 * Options of list calls that fetch exactly one page.
 *
 * @example Fetching the pages one by one
 * ```ts
 * import { Client, type PageOptions, type Tool } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using client = await Client.connect(fake.transport());
 * const tools: Tool[] = [];
 * const options: PageOptions = { cursor: undefined };
 * do {
 *   const page = await client.listTools(options);
 *   tools.push(...page.items);
 *   options.cursor = page.nextCursor;
 * } while (options.cursor !== undefined);
 * console.log(tools.map((t) => t.name)); // ["echo"]
 * ```
 */
export interface PageOptions extends CacheOptions {
  /** The cursor of the page; `undefined` for the first page. */
  cursor: string | undefined;
}

/**
 * One raw page of a list result.
 *
 * @example Reading the first page of tools
 * ```ts
 * import { Client, type ListPage, type Tool } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using client = await Client.connect(fake.transport());
 * const page: ListPage<Tool> = await client.listTools({ cursor: undefined });
 * console.log(page.items.length, page.nextCursor); // 1 undefined
 * ```
 */
export interface ListPage<T> {
  /** The page's items. */
  items: T[];
  /** The cursor of the next page, if there is one. */
  nextCursor?: string;
  /** The raw result, with any other fields the server sent. */
  result: JsonObject;
}
