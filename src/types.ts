/**
 * The MCP data types the client reads and writes. Every type is open (`[key: string]: unknown`)
 * so that fields added by later revisions pass through untouched.
 *
 * @module
 */

/**
 * The revisions of the modern, stateless era (per-request `_meta`, `server/discover`).
 *
 * @example
 * ```ts
 * import { MODERN_PROTOCOL_VERSIONS } from "@mcp-inspect/client";
 * console.log(MODERN_PROTOCOL_VERSIONS); // ["2026-07-28"]
 * ```
 */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];

/**
 * The revisions of the handshake era (`initialize`), newest first.
 *
 * @example
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
 * @example
 * ```ts
 * import { SUPPORTED_PROTOCOL_VERSIONS } from "@mcp-inspect/client";
 * console.log(SUPPORTED_PROTOCOL_VERSIONS[0]); // "2026-07-28"
 * ```
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  ...MODERN_PROTOCOL_VERSIONS,
  ...LEGACY_PROTOCOL_VERSIONS,
];

/** The newest revision: what `server/discover` asks for first. */
export const LATEST_PROTOCOL_VERSION: string = "2026-07-28";

/** The newest handshake-era revision: what `initialize` offers. */
export const LATEST_LEGACY_PROTOCOL_VERSION: string = "2025-11-25";

/**
 * The name and version of a client or server.
 *
 * @example
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
 * @example
 * ```ts ignore
 * if (client.serverCapabilities.resources?.subscribe) await client.subscribeResource(uri);
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
 * @example
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

/** A JSON Schema object, kept exactly as the server sent it. */
export type JsonSchema = Record<string, unknown>;

/**
 * Hints about a tool's behaviour. They are hints from the server, not guarantees.
 *
 * @example
 * ```ts ignore
 * if (tool.annotations?.destructiveHint) await confirm(`Run ${tool.name}?`);
 * ```
 */
export interface ToolAnnotations {
  /** Display name. */
  title?: string;
  /** Does not modify its environment. */
  readOnlyHint?: boolean;
  /** May perform destructive updates. */
  destructiveHint?: boolean;
  /** Calling again with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** Interacts with an open world of external entities. */
  openWorldHint?: boolean;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * A tool the server offers.
 *
 * @example
 * ```ts ignore
 * for (const tool of await client.listTools()) console.log(tool.name, tool.description);
 * ```
 */
export interface Tool {
  /** The name to call it by. */
  name: string;
  /** Display name. */
  title?: string;
  /** What it does. */
  description?: string;
  /** The JSON Schema of its arguments. */
  inputSchema: JsonSchema;
  /** The JSON Schema of its `structuredContent`, if it returns structured results. */
  outputSchema?: JsonSchema;
  /** Behaviour hints. */
  annotations?: ToolAnnotations;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * One piece of content in a tool result, prompt message or sampling message.
 *
 * @example
 * ```ts ignore
 * for (const item of result.content) if (item.type === "text") console.log(item.text);
 * ```
 */
export interface Content {
  /** `text`, `image`, `audio`, `resource_link` or `resource`. */
  type: string;
  /** The text of `text` content. */
  text?: string;
  /** Base64 data of `image` and `audio` content. */
  data?: string;
  /** The MIME type of `image` and `audio` content. */
  mimeType?: string;
  /** The URI of a `resource_link`. */
  uri?: string;
  /** The contents of an embedded `resource`. */
  resource?: ResourceContents;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * The result of `tools/call`.
 *
 * @example
 * ```ts ignore
 * const result = await client.callTool("add", { a: 1, b: 2 });
 * console.log(result.structuredContent ?? result.content);
 * ```
 */
export interface CallToolResult {
  /** Unstructured content. */
  content: Content[];
  /** Structured content, validated against the tool's `outputSchema` when it has one. */
  structuredContent?: unknown;
  /** The tool failed; `content` says why. */
  isError?: boolean;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * A resource the server offers.
 *
 * @example
 * ```ts ignore
 * for (const resource of await client.listResources()) console.log(resource.uri);
 * ```
 */
export interface Resource {
  /** Its URI. */
  uri: string;
  /** Programmatic name. */
  name: string;
  /** Display name. */
  title?: string;
  /** What it is. */
  description?: string;
  /** Its MIME type. */
  mimeType?: string;
  /** Size in bytes, if known. */
  size?: number;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * A family of resources, addressed by an RFC 6570 URI template.
 *
 * @example
 * ```ts ignore
 * for (const template of await client.listResourceTemplates()) console.log(template.uriTemplate);
 * ```
 */
export interface ResourceTemplate {
  /** The URI template. */
  uriTemplate: string;
  /** Programmatic name. */
  name: string;
  /** Display name. */
  title?: string;
  /** What it is. */
  description?: string;
  /** The MIME type of matching resources. */
  mimeType?: string;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * The contents of a resource: `text` or base64 `blob`.
 *
 * @example
 * ```ts ignore
 * const { contents } = await client.readResource("file:///etc/hosts");
 * console.log(contents[0]?.text);
 * ```
 */
export interface ResourceContents {
  /** The resource's URI. */
  uri: string;
  /** Its MIME type. */
  mimeType?: string;
  /** Text contents. */
  text?: string;
  /** Base64 binary contents. */
  blob?: string;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * The result of `resources/read`.
 *
 * @example
 * ```ts ignore
 * const result: ReadResourceResult = await client.readResource("fake://docs/readme");
 * ```
 */
export interface ReadResourceResult {
  /** One or more contents. */
  contents: ResourceContents[];
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * A prompt template the server offers.
 *
 * @example
 * ```ts ignore
 * for (const prompt of await client.listPrompts()) console.log(prompt.name, prompt.arguments);
 * ```
 */
export interface Prompt {
  /** The name to get it by. */
  name: string;
  /** Display name. */
  title?: string;
  /** What it is for. */
  description?: string;
  /** Its arguments. */
  arguments?: { name: string; description?: string; required?: boolean; [key: string]: unknown }[];
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * The result of `prompts/get`.
 *
 * @example
 * ```ts ignore
 * const { messages } = await client.getPrompt("greet", { name: "Ada" });
 * ```
 */
export interface GetPromptResult {
  /** A description of the rendered prompt. */
  description?: string;
  /** The messages. */
  messages: { role: "user" | "assistant"; content: Content }[];
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * What `complete()` completes: a prompt argument or a resource template variable.
 *
 * @example
 * ```ts
 * import type { CompletionReference } from "@mcp-inspect/client";
 * const ref: CompletionReference = { type: "ref/prompt", name: "greet" };
 * ```
 */
export type CompletionReference =
  | { type: "ref/prompt"; name: string }
  | { type: "ref/resource"; uri: string };

/**
 * The result of `completion/complete`.
 *
 * @example
 * ```ts ignore
 * const { completion } = await client.complete({ type: "ref/prompt", name: "greet" }, { name: "style", value: "f" });
 * ```
 */
export interface CompleteResult {
  /** The suggestions. */
  completion: { values: string[]; total?: number; hasMore?: boolean; [key: string]: unknown };
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * Log severities, from RFC 5424, least severe first.
 *
 * @example
 * ```ts ignore
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
 * @example
 * ```ts ignore
 * client.on("log", (message: LogMessage) => console.error(message.level, message.data));
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
 * @example
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
 * @example
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
 * @example
 * ```ts ignore
 * const verdict: DiscoveryVerdict = client.discovery;
 * await Client.connect(transport, { discovery: verdict });
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
 * @example
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
 * @example
 * ```ts ignore
 * const task: TaskInfo = await client.getTask("t1");
 * console.log(task.status, task.statusMessage);
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
