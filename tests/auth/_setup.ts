// A fake authorization server and a protected MCP server on Deno.serve, and a "browser" that
// follows the authorization server's redirect without a user.

import type { AuthorizationInteraction } from "../../src/auth/mod.ts";
import { fakeAuthServer, type FakeAuthServerOptions } from "../../testdata/auth/fake_as.ts";
import { protectedMcp, type ProtectedMcpOptions } from "../../testdata/auth/protected_mcp.ts";

/** Follows the redirect of the authorization endpoint; records each URL it was given. */
export function headless(seen: URL[] = []): AuthorizationInteraction {
  return {
    redirectUri: "http://127.0.0.1:8976/callback",
    async openAuthorizationUrl(url) {
      seen.push(url);
      const response = await fetch(url, { redirect: "manual" });
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (!location) throw new Error(`authorization endpoint answered ${response.status}`);
      return new URL(location, url);
    },
  };
}

function serve(handler: (request: Request) => Response | Promise<Response>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { server, origin: `http://127.0.0.1:${server.addr.port}` };
}

/** Starts an authorization server and an MCP server it protects. */
export function setup(
  options: { as?: FakeAuthServerOptions; mcp?: Partial<ProtectedMcpOptions> } = {},
) {
  const as = fakeAuthServer(options.as);
  const asServer = serve(as.handler);
  const mcp = protectedMcp({
    verify: (token) => as.verify(token),
    authorizationServers: () => [asServer.origin],
    ...options.mcp,
  });
  const mcpServer = serve(mcp.handler);
  return {
    as,
    mcp,
    asUrl: asServer.origin,
    origin: mcpServer.origin,
    url: `${mcpServer.origin}/mcp`,
    async [Symbol.asyncDispose]() {
      await asServer.server.shutdown();
      await mcpServer.server.shutdown();
    },
  };
}

/** Starts a second authorization server. */
export function extraAuthServer(options: FakeAuthServerOptions = {}) {
  const as = fakeAuthServer(options);
  const served = serve(as.handler);
  return {
    as,
    url: served.origin,
    async [Symbol.asyncDispose]() {
      await served.server.shutdown();
    },
  };
}
