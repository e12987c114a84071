/**
 * The error family. {@link McpError} and its subclasses (in `mcp_error.ts`, re-exported here) are
 * errors the server sent over the wire; every class defined here is raised locally, so callers
 * can tell "the server said no" from "we never got an answer".
 *
 * @module
 */

export * from "./mcp_error.ts";

/**
 * A request took longer than allowed. `kind` says which limit was hit: `"idle"` is the
 * per-request timeout (which progress can reset), `"total"` the maximum that nothing resets.
 *
 * @example
 * ```ts ignore
 * try {
 *   await client.callTool("slow", {}, { timeoutMs: 100 });
 * } catch (error) {
 *   if (error instanceof TimeoutError) console.log(`${error.method} timed out after ${error.timeoutMs} ms`);
 * }
 * ```
 */
export class TimeoutError extends Error {
  /** The method of the request that timed out. */
  readonly method: string;
  /** The limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;
  /** Which limit was exceeded. */
  readonly kind: "idle" | "total";

  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { TimeoutError } from "@mcp-inspect/client";
   * console.log(new TimeoutError("tools/call", 5_000).message);
   * ```
   */
  constructor(method: string, timeoutMs: number, kind: "idle" | "total" = "idle") {
    super(
      `Request ${method} timed out after ${timeoutMs} ms${
        kind === "total" ? " (maximum total)" : ""
      }`,
    );
    this.name = "TimeoutError";
    this.method = method;
    this.timeoutMs = timeoutMs;
    this.kind = kind;
  }
}

/**
 * A request was cancelled through its `AbortSignal`. The signal's reason is kept as `reason`.
 *
 * @example
 * ```ts ignore
 * const controller = new AbortController();
 * const call = client.callTool("slow", {}, { signal: controller.signal });
 * controller.abort("user pressed Ctrl-C");
 * await call.catch((error) => console.log(error instanceof CancelledError)); // true
 * ```
 */
export class CancelledError extends Error {
  /** The method of the cancelled request. */
  readonly method: string;
  /** The abort reason of the signal. */
  readonly reason: unknown;

  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { CancelledError } from "@mcp-inspect/client";
   * console.log(new CancelledError("tools/call", "stop").message);
   * ```
   */
  constructor(method: string, reason?: unknown) {
    super(`Request ${method} was cancelled${describeReason(reason)}`, { cause: reason });
    this.name = "CancelledError";
    this.method = method;
    this.reason = reason;
  }
}

function describeReason(reason: unknown): string {
  if (reason === undefined) return "";
  if (typeof reason === "string") return `: ${reason}`;
  if (reason instanceof Error && reason.name !== "AbortError") return `: ${reason.message}`;
  return "";
}

/**
 * A transport could not be started or failed while in use.
 *
 * @example
 * ```ts ignore
 * try {
 *   await Client.connect(new StdioTransport({ command: "no-such-server" }));
 * } catch (error) {
 *   if (error instanceof TransportError) console.error(error.message);
 * }
 * ```
 */
export class TransportError extends Error {
  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { TransportError } from "@mcp-inspect/client";
   * console.log(new TransportError("Cannot start server: command not found").name);
   * ```
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "TransportError";
  }
}

/** What is known about how a connection ended. */
export interface ConnectionClosedInfo {
  /** The server process's exit code, when it was a process and it exited. */
  exitCode?: number | undefined;
  /** The signal that ended the server process, if any. */
  signal?: string | undefined;
  /** The last lines the server wrote to stderr, oldest first. */
  stderrTail?: readonly string[] | undefined;
}

/**
 * The connection closed while requests were pending or a request was made after it closed.
 * It carries the exit code and the last stderr lines of a server process, so a crash explains
 * itself.
 *
 * @example
 * ```ts ignore
 * await client.callTool("crash", {}).catch((error) => {
 *   if (error instanceof ConnectionClosedError) console.error(error.exitCode, error.stderrTail);
 * });
 * ```
 */
export class ConnectionClosedError extends TransportError {
  /** The server process's exit code, if known. */
  readonly exitCode: number | undefined;
  /** The signal that ended the server process, if any. */
  readonly signal: string | undefined;
  /** The last lines the server wrote to stderr. */
  readonly stderrTail: readonly string[];

  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { ConnectionClosedError } from "@mcp-inspect/client";
   * const error = new ConnectionClosedError("Server exited", { exitCode: 3, stderrTail: ["fatal"] });
   * console.log(error.message);
   * ```
   */
  constructor(message: string, info: ConnectionClosedInfo = {}, options?: ErrorOptions) {
    const details: string[] = [];
    if (info.exitCode !== undefined) details.push(`exit code ${info.exitCode}`);
    if (info.signal !== undefined) details.push(`signal ${info.signal}`);
    let text = details.length > 0 ? `${message} (${details.join(", ")})` : message;
    if (info.stderrTail && info.stderrTail.length > 0) {
      text += `; last stderr lines:\n${info.stderrTail.map((line) => `  ${line}`).join("\n")}`;
    }
    super(text, options);
    this.name = "ConnectionClosedError";
    this.exitCode = info.exitCode;
    this.signal = info.signal;
    this.stderrTail = info.stderrTail ?? [];
  }
}

/**
 * An HTTP server answered with an error status. The message names the status, the method and the
 * URL (without its query), never a header value.
 *
 * @example
 * ```ts ignore
 * await client.ping().catch((error) => {
 *   if (error instanceof HttpError && error.status === 503) console.log("retry later", error.retryAfterMs);
 * });
 * ```
 */
export class HttpError extends TransportError {
  /** The HTTP status code. */
  readonly status: number;
  /** The `Retry-After` delay the server asked for, in milliseconds, if any. */
  readonly retryAfterMs: number | undefined;

  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { HttpError } from "@mcp-inspect/client";
   * console.log(new HttpError("Server answered HTTP 502", 502).status);
   * ```
   */
  constructor(message: string, status: number, retryAfterMs?: number, options?: ErrorOptions) {
    super(message, options);
    this.name = "HttpError";
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The parameters of a `WWW-Authenticate` challenge, as RFC 9110 and RFC 6750 define them. MCP
 * servers name their protected resource metadata in `resource_metadata` (RFC 9728).
 *
 * @example
 * ```ts ignore
 * const { resource_metadata, scope } = error.challenge.params;
 * ```
 */
export interface AuthChallenge {
  /** The scheme, lowercased (`bearer`, `dpop`). */
  scheme: string;
  /** The auth-params, keys lowercased. */
  params: Record<string, string>;
}

/**
 * The server requires authorization (HTTP 401) or refused it (HTTP 403). The parsed
 * `WWW-Authenticate` challenges tell what to do next.
 *
 * @example
 * ```ts ignore
 * await Client.connect(transport).catch((error) => {
 *   if (error instanceof AuthorizationError) console.log(error.resourceMetadata, error.scope);
 * });
 * ```
 */
export class AuthorizationError extends HttpError {
  /** Every challenge of the `WWW-Authenticate` header. */
  readonly challenges: readonly AuthChallenge[];

  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { AuthorizationError } from "@mcp-inspect/client";
   * const error = new AuthorizationError("Unauthorized", 401, [{ scheme: "bearer", params: { scope: "read" } }]);
   * console.log(error.scope); // "read"
   * ```
   */
  constructor(message: string, status: number, challenges: readonly AuthChallenge[]) {
    super(message, status);
    this.name = "AuthorizationError";
    this.challenges = challenges;
  }

  /** The `resource_metadata` URL of the first challenge that has one (RFC 9728). */
  get resourceMetadata(): string | undefined {
    return this.challenges.find((c) => c.params.resource_metadata)?.params.resource_metadata;
  }

  /** The `scope` the server asks for, if any. */
  get scope(): string | undefined {
    return this.challenges.find((c) => c.params.scope)?.params.scope;
  }

  /** The `error` code (`invalid_token`, `insufficient_scope`), if any. */
  get error(): string | undefined {
    return this.challenges.find((c) => c.params.error)?.params.error;
  }
}

/**
 * The server ended the HTTP session (404 for a request carrying its session id) and the
 * transport was told not to start a new one (`reinitializeOnExpiry: false`), or a new one expired
 * at once.
 *
 * @example
 * ```ts ignore
 * await client.ping().catch((error) => {
 *   if (error instanceof SessionExpiredError) reconnect();
 * });
 * ```
 */
export class SessionExpiredError extends TransportError {
  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { SessionExpiredError } from "@mcp-inspect/client";
   * console.log(new SessionExpiredError("Session expired").name);
   * ```
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "SessionExpiredError";
  }
}

/**
 * The server broke the protocol: an invalid message, an unsupported protocol revision, a message
 * over the size limit, or pagination that never ends.
 *
 * @example
 * ```ts
 * import { ProtocolError } from "@mcp-inspect/client";
 * console.log(new ProtocolError("Server answered with unsupported protocol revision 1999-01-01").name);
 * ```
 */
export class ProtocolError extends Error {
  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { ProtocolError } from "@mcp-inspect/client";
   * const error = new ProtocolError("Invalid message");
   * console.log(error.name); // "ProtocolError"
   * ```
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ProtocolError";
  }
}

/**
 * The server did not advertise the capability a method needs; no request was sent.
 *
 * @example
 * ```ts ignore
 * await client.listPrompts().catch((error) => {
 *   if (error instanceof CapabilityError) console.log(error.capability); // "prompts"
 * });
 * ```
 */
export class CapabilityError extends Error {
  /** The method that was not sent. */
  readonly method: string;
  /** The missing capability, as a dotted path such as `resources.subscribe`. */
  readonly capability: string;

  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { CapabilityError } from "@mcp-inspect/client";
   * console.log(new CapabilityError("prompts/list", "prompts", "memory").message);
   * ```
   */
  constructor(method: string, capability: string, serverName = "the server") {
    super(
      `Cannot call ${method}: ${
        serverName === "the server" ? serverName : `server "${serverName}"`
      } does not advertise the "${capability}" capability`,
    );
    this.name = "CapabilityError";
    this.method = method;
    this.capability = capability;
  }
}

/**
 * A value did not match its JSON Schema: tool arguments against `inputSchema`, or
 * `structuredContent` against `outputSchema`.
 *
 * @example
 * ```ts ignore
 * await client.callTool("add", { a: 1, b: 2 }).catch((error) => {
 *   if (error instanceof ValidationError) console.log(error.issues);
 * });
 * ```
 */
export class ValidationError extends Error {
  /** One line per violation, each naming the JSON pointer of the offending value. */
  readonly issues: readonly string[];

  /**
   * Creates the error.
   *
   * @example
   * ```ts
   * import { ValidationError } from "@mcp-inspect/client";
   * const error = new ValidationError("Invalid arguments", ["/a: must be number"]);
   * console.log(error.issues);
   * ```
   */
  constructor(message: string, issues: readonly string[]) {
    super(issues.length > 0 ? `${message}: ${issues.join("; ")}` : message);
    this.name = "ValidationError";
    this.issues = issues;
  }
}

/**
 * Something unusual that did not stop the connection: a non-JSON line on stdout, a response with
 * an unknown id, a handler that threw. Passed to `onDiagnostic` callbacks.
 *
 * @example Logging diagnostics
 * ```ts ignore
 * new StdioTransport({ command: "server", onDiagnostic: (d) => console.warn(d.kind, d.message) });
 * ```
 */
export interface Diagnostic {
  /** A stable, machine-readable kind. */
  kind:
    | "non-json-line"
    | "invalid-message"
    | "unknown-response"
    | "duplicate-response"
    | "unattributed-error"
    | "notification-handler-failed"
    | "unexpected-message";
  /** A sentence describing what happened. */
  message: string;
  /** The offending line or message, truncated. */
  data?: string;
  /**
   * The request id the offending message named, when it named one: a session fails the pending
   * request of that id at once instead of letting it wait for its timeout.
   */
  id?: string | number;
}
