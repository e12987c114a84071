/**
 * Errors of the {@link ToolRegistry} itself.
 *
 * @module
 */

/**
 * A local tool that cannot be registered: its name is invalid, reserved or taken, or its
 * schema does not compile.
 *
 * @example Telling why a tool was refused
 * ```ts
 * import { ToolRegistrationError, ToolRegistry } from "@mcp-inspect/client/manager";
 * using registry = new ToolRegistry();
 * const tool = { name: "hi", inputSchema: { type: "object" }, handler: () => "hi" };
 * registry.register(tool);
 * try {
 *   registry.register(tool);
 * } catch (error) {
 *   if (!(error instanceof ToolRegistrationError)) throw error;
 *   console.error(error.tool, error.reason);
 *   // "hi" "duplicate"
 * }
 * ```
 */
export class ToolRegistrationError extends Error {
  /** The tool's name. */
  readonly tool: string;
  /** Why it was refused. */
  readonly reason: "invalid-name" | "reserved-name" | "duplicate" | "invalid-schema";

  /**
   * Builds the message from the fields and the detail.
   *
   * @example Building the error
   * ```ts
   * import { ToolRegistrationError } from "@mcp-inspect/client/manager";
   * console.log(new ToolRegistrationError("add", "duplicate", "a tool of that name exists").message);
   * ```
   */
  constructor(
    tool: string,
    reason: ToolRegistrationError["reason"],
    detail: string,
    options?: ErrorOptions,
  ) {
    super(`Cannot register tool "${tool}": ${detail}`, options);
    this.name = "ToolRegistrationError";
    this.tool = tool;
    this.reason = reason;
  }
}
