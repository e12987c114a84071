// OAuth for the page's remote servers: what is stored, a login whose every request and answer the
// page shows, forgetting the tokens, and the fetch a connection authorizes its requests with.
// Tokens live in the store `mcp-inspect auth login` writes, so a login on the page serves the
// CLI, and the other way round.

import type { HttpServerConfig, ServerConfig } from "../config/config.ts";
import { OAuthProvider, type TokenStore } from "../auth/mod.ts";
import { HubError } from "./_hub_error.ts";
import { type AuthStep, tracedFetch } from "./_login_trace.ts";

/** How the page lets the user authorize: where to come back to, and how to open the URL. */
export interface PageInteraction {
  redirectUri: string;
  openAuthorizationUrl(url: URL, options: { signal?: AbortSignal }): Promise<URL | string>;
}

/** The OAuth state of the page's remote servers, and the logins running. */
export class Logins {
  readonly #store: TokenStore;
  readonly #running = new Map<string, AbortController>();

  constructor(store: TokenStore) {
    this.#store = store;
  }

  /**
   * The fetch a connection to a remote server sends its requests with: one that adds the tokens
   * stored by a login (here or with `mcp-inspect auth login`), unless the config sends its own
   * Authorization header; `undefined` for a stdio server.
   */
  connectionFetch(config: ServerConfig): typeof fetch | undefined {
    if ("command" in config) return undefined;
    const headers = config.headers ?? {};
    const own = Object.keys(headers).some((key) => key.toLowerCase() === "authorization");
    if (own) return undefined;
    return new OAuthProvider({ serverUrl: config.url, store: this.#store }).fetch;
  }

  /** What is stored of a server's OAuth authorization (no secret), or null. */
  async status(name: string, config: ServerConfig): Promise<unknown> {
    const remote = remoteConfig(name, config);
    return await new OAuthProvider({ serverUrl: remote.url, store: this.#store }).status() ??
      null;
  }

  /**
   * Logs in to a remote server's authorization server, step by step: every request and answer
   * of discovery, registration and the token exchange goes to `step`, secrets hidden and the
   * rest through `redact`, and the authorization URL to the page to open.
   */
  async login(name: string, config: ServerConfig, options: {
    interaction: PageInteraction;
    step: (step: AuthStep) => void;
    redact: (text: string) => string;
  }): Promise<unknown> {
    const remote = remoteConfig(name, config);
    if (this.#running.has(name)) throw new HubError(`A login to "${name}" is running`, 409);
    const { interaction, step, redact } = options;
    const controller = new AbortController();
    this.#running.set(name, controller);
    try {
      const provider = new OAuthProvider({
        serverUrl: remote.url,
        store: this.#store,
        signal: controller.signal,
        interaction: {
          redirectUri: interaction.redirectUri,
          openAuthorizationUrl: (url, options) => {
            step({ phase: "authorize", label: "Authorization", detail: { url: url.href } });
            return interaction.openAuthorizationUrl(url, options);
          },
        },
        onLog: (line) => step({ phase: "note", label: redact(line) }),
        fetch: tracedFetch(step, redact),
      });
      const status = await provider.authorize();
      step({ phase: "done", label: "Authorized", detail: status });
      return status;
    } catch (error) {
      step({ phase: "failed", label: (error as Error).message });
      throw error;
    } finally {
      this.#running.delete(name);
    }
  }

  /** Forgets the tokens stored for a remote server. */
  async logout(name: string, config: ServerConfig): Promise<boolean> {
    const remote = remoteConfig(name, config);
    return await new OAuthProvider({ serverUrl: remote.url, store: this.#store }).logout();
  }

  /** Ends every running login: the page is closing. */
  abortAll(reason: Error): void {
    for (const login of this.#running.values()) login.abort(reason);
  }
}

function remoteConfig(name: string, config: ServerConfig): HttpServerConfig {
  if ("command" in config) throw new HubError(`Server "${name}" runs on stdio: no OAuth`);
  return config;
}
