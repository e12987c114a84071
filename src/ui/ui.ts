/**
 * `mcp-inspect ui`: the inspector as a web page, served on this machine only.
 *
 * The page and this server share one live channel (Server-Sent Events on `/api/events`) and a
 * small JSON API (`POST /api/<operation>`). Every request must carry the random token printed
 * with the URL: the first visit trades `?token=` for an HttpOnly, SameSite=Strict cookie and a
 * redirect that takes the token out of the address bar. Host and Origin are checked with the
 * proxy's guard; a POST carrying only the cookie must also come from the page's own origin, so
 * no other web page, even one served from this machine, can act through the user's browser. The
 * page is static files shipped beside this module, under a Content-Security-Policy that allows
 * only them: no inline script, nothing from another origin, and every string a server sends is
 * shown as text.
 *
 * @module
 */

import { AuthorizationError, type JsonObject, McpError } from "../../mod.ts";
import type { TokenStore } from "../auth/mod.ts";
import { readLimited } from "../http_util.ts";
import type { ServerConfig } from "../config/config.ts";
import { isToken, randomToken, refuse } from "../server/guard.ts";
import { Hub, type HubEvent } from "./_hub.ts";
import { HubError } from "./_hub_error.ts";
import { operation } from "./_operations.ts";

/** Options of {@link InspectorUi.start}. */
export interface InspectorUiOptions {
  /** The port to bind on 127.0.0.1 (default 0: a free one). */
  port?: number | undefined;
  /** The token every request must carry (default: 32 random bytes). */
  token?: string | undefined;
  /** The servers to connect at once, by name. */
  servers?: Readonly<Record<string, ServerConfig>> | undefined;
  /** The largest request body, in bytes (default 4 MiB). */
  maxBodyBytes?: number | undefined;
  /** Where OAuth tokens are kept (default: the file `mcp-inspect auth login` writes). */
  tokenStore?: TokenStore | undefined;
}

/** The files of the page, and their types. Nothing else is ever read from the folder. */
const ASSETS: Record<string, string> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "add_server.js": "text/javascript; charset=utf-8",
  "api.js": "text/javascript; charset=utf-8",
  "auth.js": "text/javascript; charset=utf-8",
  "dom.js": "text/javascript; charset=utf-8",
  "form.js": "text/javascript; charset=utf-8",
  "layout.js": "text/javascript; charset=utf-8",
  "list.js": "text/javascript; charset=utf-8",
  "live.js": "text/javascript; charset=utf-8",
  "logs.js": "text/javascript; charset=utf-8",
  "overview.js": "text/javascript; charset=utf-8",
  "prompts.js": "text/javascript; charset=utf-8",
  "redraw.js": "text/javascript; charset=utf-8",
  "render.js": "text/javascript; charset=utf-8",
  "resources.js": "text/javascript; charset=utf-8",
  "state.js": "text/javascript; charset=utf-8",
  "tools.js": "text/javascript; charset=utf-8",
  "user_requests.js": "text/javascript; charset=utf-8",
  "widgets.js": "text/javascript; charset=utf-8",
  "wire.js": "text/javascript; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
};

/**
 * The page may run its own scripts and styles and show images and audio that servers send as
 * `data:` URLs; nothing else, from nowhere else.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src data:",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

const encoder = new TextEncoder();

/** How many events a live channel may fall behind before it is closed (the page reconnects). */
const MAX_QUEUED_EVENTS = 10_000;

/** The inspector's web server: the page, its API and its live channel. */
export class InspectorUi implements AsyncDisposable {
  /** The address to open, token included. */
  readonly url: URL;
  /** The page's origin, e.g. `http://127.0.0.1:8123`. */
  readonly origin: string;
  readonly #token: string;
  readonly #cookie: string;
  readonly #hub: Hub;
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #streams = new Set<() => void>();
  readonly #maxBody: number;
  readonly #assets = new Map<string, Uint8Array>();
  #closing: Promise<void> | undefined;

  private constructor(options: InspectorUiOptions) {
    this.#token = options.token ?? randomToken();
    this.#maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.#hub = new Hub({ store: options.tokenStore });
    // Checked before the port is bound, so that a config the hub refuses (a disabled server, a
    // bad field) throws with nothing left listening.
    const servers = Object.entries(options.servers ?? {});
    for (const [name, config] of servers) this.#hub.checked(name, config);
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: options.port ?? 0, onListen: () => {} },
      (request) => this.#handle(request),
    );
    const port = this.#server.addr.port;
    this.origin = `http://127.0.0.1:${port}`;
    // Cookies ignore ports: each inspector names its own, so two of them do not overwrite it.
    this.#cookie = `mcp_inspect_ui_${port}`;
    this.url = new URL(`/?token=${encodeURIComponent(this.#token)}`, this.origin);
    for (const [name, config] of servers) this.#hub.add(name, config);
  }

  /**
   * Starts the server on 127.0.0.1 and connects the given servers.
   *
   * @throws {Deno.errors.AddrInUse} when the port is taken.
   */
  static start(options: InspectorUiOptions = {}): InspectorUi {
    return new InspectorUi(options);
  }

  /** Resolves when the server has stopped. */
  get finished(): Promise<void> {
    return this.#server.finished;
  }

  async #handle(request: Request): Promise<Response> {
    try {
      return withSecurityHeaders(await this.#route(request));
    } catch (error) {
      return withSecurityHeaders(failure(error));
    }
  }

  async #route(request: Request): Promise<Response> {
    const port = this.#server.addr.port;
    const refused = refuse(request, {
      hostname: "127.0.0.1",
      allowedHosts: undefined,
      allowedOrigins: [this.origin, `http://localhost:${port}`],
      token: undefined,
    });
    if (refused) return refused;
    const url = new URL(request.url);
    const bearer = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
    const cookie = cookieValue(request.headers.get("cookie"), this.#cookie);
    // The first visit: the token from the URL becomes a cookie, and leaves the address bar.
    if (request.method === "GET" && url.pathname === "/" && url.searchParams.has("token")) {
      if (!isToken(url.searchParams.get("token"), this.#token)) return unauthorized();
      return new Response(null, {
        status: 303,
        headers: {
          location: "/",
          "set-cookie":
            `${this.#cookie}=${this.#token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=86400`,
        },
      });
    }
    const byHeader = isToken(bearer, this.#token);
    if (!byHeader && !isToken(cookie, this.#token)) return unauthorized();
    if (request.method === "GET" || request.method === "HEAD") return await this.#get(url);
    if (request.method !== "POST") {
      return new Response("Method Not Allowed\n", { status: 405, headers: { allow: "GET, POST" } });
    }
    // A cookie rides along with any request the browser makes: it is enough only from our page.
    if (!byHeader && request.headers.get("origin") !== this.origin) {
      return new Response("Forbidden: a POST needs the page's Origin or the token\n", {
        status: 403,
      });
    }
    if (!url.pathname.startsWith("/api/")) return notFound();
    if (!(request.headers.get("content-type") ?? "").startsWith("application/json")) {
      return json({ error: { message: "The body must be application/json" } }, 415);
    }
    const body = await this.#readBody(request);
    const result = await operation(this.#hub, url.pathname.slice("/api/".length), body);
    return json({ result: result ?? null });
  }

  async #get(url: URL): Promise<Response> {
    if (url.pathname === "/api/events") return this.#events();
    if (url.pathname === "/api/state") {
      return json({ servers: this.#hub.servers(), pending: this.#hub.pending() });
    }
    const name = url.pathname === "/" ? "index.html" : url.pathname.slice(1);
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (type === undefined) return notFound();
    return new Response(await this.#asset(name), { headers: { "content-type": type } });
  }

  async #asset(name: string): Promise<Uint8Array<ArrayBuffer>> {
    let bytes = this.#assets.get(name);
    if (!bytes) {
      const url = new URL(`./assets/${name}`, import.meta.url);
      // A local checkout or a compiled binary (deno compile --include) reads the file; a module
      // imported from JSR fetches it from beside this one.
      bytes = url.protocol === "file:"
        ? await Deno.readFile(url)
        : new Uint8Array(await (await fetch(url)).arrayBuffer());
      this.#assets.set(name, bytes);
    }
    return bytes as Uint8Array<ArrayBuffer>;
  }

  #events(): Response {
    let cleanup = () => {};
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const send = (event: HubEvent | { type: string; [key: string]: unknown }) => {
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED_EVENTS) {
            cleanup();
            controller.error(new Error("The page fell behind"));
            return;
          }
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
        };
        send({ type: "hello", servers: this.#hub.servers(), pending: this.#hub.pending() });
        const unsubscribe = this.#hub.subscribe(send);
        const keepAlive = setInterval(() => controller.enqueue(encoder.encode(": \n\n")), 15_000);
        const end = () => {
          cleanup();
          try {
            controller.close();
          } catch { /* already closed or errored */ }
        };
        cleanup = () => {
          unsubscribe();
          clearInterval(keepAlive);
          this.#streams.delete(end);
          cleanup = () => {};
        };
        this.#streams.add(end);
      },
      cancel: () => cleanup(),
    });
    return new Response(body, {
      headers: { "content-type": "text/event-stream", "x-accel-buffering": "no" },
    });
  }

  async #readBody(request: Request): Promise<JsonObject> {
    const length = Number(request.headers.get("content-length") ?? "0");
    const tooLarge = () => new HubError(`The body exceeds ${this.#maxBody} bytes`, 413);
    if (length > this.#maxBody) throw tooLarge();
    const text = await readLimited(request.body, this.#maxBody, tooLarge);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new HubError(`The body is not JSON: ${(error as Error).message}`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new HubError("The body must be a JSON object");
    }
    return value as JsonObject;
  }

  /** Stops serving, ends every live channel and closes every server's connection. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const end of [...this.#streams]) end();
      await this.#hub.close();
      await this.#server.shutdown();
    })();
    return this.#closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** An error as the page shows it: the message, and the server's code and data when it sent one. */
function failure(error: unknown): Response {
  if (error instanceof HubError) return json({ error: { message: error.message } }, error.status);
  if (error instanceof McpError) {
    return json({
      error: {
        message: error.message,
        code: error.code,
        ...(error.data !== undefined ? { data: error.data } : {}),
      },
    }, 502);
  }
  const status = error instanceof AuthorizationError ? 401 : 500;
  const message = error instanceof Error ? error.message : String(error);
  return json({ error: { message, kind: (error as Error)?.name ?? "Error" } }, status);
}

function unauthorized(): Response {
  return new Response(
    "Unauthorized: open the address mcp-inspect ui printed, token included\n",
    { status: 401, headers: { "content-type": "text/plain; charset=utf-8" } },
  );
}

function notFound(): Response {
  return new Response("Not Found\n", { status: 404 });
}

function withSecurityHeaders(response: Response): Response {
  for (const [key, value] of Object.entries(SECURITY_HEADERS)) {
    if (!response.headers.has(key)) response.headers.set(key, value);
  }
  return response;
}
