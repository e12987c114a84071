/**
 * The error family. {@link McpError} and its subclasses (in `mcp_error.ts`, re-exported here) are
 * errors the server sent over the wire; every other class is raised locally, so callers can tell
 * "the server said no" from "we never got an answer". Those of the connection ({@link
 * TransportError} and its subclasses) are in `transport_errors.ts`, also re-exported here.
 *
 * @module
 */

export * from "./mcp_error.ts";
export * from "./transport_errors.ts";

/**
 * A request took longer than allowed. `kind` says which limit was hit: `"idle"` is the
 * per-request timeout (which progress can reset), `"total"` the maximum that nothing resets.
 *
 * @example Reporting which call timed out
 * ```ts
 * import { Client, TimeoutError } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const misbehave = { neverAnswer: ["tools/call"] };
 * const fake = new FakeServer({ tools: [{ name: "slow" }], misbehave });
 * await using client = await Client.connect(fake.transport());
 * try {
 *   await client.callTool("slow", {}, { timeoutMs: 100 });
 * } catch (error) {
 *   if (!(error instanceof TimeoutError)) throw error;
 *   console.log(`${error.method} timed out after ${error.timeoutMs} ms`);
 * } // "tools/call timed out after 100 ms"
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
   * @example The message of a timeout
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
 * @example Cancelling a call in progress
 * ```ts
 * import { CancelledError, Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const misbehave = { neverAnswer: ["tools/call"] };
 * const fake = new FakeServer({ tools: [{ name: "slow" }], misbehave });
 * await using client = await Client.connect(fake.transport());
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
   * @example A reason given as a string joins the message
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
 * The server broke the protocol: an invalid message, an unsupported protocol revision, a message
 * over the size limit, or pagination that never ends.
 *
 * @example Naming a protocol violation
 * ```ts
 * import { ProtocolError } from "@mcp-inspect/client";
 * console.log(new ProtocolError("Server answered with unsupported protocol revision 1999-01-01").name);
 * ```
 */
export class ProtocolError extends Error {
  /**
   * Creates the error.
   *
   * @example Creating one with a message
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
 * The server did not advertise the capability a method needs, or this client did not declare the
 * one a notification of its own stands for (`setRoots()` without `roots`); nothing was sent.
 *
 * @example Telling which capability was missing
 * ```ts
 * import { CapabilityError, Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using client = await Client.connect(fake.transport());
 * await client.listPrompts().catch((error) => {
 *   if (!(error instanceof CapabilityError)) throw error;
 *   console.log(error.capability); // "prompts"
 * });
 * ```
 */
export class CapabilityError extends Error {
  /** The method that was not sent. */
  readonly method: string;
  /** The missing capability, as a dotted path such as `resources.subscribe`. */
  readonly capability: string;
  /** Whose capability is missing: the server's, or this client's own. */
  readonly side: "server" | "client";

  /**
   * Creates the error.
   *
   * @example The message names the server and the capability
   * ```ts
   * import { CapabilityError } from "@mcp-inspect/client";
   * console.log(new CapabilityError("prompts/list", "prompts", "memory").message);
   * // Cannot call prompts/list: server "memory" does not advertise the "prompts" capability
   * const own = new CapabilityError("notifications/roots/list_changed", "roots", undefined, "client");
   * console.log(own.side, own.message); // "client", "Cannot send …: this client did not declare …"
   * ```
   */
  constructor(
    method: string,
    capability: string,
    serverName = "the server",
    side: "server" | "client" = "server",
  ) {
    super(
      side === "client"
        ? `Cannot send ${method}: this client did not declare the "${capability}" capability when it connected`
        : `Cannot call ${method}: ${
          serverName === "the server" ? serverName : `server "${serverName}"`
        } does not advertise the "${capability}" capability`,
    );
    this.name = "CapabilityError";
    this.method = method;
    this.capability = capability;
    this.side = side;
  }
}

/**
 * A value did not match its JSON Schema: tool arguments against `inputSchema`, or
 * `structuredContent` against `outputSchema`.
 *
 * @example Printing what did not match
 * ```ts
 * import { Client, ValidationError } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const outputSchema = { type: "object", properties: { sum: { type: "number" } } };
 * const handler = () => ({ content: [], structuredContent: { sum: "3" } }); // not a number
 * const fake = new FakeServer({ tools: [{ name: "add", outputSchema, handler }] });
 * await using client = await Client.connect(fake.transport());
 * await client.callTool("add", { a: 1, b: 2 }).catch((error) => {
 *   if (!(error instanceof ValidationError)) throw error;
 *   console.log(error.issues); // ["/sum must be number"]
 * });
 * ```
 */
export class ValidationError extends Error {
  /** One line per violation, each naming the JSON pointer of the offending value. */
  readonly issues: readonly string[];

  /**
   * Creates the error.
   *
   * @example Each violation stays a separate issue
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
 * ```ts
 * import { StdioTransport } from "@mcp-inspect/client";
 * const transport = new StdioTransport({
 *   command: "server",
 *   onDiagnostic: (d) => console.warn(d.kind, d.message),
 * });
 * await transport.close();
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
