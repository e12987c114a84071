/**
 * Hiding secrets wherever text is shown: a server's stderr quoted in an error, a wire log, a
 * proxy log, `servers --json`. The secrets are the values the user handed us (environment
 * variables, HTTP headers, credentials inside URLs); each occurrence becomes `***`.
 *
 * @module
 */

/**
 * What a secret is replaced with.
 *
 * @example Checking whether a text had a secret hidden
 * ```ts
 * import { REDACTED, Redactor } from "@mcp-inspect/client";
 * const text = new Redactor(["hunter22"]).redact("password=hunter22");
 * console.log(text.includes(REDACTED)); // true
 * ```
 */
export const REDACTED: string = "***";

/**
 * Values shorter than this are never treated as secrets: hiding `1` or `on` everywhere would
 * mangle every line while protecting nothing.
 *
 * @example A value too short to be hidden
 * ```ts
 * import { MIN_SECRET_LENGTH, Redactor } from "@mcp-inspect/client";
 * console.log(MIN_SECRET_LENGTH); // 4
 * console.log(new Redactor(["on"]).redact("debug on")); // "debug on"
 * ```
 */
export const MIN_SECRET_LENGTH: number = 4;

/** Query parameters whose values are credentials (`?token=`, `&api_key=`, `&sig=`, …). */
const SECRET_PARAM = /token|key|secret|pass|pwd|auth|sig|credential|session|code/i;

/**
 * A set of secret values, and the one function that hides them in text.
 *
 * @example Hiding an environment value and a URL's credentials
 * ```ts
 * import { Redactor } from "@mcp-inspect/client";
 * const redactor = new Redactor(["s3cr3t-value"]).addUrl("https://me:hunter22@example.com/mcp");
 * console.log(redactor.redact("token s3cr3t-value, password hunter22")); // "token ***, password ***"
 * ```
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  #sorted: string[] | undefined;

  /**
   * Creates a redactor holding `secrets` (values shorter than {@link MIN_SECRET_LENGTH} are
   * skipped).
   *
   * @example Short values are skipped
   * ```ts
   * import { Redactor } from "@mcp-inspect/client";
   * console.log(new Redactor(["abcd", "x"]).size); // 1
   * ```
   */
  constructor(secrets: Iterable<string> = []) {
    for (const secret of secrets) this.add(secret);
  }

  /**
   * How many secrets are held.
   *
   * @example Counting the secrets of a server's environment
   * ```ts
   * import { Redactor } from "@mcp-inspect/client";
   * const redactor = new Redactor().addServer({ env: { API_KEY: "k-12345", DEBUG: "1" } });
   * console.log(redactor.size); // 1: DEBUG's "1" is too short to hide
   * ```
   */
  get size(): number {
    return this.#secrets.size;
  }

  /**
   * Adds one secret value.
   *
   * @example Hiding a password
   * ```ts
   * import { Redactor } from "@mcp-inspect/client";
   * console.log(new Redactor().add("p4ssw0rd").redact("pw=p4ssw0rd")); // "pw=***"
   * ```
   */
  add(secret: string): this {
    if (secret.length >= MIN_SECRET_LENGTH && !this.#secrets.has(secret)) {
      this.#secrets.add(secret);
      this.#sorted = undefined;
    }
    return this;
  }

  /**
   * Adds header values, and the credentials after a scheme (`Bearer <token>`) on their own.
   *
   * @example Hiding a bearer token
   * ```ts
   * import { Redactor } from "@mcp-inspect/client";
   * const redactor = new Redactor().addHeaders({ Authorization: "Bearer abc123" });
   * console.log(redactor.redact("got abc123")); // "got ***"
   * ```
   */
  addHeaders(
    headers: Iterable<readonly [string, string]> | Readonly<Record<string, string>>,
  ): this {
    const entries = Symbol.iterator in headers
      ? [...(headers as Iterable<readonly [string, string]>)]
      : Object.entries(headers);
    for (const [, value] of entries) {
      this.add(value);
      const credentials = value.match(/^\S+\s+(\S+)$/)?.[1];
      if (credentials) this.add(credentials);
    }
    return this;
  }

  /**
   * Adds the credentials a URL carries: its user name and password, and the values of query
   * parameters named like credentials (`token`, `key`, `secret`, `password`, `auth`, `sig`, …),
   * both as written and decoded. A text that is not a URL adds nothing.
   *
   * @example Hiding a credential in a query
   * ```ts
   * import { Redactor } from "@mcp-inspect/client";
   * const redactor = new Redactor().addUrl("https://example.com/mcp?api_key=k3y-123&page=2");
   * console.log(redactor.redact("key k3y-123 on page 2")); // "key *** on page 2"
   * ```
   */
  addUrl(url: string | URL): this {
    for (const secret of urlSecrets(url)) this.add(secret);
    return this;
  }

  /**
   * Adds every secret of a server config: `env` values, `headers` values and the URL's
   * credentials.
   *
   * @example Hiding the values of a server's environment
   * ```ts
   * import { Redactor } from "@mcp-inspect/client";
   * const redactor = new Redactor().addServer({ env: { TOKEN: "t0k3n-abc" } });
   * console.log(redactor.redact("TOKEN=t0k3n-abc")); // "TOKEN=***"
   * ```
   */
  addServer(
    config: {
      url?: string;
      headers?: Readonly<Record<string, string>>;
      env?: Readonly<Record<string, string>>;
    },
  ): this {
    // The shape of a `ServerConfig` (from the manager's entry point), without importing it: the
    // client's entry point loads nothing of the manager.
    if (config.url !== undefined) {
      this.addUrl(config.url);
      this.addHeaders(config.headers ?? {});
    } else {
      for (const value of Object.values(config.env ?? {})) this.add(value);
    }
    return this;
  }

  /**
   * Replaces every occurrence of every secret in `text` with {@link REDACTED}, the longest
   * secrets first (so that a token inside a longer header value is not half replaced).
   *
   * @example Hiding a secret in a line of text
   * ```ts
   * import { Redactor } from "@mcp-inspect/client";
   * console.log(new Redactor(["hunter2!"]).redact("password: hunter2!")); // "password: ***"
   * ```
   */
  redact(text: string): string {
    if (this.#secrets.size === 0) return text;
    this.#sorted ??= [...this.#secrets].sort((a, b) => b.length - a.length);
    let out = text;
    for (const secret of this.#sorted) {
      if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    }
    return out;
  }

  /**
   * Redacts an error's message and stack in place, and returns it: the error keeps its class and
   * fields, and whoever else holds it sees the redacted text too.
   *
   * @example Hiding a secret in an error message
   * ```ts
   * import { Redactor } from "@mcp-inspect/client";
   * const error = new Redactor(["t0k3n-xyz"]).redactError(new Error("bad token t0k3n-xyz"));
   * console.log(error.message); // "bad token ***"
   * ```
   */
  redactError<E extends Error>(error: E): E {
    const message = this.redact(error.message);
    if (message === error.message) return error;
    try {
      error.message = message;
      if (error.stack !== undefined) error.stack = this.redact(error.stack);
    } catch {
      // a frozen error: there is nothing we can change
    }
    return error;
  }
}

/** The credentials inside a URL, as written and decoded; none for a text that is not a URL. */
function urlSecrets(url: string | URL): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found: string[] = [];
  const both = (raw: string) => {
    found.push(raw);
    try {
      found.push(decodeURIComponent(raw));
    } catch {
      // not valid percent-encoding: the raw form is all there is
    }
  };
  if (parsed.username) both(parsed.username);
  if (parsed.password) both(parsed.password);
  for (const pair of parsed.search.slice(1).split("&")) {
    const equals = pair.indexOf("=");
    if (equals === -1) continue;
    const name = decodeSafely(pair.slice(0, equals));
    if (SECRET_PARAM.test(name)) both(pair.slice(equals + 1).replaceAll("+", "%20"));
  }
  return found.filter((value) => value !== "");
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A URL fit to be shown: user name, password and credential-like query values replaced with
 * {@link REDACTED}. A text that is not a URL is returned as it is.
 *
 * @example Showing a URL without its credentials
 * ```ts
 * import { redactUrl } from "@mcp-inspect/client";
 * console.log(redactUrl("https://me:pw@example.com/mcp?token=abc&x=1"));
 * // "https://***:***@example.com/mcp?token=***&x=1"
 * ```
 */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return String(url);
  }
  const user = parsed.username ? REDACTED : "";
  const userinfo = parsed.username || parsed.password
    ? `${user}${parsed.password ? `:${REDACTED}` : ""}@`
    : "";
  const search = parsed.search.slice(1).split("&").map((pair) => {
    const equals = pair.indexOf("=");
    if (equals === -1 || !SECRET_PARAM.test(decodeSafely(pair.slice(0, equals)))) return pair;
    return `${pair.slice(0, equals + 1)}${REDACTED}`;
  }).join("&");
  // Built by hand: URL's own setters would percent-encode the asterisks.
  const authority = parsed.host ? `//${userinfo}${parsed.host}` : "";
  return `${parsed.protocol}${authority}${parsed.pathname}${
    search ? `?${search}` : ""
  }${parsed.hash}`;
}
