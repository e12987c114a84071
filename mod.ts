/**
 * A Deno-first client for the Model Context Protocol.
 *
 * - {@link Client}: connect to a server, list and call its tools, read its resources, render its
 *   prompts, and answer its roots, sampling and elicitation requests.
 * - {@link StdioTransport}: a server as a child process; {@link MemoryTransport} for tests.
 * - {@link Session}: the JSON-RPC core (timeouts, cancellation, progress) for raw use.
 * - Errors: {@link McpError} is what the server sent; {@link TimeoutError},
 *   {@link CancelledError}, {@link ConnectionClosedError}, {@link ProtocolError},
 *   {@link CapabilityError} and {@link ValidationError} are raised locally.
 *
 * @example Listing and calling tools of a local server
 * ```ts
 * import { Client, StdioTransport } from "@mcp-inspect/client";
 *
 * // A test server of this repository
 * const server = new URL("testdata/servers/everything.ts", import.meta.url).href;
 * await using client = await Client.connect(
 *   new StdioTransport({ command: "deno", args: ["run", "--allow-env", server] }),
 * );
 * const tools = await client.listTools(); // every page
 * const result = await client.callTool("echo", { text: "hi" }, { timeoutMs: 5_000 });
 * console.log(tools.map((tool) => tool.name), result.content);
 * // ["echo", "add", ...] [{ type: "text", text: "hi" }]
 * ```
 *
 * The other audiences have entry points of their own: `@mcp-inspect/client/manager` (many
 * servers, config files, the tool registry), `@mcp-inspect/client/server` (a small server and the
 * proxy), `@mcp-inspect/client/auth` (OAuth 2.1), `@mcp-inspect/client/testing` (recordings,
 * replay, snapshots and diffs) and `@mcp-inspect/client/cli`.
 *
 * @module
 */

export { Client } from "./src/client/client.ts";
export {
  type ElicitationHandler,
  type ElicitationRequest,
  type ElicitationResult,
  type HandlerContext,
  type SamplingHandler,
  type SamplingRequest,
  type SamplingResult,
} from "./src/client/handlers.ts";
export {
  type CacheOptions,
  type CallToolOptions,
  type ClientEvents,
  type ClientOptions,
  type ListOptions,
  type ListPage,
  type PageOptions,
  type TaskWaitOptions,
} from "./src/client/types.ts";
export {
  type AuthChallenge,
  AuthorizationError,
  CancelledError,
  CapabilityError,
  ConnectionClosedError,
  type ConnectionClosedInfo,
  type Diagnostic,
  HttpError,
  ProtocolError,
  SessionExpiredError,
  TimeoutError,
  TransportError,
  ValidationError,
} from "./src/errors.ts";
export {
  type CallToolResult,
  type CompleteResult,
  type CompletionReference,
  type Content,
  type GetPromptResult,
  type JsonSchema,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceContents,
  type ResourceTemplate,
  type Tool,
  type ToolAnnotations,
} from "./src/feature_types.ts";
export {
  ErrorCode,
  isNotification,
  isRequest,
  isResponse,
  type JsonObject,
  type JsonRpcErrorObject,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcResultResponse,
  messageId,
  type RequestId,
  toMessage,
} from "./src/jsonrpc.ts";
export {
  HeaderMismatchError,
  McpError,
  mcpErrorFrom,
  MissingRequiredClientCapabilityError,
  ResourceNotFoundError,
  UnsupportedProtocolVersionError,
} from "./src/mcp_error.ts";
export { MIN_SECRET_LENGTH, REDACTED, Redactor, redactUrl } from "./src/redact.ts";
export { type SchemaIssues, SchemaValidator } from "./src/schema.ts";
export {
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type IncomingRequestContext,
  type Progress,
  type RequestHandler,
  type RequestOptions,
  Session,
  type SessionOptions,
} from "./src/session.ts";
export {
  type LoadedSkill,
  type SkillEntry,
  SkillEntryError,
  skillEntryProblems,
  type SkillFile,
  type SkillFileEntry,
  type SkillListing,
  Skills,
  SKILLS_EXTENSION,
  type SkillsOptions,
  SkillVerificationError,
} from "./src/skills/skills.ts";
export {
  loadSpecSchema,
  SPEC_REVISIONS,
  type SpecSchemaOptions,
  SpecValidator,
} from "./src/spec_schema.ts";
export { DEFAULT_INHERITED_ENV_VARS } from "./src/transport/_process.ts";
export { HttpTransport, type HttpTransportOptions } from "./src/transport/http.ts";
export { MemoryTransport } from "./src/transport/memory.ts";
export { SseTransport, type SseTransportOptions } from "./src/transport/sse.ts";
export {
  DEFAULT_CLOSE_STEP_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  StdioTransport,
  type StdioTransportOptions,
} from "./src/transport/stdio.ts";
export {
  StreamableHttpTransport,
  type StreamableHttpTransportOptions,
} from "./src/transport/streamable_http.ts";
export { type TapListeners, TapTransport } from "./src/transport/tap.ts";
export { type Transport } from "./src/transport/transport.ts";
export {
  type ClientCapabilities,
  type DiscoveryVerdict,
  type Implementation,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  type ListenFilter,
  type LoggingLevel,
  type LogMessage,
  MODERN_PROTOCOL_VERSIONS,
  type ProtocolChoice,
  type Root,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
  type TaskInfo,
} from "./src/types.ts";
export { VERSION } from "./src/version.ts";
