// The allow and deny lists of a server taken from a config file, as the one-server commands apply
// them: `tools list` hides what they refuse, and a call of a refused tool fails before anything
// is sent, as the manager and the proxy would refuse it. Without this, `--config` would serve the
// very tool the user's config hides from every other client. The manager applies the same lists
// to skill names (src/manager/_skills.ts), and so do the `skills` commands.

import type { ServerConfig } from "../config/config.ts";
import type { ToolRefusal } from "../config/policy.ts";
import { refusalMessage, ToolDeniedError } from "../manager/errors.ts";

/** A server of a config file: its name, the file it came from, and its entry. */
export interface ConfiguredServer {
  name: string;
  file: string;
  config: ServerConfig;
}

/** What the lists refuse: a tool, or a skill (matched by its name as the manager does). */
export type Refused = "tool" | "skill";

/**
 * A tool or skill refused by the lists of the config file the server came from: the manager's
 * refusal, with the file named, so that the user knows where to change it.
 */
export class ConfigRefusalError extends ToolDeniedError {
  /** The config file whose lists refused the tool. */
  readonly file: string;
  /** Whether a tool or a skill was refused. */
  readonly kind: Refused;

  constructor(server: string, name: string, refusal: ToolRefusal, file: string, kind: Refused) {
    super(server, name, refusal.rule, refusal.pattern);
    // The manager's own sentence for what was refused, so that the CLI and the manager word one
    // refusal alike; the file comes after it.
    const what = kind === "skill" ? "Skill" : "Tool";
    const sentence = refusalMessage(what, server, name, refusal.rule, refusal.pattern);
    this.message = `${sentence} of ${file}`;
    this.file = file;
    this.kind = kind;
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

  /** The error for a refused tool (or skill), or `undefined` when the lists allow it. */
  refusal(name: string, kind: Refused = "tool"): ConfigRefusalError | undefined {
    const refused = this.#refusal(this.#server.config, name);
    return refused && new ConfigRefusalError(this.server, name, refused, this.file, kind);
  }

  /** Throws {@link ConfigRefusalError} when the lists refuse the tool (or skill) `name`. */
  check(name: string, kind: Refused = "tool"): void {
    const refused = this.refusal(name, kind);
    if (refused) throw refused;
  }

  /**
   * The tools the lists allow, in order; `note` gets one line saying how many were hidden, when
   * any were, so that a shorter list than the server's is never a silent surprise.
   */
  allowed<T extends { name: string }>(tools: readonly T[], note?: (line: string) => void): T[] {
    return this.#allowed(tools, (tool) => tool.name, "tool", note);
  }

  /**
   * The skills the lists allow, in order, each matched by `name(skill)` (the manager's rule: its
   * frontmatter name, else its URI); `note` as for {@link allowed}.
   */
  allowedSkills<T>(
    skills: readonly T[],
    name: (skill: T) => string,
    note?: (line: string) => void,
  ): T[] {
    return this.#allowed(skills, name, "skill", note);
  }

  #allowed<T>(
    items: readonly T[],
    name: (item: T) => string,
    kind: Refused,
    note: ((line: string) => void) | undefined,
  ): T[] {
    const allowed = items.filter((item) => !this.#refusal(this.#server.config, name(item)));
    const hidden = items.length - allowed.length;
    if (hidden > 0) {
      note?.(
        `${hidden} ${kind}(s) hidden by the allow/deny lists of server "${this.server}" in ${this.file}`,
      );
    }
    return allowed;
  }
}
