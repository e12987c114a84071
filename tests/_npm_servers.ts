// Real MCP servers from npm, pinned to exact versions, run under this Deno binary so that the
// interop tests do not depend on the machine's Node version.

import type { StdioTransportOptions } from "../mod.ts";

/** The packages the interop tests run, pinned: a new release must not change a test's result. */
export const NPM_SERVERS = {
  everything: "@modelcontextprotocol/server-everything@2026.8.31",
  filesystem: "@modelcontextprotocol/server-filesystem@2026.8.31",
  memory: "@modelcontextprotocol/server-memory@2026.8.31",
} as const;

/** The short name of a pinned server. */
export type NpmServer = keyof typeof NPM_SERVERS;

// What Deno needs to find its cache and reach the registry. None of it is in the transport's
// default allowlist, and without it a server on a proxied or relocated-cache machine would fail
// to start, for reasons unrelated to the client.
const DENO_ENV_VARS = [
  "DENO_DIR",
  "DENO_CERT",
  "NPM_CONFIG_REGISTRY",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "no_proxy",
];

// `--no-config` keeps the repository's deno.json and lockfile out of the server's resolution.
const DENO_FLAGS = ["run", "--allow-all", "--no-config", "--no-lock", "--quiet"];

const cached = new Map<NpmServer, Promise<void>>();

/** The environment Deno needs, as found in this process. */
export function denoEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of DENO_ENV_VARS) {
    const value = Deno.env.get(key);
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/**
 * Downloads a server's package once per test process, so that a first download is not charged to
 * the handshake's timeout.
 */
export function ensureCached(server: NpmServer): Promise<void> {
  let done = cached.get(server);
  if (!done) {
    done = (async () => {
      const { code, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["cache", "--no-config", "--no-lock", "--quiet", `npm:${NPM_SERVERS[server]}`],
        stdout: "null",
        stderr: "piped",
      }).output();
      if (code !== 0) {
        throw new Error(
          `Cannot cache npm:${NPM_SERVERS[server]}: ${new TextDecoder().decode(stderr).trim()}`,
        );
      }
    })();
    cached.set(server, done);
  }
  return done;
}

/** Options to run a pinned server with this Deno binary, once its package is cached. */
export async function npmServer(
  server: NpmServer,
  args: readonly string[] = [],
  options: Partial<StdioTransportOptions> = {},
): Promise<StdioTransportOptions> {
  await ensureCached(server);
  const { env, ...rest } = options;
  return {
    command: Deno.execPath(),
    args: [...DENO_FLAGS, `npm:${NPM_SERVERS[server]}`, ...args],
    name: server,
    env: { ...denoEnv(), ...env },
    ...rest,
  };
}

/** server-everything over HTTP on a free loopback port; it logs to stderr once listening. */
export async function everythingOverHttp(mode: "streamableHttp" | "sse") {
  const stdio = await npmServer("everything", [mode]);
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const child = new Deno.Command(stdio.command, {
    args: [...(stdio.args ?? [])],
    env: { ...stdio.env, PORT: String(port) },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!/port \d+/.test(seen)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server-everything ${mode} did not start: ${seen}`);
    seen += value;
  }
  const drained = (async () => {
    while (!(await reader.read()).done) { /* keep its stderr flowing */ }
  })();
  return {
    base: `http://127.0.0.1:${port}`,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await drained;
    },
  };
}
