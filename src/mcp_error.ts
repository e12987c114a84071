// The errors a server sends over the wire: McpError, with its JSON-RPC code and data, the
// specific classes of the codes MCP defines, and the function that picks the class for a code.

/**
 * An error response sent by the server, with its JSON-RPC `code` and `data`.
 *
 * @example Telling a server error apart
 * ```ts
 * import { Client, McpError } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using client = await Client.connect(fake.transport());
 * try {
 *   await client.callTool("missing", {});
 * } catch (error) {
 *   if (!(error instanceof McpError)) throw error;
 *   console.log(error.code, error.data); // -32602 undefined
 * }
 * ```
 */
export class McpError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The `data` member of the error, if the server sent one. */
  readonly data: unknown;

  /**
   * Creates an error as if the server had sent it.
   *
   * @example An error as a server would send it
   * ```ts
   * import { McpError } from "@mcp-inspect/client";
   * const error = new McpError(-32601, "Method not found");
   * console.log(error.message); // "Method not found"
   * ```
   */
  constructor(code: number, message: string, data?: unknown, options?: ErrorOptions) {
    super(message, options);
    this.name = "McpError";
    this.code = code;
    this.data = data;
  }
}

/**
 * The server does not speak the requested protocol revision (-32022). `supported` lists the
 * revisions it does speak; the client retries once with one of them on its own.
 *
 * @example Listing the revisions the server speaks
 * ```ts
 * import { mcpErrorFrom, UnsupportedProtocolVersionError } from "@mcp-inspect/client";
 * const error = mcpErrorFrom(-32022, "Unsupported version", { supported: ["2025-06-18"] });
 * if (error instanceof UnsupportedProtocolVersionError) {
 *   console.log(error.supported); // ["2025-06-18"]
 * }
 * ```
 */
export class UnsupportedProtocolVersionError extends McpError {
  /** The revisions the server supports. */
  readonly supported: readonly string[];
  /** The revision that was requested, as the server saw it. */
  readonly requested: string | undefined;

  /**
   * Creates the error from the wire fields.
   *
   * @example The supported revisions, read from the data
   * ```ts
   * import { UnsupportedProtocolVersionError } from "@mcp-inspect/client";
   * const error = new UnsupportedProtocolVersionError("Unsupported", { supported: ["2025-11-25"] });
   * console.log(error.supported);
   * ```
   */
  constructor(message: string, data?: unknown) {
    super(-32022, message, data);
    this.name = "UnsupportedProtocolVersionError";
    const fields = (typeof data === "object" && data !== null ? data : {}) as Record<
      string,
      unknown
    >;
    this.supported = Array.isArray(fields.supported)
      ? fields.supported.filter((v): v is string => typeof v === "string")
      : [];
    this.requested = typeof fields.requested === "string" ? fields.requested : undefined;
  }
}

/**
 * The server needs a client capability this client did not declare (-32021).
 *
 * @example Seeing what the server needs
 * ```ts
 * import { mcpErrorFrom, MissingRequiredClientCapabilityError } from "@mcp-inspect/client";
 * const data = { requiredCapabilities: { sampling: {} } };
 * const error = mcpErrorFrom(-32021, "Client does not support sampling", data);
 * if (!(error instanceof MissingRequiredClientCapabilityError)) throw error;
 * console.log(error.data);
 * ```
 */
export class MissingRequiredClientCapabilityError extends McpError {
  /**
   * Creates the error from the wire fields.
   *
   * @example Its code is -32021
   * ```ts
   * import { MissingRequiredClientCapabilityError } from "@mcp-inspect/client";
   * console.log(new MissingRequiredClientCapabilityError("Needs sampling").code); // -32021
   * ```
   */
  constructor(message: string, data?: unknown) {
    super(-32021, message, data);
    this.name = "MissingRequiredClientCapabilityError";
  }
}

/**
 * The server found the HTTP headers of a request inconsistent with its body (-32020), for
 * example a `Mcp-Param-*` header for a tool whose schema changed.
 *
 * @example Fetching the tools again after a mismatch
 * ```ts
 * import { Client, HeaderMismatchError } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const mismatch = { code: -32020, message: "Mcp-Param-Query does not match the body" };
 * const fake = new FakeServer({
 *   tools: [{ name: "search" }],
 *   misbehave: { failWith: { "tools/call": mismatch } },
 * });
 * await using client = await Client.connect(fake.transport());
 * await client.callTool("search", { query: "mcp" }).catch(async (error) => {
 *   if (!(error instanceof HeaderMismatchError)) throw error;
 *   await client.listTools({ bypassCache: true });
 * });
 * ```
 */
export class HeaderMismatchError extends McpError {
  /**
   * Creates the error from the wire fields.
   *
   * @example Its code is -32020
   * ```ts
   * import { HeaderMismatchError } from "@mcp-inspect/client";
   * console.log(new HeaderMismatchError("Mcp-Name does not match").code); // -32020
   * ```
   */
  constructor(message: string, data?: unknown) {
    super(-32020, message, data);
    this.name = "HeaderMismatchError";
  }
}

/**
 * A resource does not exist: -32002 before 2026-07-28, -32602 with a `uri` in `data` since.
 *
 * @example Reporting the missing URI
 * ```ts
 * import { Client, McpError, MemoryTransport, ResourceNotFoundError } from "@mcp-inspect/client";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * const server = new McpServer({
 *   serverInfo: { name: "files", version: "1.0.0" },
 *   capabilities: { resources: {} },
 *   handlers: {
 *     "resources/read": ({ uri }) => {
 *       throw new McpError(-32602, "Resource not found", { uri }); // the 2026-07-28 shape
 *     },
 *   },
 * });
 * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
 * await client.readResource("file:///nope").catch((error) => {
 *   if (!(error instanceof ResourceNotFoundError)) throw error;
 *   console.log(error.uri); // "file:///nope"
 * });
 * ```
 */
export class ResourceNotFoundError extends McpError {
  /** The URI that was not found, if the server said. */
  readonly uri: string | undefined;

  /**
   * Creates the error from the wire fields.
   *
   * @example The URI, read from the data
   * ```ts
   * import { ResourceNotFoundError } from "@mcp-inspect/client";
   * console.log(new ResourceNotFoundError(-32602, "Not found", { uri: "file:///x" }).uri);
   * ```
   */
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.name = "ResourceNotFoundError";
    const uri = (data as { uri?: unknown } | undefined)?.uri;
    this.uri = typeof uri === "string" ? uri : undefined;
  }
}

/**
 * Builds the most specific error class for an error response.
 *
 * @example Picking the class for a code
 * ```ts
 * import { mcpErrorFrom } from "@mcp-inspect/client";
 * console.log(mcpErrorFrom(-32022, "Unsupported", { supported: ["2026-07-28"] }).name);
 * ```
 */
export function mcpErrorFrom(code: number, message: string, data?: unknown): McpError {
  switch (code) {
    case -32022:
      return new UnsupportedProtocolVersionError(message, data);
    case -32021:
      return new MissingRequiredClientCapabilityError(message, data);
    case -32020:
      return new HeaderMismatchError(message, data);
    case -32002:
      return new ResourceNotFoundError(code, message, data);
    case -32602:
      // -32602 is also "invalid params"; only a uri in data marks a missing resource
      if (typeof (data as { uri?: unknown } | undefined)?.uri === "string") {
        return new ResourceNotFoundError(code, message, data);
      }
      return new McpError(code, message, data);
    default:
      return new McpError(code, message, data);
  }
}
