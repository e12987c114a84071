/**
 * A {@link TokenStore} in one JSON file under the user's config directory, readable by the user
 * alone (mode 0600 in a 0700 directory), replaced atomically on every write.
 *
 * @module
 */

import type { AuthRecord, TokenStore } from "./store.ts";

interface StoreFile {
  version: 1;
  servers: Record<string, AuthRecord>;
}

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * Where {@link FileTokenStore} keeps credentials by default: `$MCP_INSPECT_CREDENTIALS` when
 * set, else `mcp-inspect/credentials.json` in the user's config directory (`$XDG_CONFIG_HOME` or
 * `~/.config`, `~/Library/Application Support` on macOS, `%APPDATA%` on Windows).
 *
 * @example Where the credentials file is
 * ```ts
 * import { defaultCredentialsPath } from "@mcp-inspect/client/auth";
 * console.log(defaultCredentialsPath().endsWith("credentials.json")); // true
 * ```
 */
export function defaultCredentialsPath(): string {
  const explicit = env("MCP_INSPECT_CREDENTIALS");
  if (explicit) return explicit;
  const home = env("HOME") ?? env("USERPROFILE") ?? ".";
  const os = Deno.build.os;
  const base = os === "windows"
    ? env("APPDATA") ?? `${home}\\AppData\\Roaming`
    : os === "darwin"
    ? `${home}/Library/Application Support`
    : env("XDG_CONFIG_HOME") ?? `${home}/.config`;
  const sep = os === "windows" ? "\\" : "/";
  return `${base}${sep}mcp-inspect${sep}credentials.json`;
}

/**
 * Keeps authorization records in a JSON file. Every write goes to a temporary file created with
 * mode 0600 and is renamed over the old one, so a crash never leaves half a file and the
 * secrets are never readable by other users, not even briefly. A file found with wider
 * permissions is tightened on first read.
 *
 * @example Storing tokens for the CLI
 * ```ts
 * import { FileTokenStore, OAuthProvider } from "@mcp-inspect/client/auth";
 * const provider = new OAuthProvider({
 *   serverUrl: "https://mcp.example.com/mcp",
 *   store: new FileTokenStore(),
 * });
 * ```
 */
export class FileTokenStore implements TokenStore {
  /** The file the records live in. */
  readonly path: string;
  #checked = false;
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * Uses `path`, or {@link defaultCredentialsPath}. Nothing is touched until the first call.
   *
   * @example A store in a file of one's choosing
   * ```ts
   * import { FileTokenStore } from "@mcp-inspect/client/auth";
   * const store = new FileTokenStore("/tmp/mcp-inspect-test/credentials.json");
   * console.log(store.path);
   * ```
   */
  constructor(path: string = defaultCredentialsPath()) {
    this.path = path;
  }

  /**
   * The record of a server, if any.
   *
   * @example Reading back what was stored
   * ```ts
   * import { FileTokenStore } from "@mcp-inspect/client/auth";
   * const dir = await Deno.makeTempDir();
   * const store = new FileTokenStore(`${dir}/credentials.json`);
   * console.log(await store.get("https://mcp.example.com/mcp")); // undefined
   * await store.set("https://mcp.example.com/mcp", { issuers: {} });
   * console.log(await store.get("https://mcp.example.com/mcp")); // { issuers: {} }
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async get(serverUrl: string): Promise<AuthRecord | undefined> {
    return (await this.#read()).servers[serverUrl];
  }

  /**
   * Replaces the record of a server.
   *
   * @example A file only its owner can read
   * ```ts
   * import { FileTokenStore } from "@mcp-inspect/client/auth";
   * const dir = await Deno.makeTempDir();
   * const store = new FileTokenStore(`${dir}/credentials.json`);
   * await store.set("https://mcp.example.com/mcp", { issuers: {} });
   * const { mode } = await Deno.stat(store.path);
   * console.log(((mode ?? 0) & 0o777).toString(8)); // "600" (mode is null on Windows)
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  set(serverUrl: string, record: AuthRecord): Promise<void> {
    return this.#update((file) => {
      file.servers[serverUrl] = structuredClone(record);
      return true;
    }).then(() => {});
  }

  /**
   * Forgets a server.
   *
   * @example Forgetting a server, then finding nothing more to forget
   * ```ts
   * import { FileTokenStore } from "@mcp-inspect/client/auth";
   * const dir = await Deno.makeTempDir();
   * const store = new FileTokenStore(`${dir}/credentials.json`);
   * await store.set("https://mcp.example.com/mcp", { issuers: {} });
   * console.log(await store.delete("https://mcp.example.com/mcp")); // true
   * console.log(await store.delete("https://mcp.example.com/mcp")); // false
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  delete(serverUrl: string): Promise<boolean> {
    return this.#update((file) => {
      if (!(serverUrl in file.servers)) return false;
      delete file.servers[serverUrl];
      return true;
    });
  }

  /**
   * The servers with a record.
   *
   * @example Listing the servers with a record
   * ```ts
   * import { FileTokenStore } from "@mcp-inspect/client/auth";
   * const dir = await Deno.makeTempDir();
   * const store = new FileTokenStore(`${dir}/credentials.json`);
   * await store.set("https://mcp.example.com/mcp", { issuers: {} });
   * console.log(await store.list()); // ["https://mcp.example.com/mcp"]
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  async list(): Promise<string[]> {
    return Object.keys((await this.#read()).servers);
  }

  /** Read-modify-write, one at a time within this process. */
  #update(change: (file: StoreFile) => boolean): Promise<boolean> {
    const run = this.#queue.then(async () => {
      const file = await this.#read();
      if (!change(file)) return false;
      await this.#write(file);
      return true;
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  async #read(): Promise<StoreFile> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return { version: 1, servers: {} };
      throw error;
    }
    if (!this.#checked && Deno.build.os !== "windows") {
      this.#checked = true;
      const mode = (await Deno.stat(this.path)).mode ?? 0;
      if ((mode & 0o077) !== 0) await Deno.chmod(this.path, 0o600);
    }
    try {
      const parsed = JSON.parse(text) as Partial<StoreFile>;
      if (typeof parsed.servers === "object" && parsed.servers !== null) {
        return { version: 1, servers: parsed.servers };
      }
    } catch {
      // fall through: a damaged file is reported without its content, which is secret
    }
    throw new Error(`Credentials file ${this.path} is damaged; delete it and log in again`);
  }

  async #write(file: StoreFile): Promise<void> {
    const dir = this.path.replace(/[\\/][^\\/]*$/, "");
    if (dir && dir !== this.path) await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.writeTextFile(temp, `${JSON.stringify(file, null, 2)}\n`, {
        mode: 0o600,
        createNew: true,
      });
      if (Deno.build.os !== "windows") await Deno.chmod(temp, 0o600);
      await Deno.rename(temp, this.path);
    } catch (error) {
      await Deno.remove(temp).catch(() => {});
      throw error;
    }
  }
}
