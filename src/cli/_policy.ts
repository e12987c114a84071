// The allow and deny lists of a server taken from a config file, as the one-server commands apply
// them: `tools list` hides what they refuse, and a call of a refused tool fails before anything
// is sent, as the manager and the proxy would refuse it. Without this, `--config` would serve the
// very tool the user's config hides from every other client.

import type { ServerConfig } from "../config/config.ts";
import type { ToolRefusal } from "../config/policy.ts";
import { ToolDeniedError } from "../manager/errors.ts";

/** A server of a config file: its name, the file it came from, and its entry. */
export interface ConfiguredServer {
  name: string;
  file: string;
  config: ServerConfig;
}

/**
 * A tool refused by the lists of the config file the server came from: the manager's refusal,
 * with the file named, so that the user knows where to change it.
 */
export class ConfigRefusalError extends ToolDeniedError {
  /** The config file whose lists refused the tool. */
  readonly file: string;

  constructor(server: string, tool: string, refusal: ToolRefusal, file: string) {
    super(server, tool, refusal.rule, refusal.pattern);
    this.message = `${this.message} of ${file}`;
    this.file = file;
  }
}

/** The lists of one configured server. */
export class ToolPolicy {
  readonly #server: ConfiguredServer;
  readonly #refusal: (policy: ServerConfig, tool: string) => ToolRefusal | undefined;

  private constructor(
    server: ConfiguredServer,
    refusal: (policy: ServerConfig, tool: string) => ToolRefusal | undefined,
  ) {
    this.#server = server;
    this.#refusal = refusal;
  }

  /**
   * The policy of a configured server, or `undefined` when its entry has no lists. The matcher
   * (and minimatch with it) is imported only then: most entries have none, and a one-shot
   * command should load no more than it needs.
   */
  static async of(server: ConfiguredServer): Promise<ToolPolicy | undefined> {
    if (server.config.allow === undefined && server.config.deny === undefined) return undefined;
    const { toolRefusal } = await import("../config/policy.ts");
    return new ToolPolicy(server, toolRefusal);
  }

  /** The server's name in the config file. */
  get server(): string {
    return this.#server.name;
  }

  /** The config file. */
  get file(): string {
    return this.#server.file;
  }

  /** The error for a refused tool, or `undefined` when the lists allow it. */
  refusal(tool: string): ConfigRefusalError | undefined {
    const refused = this.#refusal(this.#server.config, tool);
    return refused && new ConfigRefusalError(this.server, tool, refused, this.file);
  }

  /** Throws {@link ConfigRefusalError} when the lists refuse `tool`. */
  check(tool: string): void {
    const refused = this.refusal(tool);
    if (refused) throw refused;
  }

  /**
   * The tools the lists allow, in order; `note` gets one line saying how many were hidden, when
   * any were, so that a shorter list than the server's is never a silent surprise.
   */
  allowed<T extends { name: string }>(tools: readonly T[], note?: (line: string) => void): T[] {
    const allowed = tools.filter((tool) => !this.#refusal(this.#server.config, tool.name));
    const hidden = tools.length - allowed.length;
    if (hidden > 0) {
      note?.(
        `${hidden} tool(s) hidden by the allow/deny lists of server "${this.server}" in ${this.file}`,
      );
    }
    return allowed;
  }
}
