/**
 * The errors of a connection: it could not start, it closed, or an HTTP server answered with an
 * error status (authorization, session expiry). Re-exported by `errors.ts`, the error family's
 * module.
 *
 * @module
 */

/**
 * A transport could not be started or failed while in use.
 *
 * @example Telling a connection failure from a server error
 * ```ts
 * import { Client, StdioTransport, TransportError } from "@mcp-inspect/client";
 * try {
 *   await Client.connect(new StdioTransport({ command: "no-such-server" }));
 * } catch (error) {
 *   if (!(error instanceof TransportError)) throw error;
 *   console.error(error.message);
 *   // Cannot start server "no-such-server": command "no-such-server" not found on PATH
 * }
 * ```
 */
export class TransportError extends Error {
  /**
   * Creates the error.
   *
   * @example Creating one with a message
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

/**
 * What is known about how a connection ended.
 *
 * @example A server process killed by a signal
 * ```ts
 * import { ConnectionClosedError, type ConnectionClosedInfo } from "@mcp-inspect/client";
 * const info: ConnectionClosedInfo = { signal: "SIGKILL", stderrTail: ["out of memory"] };
 * console.log(new ConnectionClosedError("Server exited", info).signal); // "SIGKILL"
 * ```
 */
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
 * @example Why a server process ended
 * ```ts
 * import { Client, ConnectionClosedError, StdioTransport } from "@mcp-inspect/client";
 *
 * // A server that exits at startup, as one missing its configuration does
 * const transport = new StdioTransport({
 *   command: "deno",
 *   args: ["eval", "console.error('fatal: DATABASE_URL is not set'); Deno.exit(3)"],
 * });
 * await Client.connect(transport).catch((error) => {
 *   if (!(error instanceof ConnectionClosedError)) throw error;
 *   console.error(error.exitCode, error.stderrTail);
 * }); // 3 ["fatal: DATABASE_URL is not set"]
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
   * @example The message carries the exit code and stderr
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
 * @example Retrying later when the server is overloaded
 * ```ts
 * import { Client, HttpError, StreamableHttpTransport } from "@mcp-inspect/client";
 *
 * const busy = () => new Response("Busy", { status: 503, headers: { "Retry-After": "120" } });
 * await using server = Deno.serve({ port: 0, onListen() {} }, busy);
 * const url = `http://127.0.0.1:${server.addr.port}/mcp`;
 * // A wait beyond maxDelayMs (30 s) is the caller's to make: no retry, the error at once
 * await Client.connect(new StreamableHttpTransport({ url })).catch((error) => {
 *   if (!(error instanceof HttpError) || error.status !== 503) throw error;
 *   console.log("retry later", error.retryAfterMs); // "retry later" 120000
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
   * @example Reading the status
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
 * @example Reading the parameters of a challenge
 * ```ts
 * import type { AuthChallenge } from "@mcp-inspect/client";
 * const challenge: AuthChallenge = {
 *   scheme: "bearer",
 *   params: { resource_metadata: "https://example.com/.well-known/oauth-protected-resource" },
 * };
 * console.log(challenge.params.resource_metadata);
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
 * @example Finding out how to authorize
 * ```ts
 * import { AuthorizationError, Client, StreamableHttpTransport } from "@mcp-inspect/client";
 *
 * await using server = Deno.serve({ port: 0, onListen() {} }, (request) => {
 *   const metadata = new URL("/.well-known/oauth-protected-resource", request.url);
 *   const challenge = `Bearer resource_metadata="${metadata}", scope="files:read"`;
 *   return new Response(null, { status: 401, headers: { "WWW-Authenticate": challenge } });
 * });
 * const url = `http://127.0.0.1:${server.addr.port}/mcp`;
 * await Client.connect(new StreamableHttpTransport({ url })).catch((error) => {
 *   if (!(error instanceof AuthorizationError)) throw error;
 *   console.log(error.resourceMetadata, error.scope);
 * }); // "http://127.0.0.1:PORT/.well-known/oauth-protected-resource" "files:read"
 * ```
 */
export class AuthorizationError extends HttpError {
  /** Every challenge of the `WWW-Authenticate` header. */
  readonly challenges: readonly AuthChallenge[];

  /**
   * Creates the error.
   *
   * @example The scope a challenge asks for
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

  /**
   * The `resource_metadata` URL of the first challenge that has one (RFC 9728).
   *
   * @example Where the server's protected resource metadata lives
   * ```ts
   * import { AuthorizationError } from "@mcp-inspect/client";
   * const metadata = "https://example.com/.well-known/oauth-protected-resource";
   * const error = new AuthorizationError("Unauthorized", 401, [
   *   { scheme: "bearer", params: { resource_metadata: metadata } },
   * ]);
   * console.log(error.resourceMetadata === metadata); // true
   * ```
   */
  get resourceMetadata(): string | undefined {
    return this.challenges.find((c) => c.params.resource_metadata)?.params.resource_metadata;
  }

  /**
   * The `scope` the server asks for, if any.
   *
   * @example A refusal that asks for more scope
   * ```ts
   * import { AuthorizationError } from "@mcp-inspect/client";
   * const error = new AuthorizationError("Forbidden", 403, [
   *   { scheme: "bearer", params: { error: "insufficient_scope", scope: "files:write" } },
   * ]);
   * console.log(error.scope); // "files:write"
   * ```
   */
  get scope(): string | undefined {
    return this.challenges.find((c) => c.params.scope)?.params.scope;
  }

  /**
   * The `error` code (`invalid_token`, `insufficient_scope`), if any.
   *
   * @example Telling an expired token from a missing one
   * ```ts
   * import { AuthorizationError } from "@mcp-inspect/client";
   * const error = new AuthorizationError("Unauthorized", 401, [
   *   { scheme: "bearer", params: { error: "invalid_token" } },
   * ]);
   * console.log(error.error); // "invalid_token"
   * ```
   */
  get error(): string | undefined {
    return this.challenges.find((c) => c.params.error)?.params.error;
  }
}

/**
 * The server ended the HTTP session (404 for a request carrying its session id) and the
 * transport was told not to start a new one (`reinitializeOnExpiry: false`), or a new one expired
 * at once.
 *
 * @example Starting over when the session expired
 * ```ts
 * import { Client, SessionExpiredError, StreamableHttpTransport } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * // One session at a time: a new one ends an idle one (an open GET stream keeps it busy)
 * await using http = new FakeServer().serveHttp({ maxSessions: 1 });
 * const connect = () => {
 *   const options = { url: http.url, reinitializeOnExpiry: false, openServerStream: false };
 *   return Client.connect(new StreamableHttpTransport(options), { protocol: "legacy" });
 * };
 * await using client = await connect();
 * await using _newer = await connect(); // the server ends the idle session of `client`
 * await client.ping().catch((error) => {
 *   if (!(error instanceof SessionExpiredError)) throw error;
 *   console.log(error.message); // then connect() again
 * }); // "Session expired: the server answered 404 to ping"
 * ```
 */
export class SessionExpiredError extends TransportError {
  /**
   * Creates the error.
   *
   * @example Creating one with a message
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
