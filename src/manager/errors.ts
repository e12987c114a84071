/**
 * Errors the {@link ServerManager} raises itself, before or instead of contacting a server.
 *
 * @module
 */

import { headline } from "./_headline.ts";

/**
 * A tool call refused because the server's `deny` list matches the tool, or its `allow` list
 * does not. The server is never contacted. A skill the lists refuse is a {@link SkillDeniedError}.
 *
 * @example Telling a refused tool from other failures
 * ```ts
 * import { ServerManager, ToolDeniedError } from "@mcp-inspect/client/manager";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "drop_table" }] });
 * await using manager = new ServerManager({ createTransport: () => fake.transport() });
 * await manager.connect("db", { command: "db", deny: ["drop_*"] });
 * try {
 *   await manager.callTool("db", "drop_table", {});
 * } catch (error) {
 *   if (!(error instanceof ToolDeniedError)) throw error;
 *   console.error(error.rule, error.pattern);
 *   // "deny" "drop_*"
 * }
 * ```
 */
export class ToolDeniedError extends Error {
  /** The server's name. */
  readonly server: string;
  /** The tool's own name. */
  readonly tool: string;
  /** `"deny"`: a deny pattern matched; `"allow"`: no allow pattern matched. */
  readonly rule: "deny" | "allow";
  /** The deny pattern that matched. */
  readonly pattern: string | undefined;

  /**
   * Builds the message from the fields.
   *
   * @example The message of a deny-list refusal
   * ```ts
   * import { ToolDeniedError } from "@mcp-inspect/client/manager";
   * console.log(new ToolDeniedError("db", "drop_table", "deny", "drop_*").message);
   * ```
   */
  constructor(server: string, tool: string, rule: "deny" | "allow", pattern?: string) {
    super(refusalMessage("Tool", server, tool, rule, pattern));
    this.name = "ToolDeniedError";
    this.server = server;
    this.tool = tool;
    this.rule = rule;
    this.pattern = pattern;
  }
}

/**
 * A skill load refused because the server's `deny` list matches the skill's name, or its `allow`
 * list does not: the lists that filter tools filter skills too. It is a {@link ToolDeniedError}
 * (whose `tool` holds the skill's name), so code that catches refused tools catches it as well;
 * only the message and {@link SkillDeniedError.skill} name it a skill.
 *
 * @example Telling a refused skill from a refused tool
 * ```ts
 * import { ServerManager, SkillDeniedError } from "@mcp-inspect/client/manager";
 *
 * // A fake skills server of this repository, run as a child process
 * const args = ["run", "--allow-all", "--no-config", "testdata/servers/skills.ts", "--honest"];
 * await using manager = new ServerManager();
 * await manager.setServers({ docs: { command: Deno.execPath(), args } });
 * const { skills: [skill] } = await manager.listSkills();
 * await manager.setServers({ docs: { command: Deno.execPath(), args, deny: ["pdf-*"] } });
 * try {
 *   await manager.loadSkill(skill!); // listed before the deny list changed
 * } catch (error) {
 *   if (!(error instanceof SkillDeniedError)) throw error;
 *   console.error(error.skill, error.rule, error.pattern);
 *   // "pdf-processing" "deny" "pdf-*"
 * }
 * ```
 */
export class SkillDeniedError extends ToolDeniedError {
  /** The skill's name: its frontmatter `name`, else its URI, as the lists matched it. */
  readonly skill: string;

  /**
   * Builds the message from the fields.
   *
   * @example The message of a refused skill
   * ```ts
   * import { SkillDeniedError } from "@mcp-inspect/client/manager";
   * console.log(new SkillDeniedError("docs", "pdf-processing", "deny", "pdf-*").message);
   * ```
   */
  constructor(server: string, skill: string, rule: "deny" | "allow", pattern?: string) {
    super(server, skill, rule, pattern);
    this.message = refusalMessage("Skill", server, skill, rule, pattern);
    this.name = "SkillDeniedError";
    this.skill = skill;
  }
}

/**
 * The one sentence of a refusal by the lists, for a tool or a skill: the manager's errors, the
 * CLI and the web page word a refusal alike.
 */
export function refusalMessage(
  what: "Tool" | "Skill",
  server: string,
  name: string,
  rule: "deny" | "allow",
  pattern: string | undefined,
): string {
  const why = rule === "deny"
    ? `it matches the deny list ("${pattern}")`
    : "it is not in the allow list";
  return `${what} "${name}" of server "${server}" is refused: ${why}`;
}

/**
 * A qualified tool or prompt name, or a resource URI, that no configured server offers.
 *
 * @example The message of an unknown tool
 * ```ts
 * import { UnknownToolError } from "@mcp-inspect/client/manager";
 * console.log(new UnknownToolError("mcp__files__read").message);
 * ```
 */
export class UnknownToolError extends Error {
  /** The qualified name asked for. */
  readonly qualifiedName: string;

  /**
   * Builds the message from the name.
   *
   * @example An unknown prompt rather than a tool
   * ```ts
   * import { UnknownToolError } from "@mcp-inspect/client/manager";
   * const error = new UnknownToolError("mcp__a__b", "prompt");
   * ```
   */
  constructor(
    qualifiedName: string,
    kind: "tool" | "prompt" | "resource" | "skill" = "tool",
  ) {
    super(`Unknown ${kind} "${qualifiedName}": no configured server offers it`);
    this.name = "UnknownToolError";
    this.qualifiedName = qualifiedName;
  }
}

/**
 * A server that cannot take a call now: unknown, disabled, closed, or failed and not back in
 * time. `cause` holds the server's last error, if any.
 *
 * @example Telling an unavailable server from other failures
 * ```ts
 * import { ServerManager, ServerUnavailableError } from "@mcp-inspect/client/manager";
 *
 * await using manager = new ServerManager();
 * await manager.connect("files", { command: "files", disabled: true });
 * try {
 *   await manager.callTool("files", "read", { path: "a" }, { whileReconnecting: "fail" });
 * } catch (error) {
 *   if (!(error instanceof ServerUnavailableError)) throw error;
 *   console.error(error.server, error.state);
 *   // "files" "disabled"
 * }
 * ```
 */
export class ServerUnavailableError extends Error {
  /** The server's name. */
  readonly server: string;
  /** Its state when the call gave up, or `"unknown"` when no server has that name. */
  readonly state: string;

  /**
   * Builds the message from the fields and the last error.
   *
   * @example The message of a disabled server
   * ```ts
   * import { ServerUnavailableError } from "@mcp-inspect/client/manager";
   * console.log(new ServerUnavailableError("files", "disabled").message);
   * ```
   */
  constructor(server: string, state: string, lastError?: Error, detail?: string) {
    // The last error's first line only: its stderr tail was shown once, with the crash itself.
    const why = state === "unknown"
      ? "no server has that name"
      : detail ?? `it is ${state}${lastError ? ` (last error: ${headline(lastError)})` : ""}`;
    super(`Server "${server}" is not available: ${why}`, lastError ? { cause: lastError } : {});
    this.name = "ServerUnavailableError";
    this.server = server;
    this.state = state;
  }
}
