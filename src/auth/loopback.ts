/**
 * The user's side of the authorization code flow for a command-line program: a one-shot HTTP
 * listener on 127.0.0.1 (RFC 8252 section 7.3) receives the redirect from the browser.
 *
 * @module
 */

import { OAuthError } from "./errors.ts";
import type { AuthorizationInteraction } from "./types.ts";
import { openBrowser } from "./browser.ts";

/**
 * Options of {@link LoopbackAuthorization.start}.
 *
 * @example Printing the URL instead of opening a browser
 * ```ts
 * import type { LoopbackAuthorizationOptions } from "@mcp-inspect/client/auth";
 * const options: LoopbackAuthorizationOptions = { openBrowser: false, onUrl: (url) => console.log(url.href) };
 * ```
 */
export interface LoopbackAuthorizationOptions {
  /** Open the authorization URL in the system browser (default true). */
  openBrowser?: boolean;
  /** Receives the authorization URL, to show it to the user (always called). */
  onUrl?: (url: URL) => void;
  /** How long to wait for the browser to come back (default 5 minutes). */
  timeoutMs?: number;
  /** The port to listen on (default: a random free one). */
  port?: number;
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>mcp-inspect</title>
<p>Authorization finished. You can close this tab and return to the terminal.</p>`;

/**
 * Listens on `http://127.0.0.1:<port>/callback` for exactly one authorization response, then
 * closes. The page it shows repeats nothing from the response. Pass it as the `interaction` of
 * an {@link OAuthProvider}.
 *
 * @example Logging in from a command-line program
 * ```ts ignore
 * import { LoopbackAuthorization, OAuthProvider } from "@mcp-inspect/client/auth";
 * await using login = await LoopbackAuthorization.start({ onUrl: (url) => console.error(`Open ${url}`) });
 * const provider = new OAuthProvider({ serverUrl: "https://mcp.example.com/mcp", interaction: login });
 * await provider.authorize();
 * ```
 */
export class LoopbackAuthorization implements AuthorizationInteraction, AsyncDisposable {
  /** The redirect URI to register: `http://127.0.0.1:<port>/callback`. */
  readonly redirectUri: string;
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #options: LoopbackAuthorizationOptions;
  readonly #callback: PromiseWithResolvers<URL> = Promise.withResolvers();
  #used = false;
  #closing: Promise<void> | undefined;

  private constructor(options: LoopbackAuthorizationOptions) {
    this.#options = options;
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: options.port ?? 0, onListen() {} },
      (request) => this.#handle(request),
    );
    this.redirectUri = `http://127.0.0.1:${this.#server.addr.port}/callback`;
  }

  /**
   * Starts listening.
   *
   * @example Listening on a free loopback port
   * ```ts
   * import { LoopbackAuthorization } from "@mcp-inspect/client/auth";
   * await using login = await LoopbackAuthorization.start({ openBrowser: false });
   * console.log(login.redirectUri.startsWith("http://127.0.0.1:")); // true
   * ```
   */
  static start(options: LoopbackAuthorizationOptions = {}): Promise<LoopbackAuthorization> {
    return Promise.resolve(new LoopbackAuthorization(options));
  }

  #handle(request: Request): Response {
    const url = new URL(request.url);
    if (request.method !== "GET" || url.pathname !== "/callback" || this.#used) {
      return new Response("Not found", { status: 404 });
    }
    this.#used = true;
    this.#callback.resolve(new URL(`${this.redirectUri}${url.search}`));
    return new Response(PAGE, {
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
    });
  }

  /**
   * Shows the URL (and opens the browser), then waits for the one callback.
   *
   * @example Receiving the redirect, with `fetch` playing the browser
   * ```ts
   * import { LoopbackAuthorization } from "@mcp-inspect/client/auth";
   * let browser: Promise<string> | undefined;
   * await using login = await LoopbackAuthorization.start({
   *   openBrowser: false,
   *   onUrl: () => browser = fetch(`${login.redirectUri}?code=abc`).then((r) => r.text()),
   * });
   * const authorize = new URL("https://auth.example.com/authorize");
   * const callback = await login.openAuthorizationUrl(authorize);
   * await browser;
   * console.log(callback.searchParams.get("code")); // "abc"
   * ```
   */
  async openAuthorizationUrl(url: URL, options: { signal?: AbortSignal } = {}): Promise<URL> {
    this.#options.onUrl?.(url);
    if (this.#options.openBrowser ?? true) await openBrowser(url);
    const timeoutMs = this.#options.timeoutMs ?? 5 * 60_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new OAuthError(
              `No authorization response within ${Math.round(timeoutMs / 1000)} s`,
              "authorization",
            ),
          ),
        timeoutMs,
      );
      onAbort = () => reject(options.signal?.reason);
      options.signal?.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([this.#callback.promise, stop]);
    } finally {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener("abort", onAbort);
      await this.close();
    }
  }

  /**
   * Stops listening. Idempotent.
   *
   * @example Giving up before the browser comes back
   * ```ts
   * import { LoopbackAuthorization } from "@mcp-inspect/client/auth";
   * const login = await LoopbackAuthorization.start({ openBrowser: false });
   * await login.close();
   * await login.close(); // already closed: returns at once
   * ```
   */
  close(): Promise<void> {
    this.#closing ??= this.#server.shutdown();
    return this.#closing;
  }

  /**
   * Same as {@link close}.
   *
   * @example Stopping the listener at the end of a scope
   * ```ts
   * import { LoopbackAuthorization } from "@mcp-inspect/client/auth";
   * await using login = await LoopbackAuthorization.start({ openBrowser: false });
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
