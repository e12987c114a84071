// A fake MCP server (revision 2025-11-25, raw JSON-RPC over Streamable HTTP, stateless) that is
// an OAuth protected resource: it publishes protected resource metadata (RFC 9728), answers
// requests without a valid token with 401 and a WWW-Authenticate challenge, and requests whose
// token lacks a scope with 403 insufficient_scope. It shares no code with the client.

/** One request as the fake received it. */
export interface SeenMcpRequest {
  method: string;
  path: string;
  rpc: string | undefined;
  /** The Authorization header, as received. */
  authorization: string | null;
  status: number;
}

/** How the fake behaves. */
export interface ProtectedMcpOptions {
  /** Checks a bearer token: its scope, or undefined when invalid. */
  verify: (token: string) => { scope: string } | undefined;
  /** The authorization servers the metadata lists (called per request: it may change). */
  authorizationServers: () => string[];
  /** The `resource` of the metadata (default `<origin>/mcp`). */
  resource?: string;
  /** scopes_supported of the metadata. */
  scopes?: string[];
  /** The `scope` of the 401 challenge. */
  challengeScope?: string;
  /** The resource_metadata URL of the challenge (default: the path-suffixed well-known URL). */
  resourceMetadataUrl?: (origin: string) => string;
  /** Scope each JSON-RPC method needs beyond a valid token. */
  methodScopes?: Record<string, string>;
  /** Receives every request. */
  log?: SeenMcpRequest[];
}

const TOOLS = [{ name: "whoami", inputSchema: { type: "object" } }];

function rpc(id: unknown, result: unknown): Response {
  return Response.json({ jsonrpc: "2.0", id, result });
}

/** A protected MCP server; serve it with `Deno.serve({ port: 0 }, fake.handler)`. */
export function protectedMcp(options: ProtectedMcpOptions) {
  const log = options.log ?? [];

  async function handle(request: Request, seen: SeenMcpRequest): Promise<Response> {
    const url = new URL(request.url);
    const origin = url.origin;
    const prmUrl = options.resourceMetadataUrl?.(origin) ??
      `${origin}/.well-known/oauth-protected-resource/mcp`;
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      return Response.json({
        resource: options.resource ?? `${origin}/mcp`,
        authorization_servers: options.authorizationServers(),
        ...(options.scopes ? { scopes_supported: options.scopes } : {}),
      });
    }
    if (url.pathname !== "/mcp") return new Response("Not found", { status: 404 });
    const auth = request.headers.get("authorization");
    const token = auth?.startsWith("Bearer ") ? auth.slice(7) : undefined;
    const granted = token === undefined ? undefined : options.verify(token);
    if (!granted) {
      await request.body?.cancel();
      const scope = options.challengeScope ? `, scope="${options.challengeScope}"` : "";
      return new Response(JSON.stringify({ error: "invalid_token" }), {
        status: 401,
        headers: {
          "content-type": "application/json",
          "www-authenticate": `Bearer resource_metadata="${prmUrl}"${scope}`,
        },
      });
    }
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const message = await request.json();
    seen.rpc = message.method;
    const needed = options.methodScopes?.[message.method];
    const have = granted.scope.split(" ");
    if (needed && !needed.split(" ").every((s) => have.includes(s))) {
      return new Response(JSON.stringify({ error: "insufficient_scope" }), {
        status: 403,
        headers: {
          "content-type": "application/json",
          "www-authenticate":
            `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${prmUrl}"`,
        },
      });
    }
    switch (message.method) {
      case "initialize":
        return rpc(message.id, {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "protected-fake", version: "1.0.0" },
        });
      case "notifications/initialized":
        return new Response(null, { status: 202 });
      case "ping":
        return rpc(message.id, {});
      case "tools/list":
        return rpc(message.id, { tools: TOOLS });
      case "tools/call":
        return rpc(message.id, { content: [{ type: "text", text: `scope: ${granted.scope}` }] });
      default:
        return Response.json({
          jsonrpc: "2.0",
          id: message.id ?? null,
          error: { code: -32601, message: "Method not found" },
        });
    }
  }

  async function handler(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const seen: SeenMcpRequest = {
      method: request.method,
      path: url.pathname,
      rpc: undefined,
      authorization: request.headers.get("authorization"),
      status: 0,
    };
    log.push(seen);
    const response = await handle(request, seen);
    seen.status = response.status;
    return response;
  }

  return { handler, log };
}
