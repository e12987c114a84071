// `mcp-inspect auth login|status|logout`: OAuth for HTTP servers, with tokens kept in the user's
// config directory (mode 0600); and the stored authorization every other --url command uses.

import { commandUsage, type Lines as Output, parseCommand } from "./args.ts";
import { AuthorizationError } from "../../mod.ts";
import {
  type AuthorizationStatus,
  FileTokenStore,
  LoopbackAuthorization,
  OAuthError,
  OAuthProvider,
} from "../auth/mod.ts";
import { style, table } from "./format.ts";

export const AUTH_HELP = `Usage: mcp-inspect auth login --url <URL> [options]
       mcp-inspect auth status [--url <URL>] [--json]
       mcp-inspect auth logout --url <URL> | --all

login   authorizes with the server's OAuth authorization server: a browser window opens, and
        the answer comes back to a one-time listener on 127.0.0.1. Tokens are stored in
        the user's config directory (readable by the user alone) and refreshed as needed;
        every other command with --url then uses them.
status  what is stored, per server (never the tokens themselves)
logout  forgets the tokens and client registrations of a server (or of all, with --all)

Options:
  -u, --url <URL>            the MCP server
  --no-browser               print the authorization URL instead of opening a browser
  --scope <scope>            the scope to ask for (default: what the server asks for)
  --client-id <id>           a pre-registered client ID (default: registration on the fly)
  --client-secret <secret>   its secret (or set MCP_INSPECT_CLIENT_SECRET)
  --client-metadata-url <u>  a Client ID Metadata Document URL to use as client ID
  -t, --timeout <ms>         how long to wait for the browser (default 300000)
  --json                     status as one JSON document
  -v, --verbose              show each step (never a token or secret)

Exit codes: 0 success; 2 usage error; 3 the server cannot be reached; 5 authorization failed.`;

/** The authorization other commands use with --url: stored tokens only, never a login. */
export function storedAuthorization(
  args: { url?: string | undefined; headers: readonly [string, string][]; verbose: boolean },
  out: Output,
): { fetch?: typeof fetch } {
  if (args.url === undefined) return {};
  // An Authorization header given by the user is theirs to manage.
  if (args.headers.some(([name]) => name.toLowerCase() === "authorization")) return {};
  try {
    const provider = new OAuthProvider({
      serverUrl: args.url,
      store: new FileTokenStore(),
      loginHint: `run mcp-inspect auth login --url ${args.url}`,
      onLog: args.verbose ? (line: string) => out.stderr(`[auth] ${line}`) : undefined,
    });
    return { fetch: provider.fetch };
  } catch {
    return {}; // an invalid URL: the transport reports it
  }
}

/** Runs `auth`; returns the exit code. */
export async function authCommand(argv: readonly string[], out: Output): Promise<number> {
  const parsed = parseCommand(
    {
      name: "auth",
      help: AUTH_HELP,
      positionals: true,
      options: {
        url: { type: "string", short: "u" },
        "no-browser": { type: "boolean" },
        scope: { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        "client-metadata-url": { type: "string" },
        timeout: { type: "string", short: "t" },
        json: { type: "boolean" },
        all: { type: "boolean" },
        verbose: { type: "boolean", short: "v" },
      },
    },
    argv,
    out,
  );
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  const action = positionals[0];
  if (action === undefined) {
    out.stdout(AUTH_HELP);
    return 2;
  }
  if (positionals.length > 1) return usage(out, `Unexpected argument "${positionals[1]}"`);
  const err = style(Deno.stderr);
  try {
    switch (action) {
      case "login":
        return await login(values, out);
      case "status":
        return await status(values.url, values.json ?? false, out);
      case "logout":
        return await logout(values.url, values.all ?? false, out);
      default:
        return usage(out, `Unknown auth command "${action}" (login, status or logout)`);
    }
  } catch (error) {
    out.stderr(`${err.red("error:")} ${(error as Error).message ?? String(error)}`);
    if (error instanceof OAuthError || error instanceof AuthorizationError) return 5;
    if (error instanceof TypeError) return 3; // fetch could not reach the server
    return 1;
  }
}

async function login(
  values: {
    url?: string | undefined;
    "no-browser"?: boolean | undefined;
    scope?: string | undefined;
    "client-id"?: string | undefined;
    "client-secret"?: string | undefined;
    "client-metadata-url"?: string | undefined;
    timeout?: string | undefined;
    json?: boolean | undefined;
    verbose?: boolean | undefined;
  },
  out: Output,
): Promise<number> {
  if (values.url === undefined) return usage(out, "auth login needs --url <URL>");
  const timeoutMs = Number(values.timeout ?? 300_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    return usage(out, `Invalid --timeout "${values.timeout}": expected milliseconds`);
  }
  const secret = values["client-secret"] ?? Deno.env.get("MCP_INSPECT_CLIENT_SECRET");
  if (secret !== undefined && values["client-id"] === undefined) {
    return usage(out, "--client-secret needs --client-id");
  }
  const browser = !(values["no-browser"] ?? false);
  await using callback = await LoopbackAuthorization.start({
    openBrowser: browser,
    timeoutMs,
    onUrl: (url) =>
      out.stderr(
        browser
          ? `Opening the authorization page in your browser. If it does not open, visit:\n  ${url.href}`
          : `Open this URL in a browser to authorize:\n  ${url.href}`,
      ),
  });
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort(new OAuthError("Login interrupted", "authorization"));
  Deno.addSignalListener("SIGINT", onSigint);
  try {
    const provider = new OAuthProvider({
      serverUrl: values.url,
      store: new FileTokenStore(),
      interaction: callback,
      signal: interrupt.signal,
      // `||`: an empty --scope asks for the spec's selection, as no --scope does.
      scope: values.scope || undefined,
      client: values["client-id"]
        ? { clientId: values["client-id"], clientSecret: secret }
        : undefined,
      clientMetadataUrl: values["client-metadata-url"],
      onLog: values.verbose ? (line: string) => out.stderr(`[auth] ${line}`) : undefined,
    });
    const result = await provider.authorize();
    out.stdout(values.json ? JSON.stringify(result, null, 2) : `Authorized: ${describe(result)}`);
    return 0;
  } finally {
    Deno.removeSignalListener("SIGINT", onSigint);
  }
}

async function status(url: string | undefined, json: boolean, out: Output): Promise<number> {
  const store = new FileTokenStore();
  const key = url === undefined ? undefined : keyOf(url);
  if (url !== undefined && key === undefined) return usage(out, `Invalid --url "${url}"`);
  const keys = key === undefined ? await store.list() : [key];
  const found: AuthorizationStatus[] = [];
  for (const key of keys) {
    const result = await new OAuthProvider({ serverUrl: key, store }).status();
    if (result) found.push(result);
  }
  if (json) {
    out.stdout(JSON.stringify({ servers: found }, null, 2));
  } else if (found.length === 0) {
    out.stdout(url === undefined ? "No stored authorizations." : `Not logged in to ${url}.`);
  } else {
    out.stdout(table(
      found.map((s) => [s.serverUrl, s.issuer, state(s), s.scope ?? ""]),
      ["SERVER", "AUTHORIZATION SERVER", "STATE", "SCOPE"],
    ));
  }
  return url !== undefined && found.length === 0 ? 5 : 0;
}

async function logout(url: string | undefined, all: boolean, out: Output): Promise<number> {
  const store = new FileTokenStore();
  if (all === (url !== undefined)) return usage(out, "auth logout needs --url <URL> or --all");
  const key = url === undefined ? undefined : keyOf(url);
  if (url !== undefined && key === undefined) return usage(out, `Invalid --url "${url}"`);
  const keys = key === undefined ? await store.list() : [key];
  let removed = 0;
  for (const key of keys) if (await store.delete(key)) removed++;
  out.stdout(
    removed === 0
      ? "Nothing was stored."
      : `Logged out of ${removed === 1 && !all ? url : `${removed} server(s)`}.`,
  );
  return 0;
}

/** The store key of a server URL, or undefined when it is not one. */
function keyOf(url: string): string | undefined {
  try {
    return new OAuthProvider({ serverUrl: url }).serverUrl;
  } catch {
    return undefined;
  }
}

function state(s: AuthorizationStatus): string {
  if (!s.authorized) return "no token";
  const parts = [s.tokenType === "dpop" ? "DPoP token" : "bearer token"];
  if (s.expiresAt !== undefined) {
    const minutes = Math.round((s.expiresAt - Date.now()) / 60_000);
    parts.push(minutes > 0 ? `expires in ${minutes} min` : "expired");
  }
  if (s.refreshable) parts.push("refreshable");
  return parts.join(", ");
}

function describe(s: AuthorizationStatus): string {
  return `${s.serverUrl} by ${s.issuer} (${state(s)}${s.scope ? `, scope "${s.scope}"` : ""})`;
}

function usage(out: Output, message: string): number {
  return commandUsage(out, "auth", message);
}
