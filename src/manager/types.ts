/**
 * The public types of the {@link ServerManager}: its options, events, and what it reports.
 *
 * @module
 */

import type { ClientOptions } from "../client/client.ts";
import type {
  ElicitationRequest,
  ElicitationResult,
  HandlerContext,
  SamplingRequest,
  SamplingResult,
} from "../client/handlers.ts";
import type {
  ConfigError,
  ConfigWarning,
  LoadConfigOptions,
  ServerConfig,
} from "../config/config.ts";
import type { Diagnostic } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { RequestOptions } from "../session.ts";
import type { StatsOptions } from "../stats/stats.ts";
import type { SkillEntry } from "../skills/skills.ts";
import type { Transport } from "../transport/transport.ts";
import type {
  Implementation,
  LogMessage,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from "../types.ts";

/**
 * A server's state: `connecting`, `ready`, `failed` (reconnecting with backoff), `disabled`
 * (toggled off; its connection may stay open), `idle` (stopped after its idle timeout; restarts
 * on the next call) or `closed` (removed, or the manager closed).
 *
 * @example Telling whether a server can take a call
 * ```ts
 * import type { ServerState } from "@mcp-inspect/client/manager";
 * const usable = (state: ServerState) => state === "ready" || state === "idle";
 * ```
 */
export type ServerState = "connecting" | "ready" | "failed" | "disabled" | "idle" | "closed";

/**
 * What {@link ServerManager.servers} tells about one server.
 *
 * @example Printing each server's state and last error
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * const createTransport = (name: string) => {
 *   if (name === "broken") throw new Error("no such command");
 *   return fake.transport();
 * };
 * await using manager = new ServerManager({ createTransport });
 * await manager.setServers({ demo: { command: "demo" }, broken: { command: "broken" } });
 * for (const s of manager.servers()) console.log(s.name, s.state, s.lastError?.message);
 * // "demo" "ready" undefined
 * // "broken" "failed" "no such command"
 * ```
 */
export interface ServerStatus {
  /** The server's name in the config. */
  name: string;
  /** Its state. */
  state: ServerState;
  /** Its config. */
  config: ServerConfig;
  /** `"modern"` or `"legacy"`, once connected. */
  era?: "modern" | "legacy";
  /** The negotiated protocol revision, once connected. */
  protocolVersion?: string;
  /** What the server says it is. */
  serverInfo?: Implementation;
  /** The process id of a running stdio server. */
  pid?: number;
  /** The last error: a failed start, a lost connection, a failed liveness check. */
  lastError?: Error;
  /** When the current connection was made (ms since the epoch). */
  connectedAt?: number;
  /** How long the last successful connection took, in ms. */
  connectMs?: number;
  /** When the last call started (ms since the epoch). */
  lastCallAt?: number;
  /** How many times it reconnected after a first success. */
  reconnects: number;
  /** How many tools it offers, before allow and deny lists. */
  toolCount: number;
}

/**
 * A tool in the registry.
 *
 * @example Looking up a tool's server and input schema
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "read_file" }] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * await manager.connect("files", { command: "files" });
 * const entry = manager.findTool("mcp__files__read_file");
 * console.log(entry?.server, entry?.tool.inputSchema); // "files" { type: "object" }
 * ```
 */
export interface ManagedTool {
  /** The server offering it. */
  server: string;
  /** The name to call it by through the manager: `mcp__<server>__<tool>`. */
  qualifiedName: string;
  /** The tool as the server lists it. */
  tool: Tool;
}

/**
 * A prompt in the registry.
 *
 * @example Printing every prompt with its description
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const greet = { name: "greet", description: "Says hello", text: "Hi" };
 * const fake = new FakeServer({ prompts: [greet] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * await manager.connect("demo", { command: "demo" });
 * for (const { qualifiedName, prompt } of manager.allPrompts()) console.log(qualifiedName, prompt.description);
 * // "mcp__demo__greet" "Says hello"
 * ```
 */
export interface ManagedPrompt {
  /** The server offering it. */
  server: string;
  /** `mcp__<server>__<prompt>`. */
  qualifiedName: string;
  /** The prompt as the server lists it. */
  prompt: Prompt;
}

/**
 * A resource in the registry.
 *
 * @example Printing every resource with its server
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ resources: [{ uri: "mem://notes", text: "Buy milk" }] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * await manager.connect("demo", { command: "demo" });
 * for (const { server, resource } of manager.allResources()) console.log(server, resource.uri);
 * // "demo" "mem://notes"
 * ```
 */
export interface ManagedResource {
  /** The server offering it. */
  server: string;
  /** The resource as the server lists it. */
  resource: Resource;
}

/**
 * A resource template in the registry.
 *
 * @example Listing every URI template
 * ```ts
 * import { MemoryTransport } from "@mcp-inspect/client";
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * const day = { uriTemplate: "mem://notes/{day}", name: "day" };
 * const server = new McpServer({
 *   serverInfo: { name: "notes", version: "1.0.0" },
 *   capabilities: { resources: {} },
 *   handlers: {
 *     "resources/list": () => ({ resources: [] }),
 *     "resources/templates/list": () => ({ resourceTemplates: [day] }),
 *   },
 * });
 * const createTransport = () => MemoryTransport.serving((end) => server.serve(end));
 * await using manager = new ServerManager({ createTransport });
 * await manager.connect("notes", { command: "notes" });
 * console.log(manager.allResourceTemplates().map((t) => t.template.uriTemplate));
 * // ["mem://notes/{day}"]
 * ```
 */
export interface ManagedResourceTemplate {
  /** The server offering it. */
  server: string;
  /** The template as the server lists it. */
  template: ResourceTemplate;
}

/**
 * The events of a {@link ServerManager}.
 *
 * @example Following tool lists and server states
 * ```ts
 * import { type ManagedTool, ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * const publish = (tools: ManagedTool[]) => console.log(tools.map((t) => t.qualifiedName));
 * manager.on("toolsChanged", () => publish(manager.allTools()));
 * manager.on("stateChanged", (s) => console.error(s.name, s.state));
 * await manager.connect("demo", { command: "demo" });
 * // demo connecting, demo ready, then ["mcp__demo__echo"]
 * ```
 */
export interface ManagerEvents {
  /** The visible tools may have changed (list_changed, reconnect, toggle, setServers). */
  toolsChanged: { servers: string[] };
  /** The visible resources or templates may have changed. */
  resourcesChanged: { servers: string[] };
  /** The visible prompts may have changed. */
  promptsChanged: { servers: string[] };
  /** A server changed state. */
  stateChanged: ServerStatus;
  /** A server logged a message. */
  log: { server: string; message: LogMessage };
  /** A subscribed resource of a server changed. */
  resourceUpdated: { server: string; uri: string };
  /** A watched config file could not be applied, or has entries that were skipped. */
  configError: ConfigError;
  /** A watched config file has a key no config shape knows (each time the file is read). */
  configWarning: ConfigWarning;
  /** A watched config file was applied. */
  configApplied: { file: string; result: SetServersResult };
}

/**
 * Options of {@link ServerManager}.
 *
 * @example Fast health checks and fail-fast calls
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * await using manager = new ServerManager({ healthIntervalMs: 5_000, whileReconnecting: "fail" });
 * ```
 */
export interface ManagerOptions {
  /** Options for every client (clientInfo, handlers, timeouts, protocol). */
  clientOptions?: Omit<ClientOptions, "signal" | "listeners" | "name" | "discovery">;
  /** Builds a server's transport (default: stdio for `command`, HTTP for `url`). */
  createTransport?: (name: string, config: ServerConfig) => Transport;
  /** Receives each stderr line of stdio servers (default: kept for error messages only). */
  stderr?: ((server: string, line: string) => void) | undefined;
  /** Receives non-fatal oddities of every server. */
  onDiagnostic?: (server: string, diagnostic: Diagnostic) => void;
  /** How long a connection attempt may take (60 s). */
  connectTimeoutMs?: number;
  /** Time between liveness checks of a ready server (30 s; 0 turns them off). */
  healthIntervalMs?: number;
  /** How long a liveness check waits for its answer (10 s). */
  healthTimeoutMs?: number;
  /**
   * Reconnection backoff: first delay (500 ms), doubling up to `maxDelayMs` (30 s), ±`jitter`.
   * The delays start over only once a connection has lasted `stableAfterMs` (10 s), so a server
   * that crashes on every call is restarted less and less often, not on every call.
   */
  reconnect?: {
    initialDelayMs?: number;
    maxDelayMs?: number;
    multiplier?: number;
    jitter?: number;
    stableAfterMs?: number;
  };
  /** Failed attempts in a row before a server stays `failed` (unlimited). */
  maxReconnectAttempts?: number;
  /** What a call does while its server reconnects: `"wait"` (default, bounded) or `"fail"`. */
  whileReconnecting?: "wait" | "fail";
  /** How long a waiting call waits (10 s). */
  waitTimeoutMs?: number;
  /** Stop stdio servers unused for this long, restarting them on the next call (0: never). */
  idleTimeoutMs?: number;
  /** How {@link ServerManager.stats} keeps latencies (a 5-minute window, 1000 per tool). */
  stats?: StatsOptions;
  /**
   * Answers the servers' sampling and elicitation requests, told which server asks; the
   * servers' clients advertise those capabilities then. Takes precedence over the handlers of
   * `clientOptions`. A {@link ServerRequestRelay} passes them on to a proxy's clients.
   */
  serverRequests?: ServerRequestHandlers;
}

/**
 * Handlers of the requests the managed servers send, with the name of the server that asks.
 *
 * @example Declining every elicitation, saying which server asked
 * ```ts
 * import type { ServerRequestHandlers } from "@mcp-inspect/client/manager";
 * const handlers: ServerRequestHandlers = {
 *   onElicitation: (server, request) => {
 *     console.error(`${server} asks: ${request.message}`);
 *     return Promise.resolve({ action: "decline" });
 *   },
 * };
 * ```
 */
export interface ServerRequestHandlers {
  /** Answers `sampling/createMessage`. */
  onSampling?: (
    server: string,
    request: SamplingRequest,
    context: HandlerContext,
  ) => SamplingResult | Promise<SamplingResult>;
  /** Answers `elicitation/create`. */
  onElicitation?: (
    server: string,
    request: ElicitationRequest,
    context: HandlerContext,
  ) => ElicitationResult | Promise<ElicitationResult>;
  /** Elicitation modes `onElicitation` supports (default `["form"]`). */
  elicitationModes?: readonly ("form" | "url")[];
}

/**
 * Options of a call through the manager.
 *
 * @example Failing at once while the server reconnects
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 *
 * const createTransport = (): never => {
 *   throw new Error("no such command"); // every attempt fails, and the manager keeps retrying
 * };
 * await using manager = new ServerManager({ createTransport });
 * await manager.setServers({ files: { command: "files" } });
 * const options = { whileReconnecting: "fail" } as const;
 * const error = await manager.callTool("files", "read", { path: "a" }, options).catch((e) => e);
 * console.log(error.message);
 * // Server "files" is not available: it is failed (last error: no such command)
 * ```
 */
export interface ManagerCallOptions extends RequestOptions {
  /** Overrides {@link ManagerOptions.whileReconnecting} for this call. */
  whileReconnecting?: "wait" | "fail";
  /** Overrides {@link ManagerOptions.waitTimeoutMs} for this call. */
  waitTimeoutMs?: number;
  /** `_meta` of an incoming request to pass on, and to read a parent trace context from. */
  meta?: JsonObject | undefined;
}

/**
 * What {@link ServerManager.setServers} did, by server name.
 *
 * @example Reporting the servers whose first attempt failed
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 *
 * const createTransport = (name: string): never => {
 *   throw new Error(`${name}: no such command`);
 * };
 * await using manager = new ServerManager({ createTransport });
 * const servers = { files: { command: "files" } };
 * const result = await manager.setServers(servers);
 * for (const [name, error] of Object.entries(result.failed)) console.error(name, error.message);
 * // "files" "files: no such command"
 * ```
 */
export interface SetServersResult {
  /** New servers. */
  started: string[];
  /** Servers whose connection settings changed. */
  restarted: string[];
  /** Servers no longer configured. */
  stopped: string[];
  /** Servers whose allow, deny, disabled or idle settings changed, without reconnecting. */
  updated: string[];
  /** Servers left as they were. */
  unchanged: string[];
  /** Started or restarted servers whose first attempt failed (they keep retrying). */
  failed: Record<string, Error>;
}

/**
 * A watched config file; closing it stops following the file.
 *
 * @example Following a config file for one scope
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 *
 * await using manager = new ServerManager();
 * const file = await Deno.makeTempFile({ suffix: ".json" }); // .vscode/mcp.json
 * await Deno.writeTextFile(file, JSON.stringify({ servers: {} }));
 * {
 *   await using watcher = await manager.watch(file);
 *   console.log(watcher.file === file); // true
 * } // no longer followed from here
 * await Deno.remove(file);
 * ```
 */
export interface ConfigWatcher extends AsyncDisposable {
  /** The file followed. */
  readonly file: string;
  /** Stops following the file; the servers keep running. */
  close(): Promise<void>;
}

/**
 * Options of {@link ServerManager.watch}.
 *
 * @example Watching with a shorter debounce and a fixed environment
 * ```ts
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * const file = await Deno.makeTempFile({ suffix: ".json" }); // mcp.json
 * const demo = { command: "demo", env: { TOKEN: "${TOKEN}" } };
 * await Deno.writeTextFile(file, JSON.stringify({ mcpServers: { demo } }));
 * await manager.watch(file, { debounceMs: 100, env: { TOKEN: "x" } });
 * console.log(JSON.stringify(manager.servers()[0]?.config));
 * // {"type":"stdio","command":"demo","env":{"TOKEN":"x"}}
 * await Deno.remove(file);
 * ```
 */
export interface WatchOptions extends LoadConfigOptions {
  /** Quiet time after the last change before the file is read again (200 ms). */
  debounceMs?: number;
}

/**
 * A skill of a managed server, under a qualified name like a tool's.
 *
 * @example Printing every skill with its URI
 * ```ts
 * import { MemoryTransport, SKILLS_EXTENSION } from "@mcp-inspect/client";
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * const uri = "skill://pdf-processing/SKILL.md";
 * const pdf = { uri, frontmatter: { name: "pdf-processing" }, resources: "dynamic" };
 * const server = new McpServer({
 *   serverInfo: { name: "docs", version: "1.0.0" },
 *   capabilities: { extensions: { [SKILLS_EXTENSION]: {} } },
 *   handlers: { "skills/list": () => ({ skills: [pdf] }) },
 * });
 * const createTransport = () => MemoryTransport.serving((end) => server.serve(end));
 * await using manager = new ServerManager({ createTransport });
 * await manager.connect("docs", { command: "docs" });
 * const { skills } = await manager.listSkills();
 * for (const skill of skills) console.log(skill.qualifiedName, skill.entry.uri);
 * // "mcp__docs__pdf-processing" "skill://pdf-processing/SKILL.md"
 * ```
 */
export interface ManagedSkill {
  /** The server's name. */
  server: string;
  /** `mcp__<server>__<skill name>`. */
  qualifiedName: string;
  /** The skill's name: its listed frontmatter `name`. */
  name: string;
  /** The entry as the server listed it. */
  entry: SkillEntry;
}

/**
 * The skills of every server that declares the extension, and the servers whose listing failed.
 *
 * @example Reporting the servers whose listing failed
 * ```ts
 * import { MemoryTransport, SKILLS_EXTENSION } from "@mcp-inspect/client";
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * const server = new McpServer({
 *   serverInfo: { name: "docs", version: "1.0.0" },
 *   capabilities: { extensions: { [SKILLS_EXTENSION]: {} } },
 *   handlers: {}, // declares the extension, yet cannot list skills
 * });
 * const createTransport = () => MemoryTransport.serving((end) => server.serve(end));
 * await using manager = new ServerManager({ createTransport });
 * await manager.connect("docs", { command: "docs" });
 * const { errors } = await manager.listSkills();
 * for (const [server, error] of Object.entries(errors)) console.error(server, error.message);
 * // "docs" "Method not found: skills/list"
 * ```
 */
export interface ManagedSkillListing {
  /** Every allowed skill, by server name then in server order. */
  skills: ManagedSkill[];
  /** Why a server's listing failed, by server name. */
  errors: Record<string, Error>;
}
