/**
 * {@link ServerRequestRelay}: the sampling and elicitation requests of a manager's servers,
 * passed on to the clients of a proxy that serves them.
 *
 * @module
 */

import { McpError } from "../errors.ts";
import { ErrorCode, type JsonObject } from "../jsonrpc.ts";
import type {
  ElicitationRequest,
  ElicitationResult,
  HandlerContext,
  SamplingRequest,
  SamplingResult,
} from "../client/handlers.ts";
import type { ServerRequestHandlers } from "../manager/types.ts";
import { callsOf, type UpstreamCall } from "./_calls.ts";

/** Whether a client's capabilities cover a request. */
function covers(capabilities: JsonObject, method: string, params: JsonObject): boolean {
  if (method === "sampling/createMessage") return capabilities.sampling !== undefined;
  const elicitation = capabilities.elicitation as JsonObject | undefined;
  if (!elicitation) return false;
  // spec 2025-11-25: an empty elicitation capability means form mode only
  if (params.mode === "url") return elicitation.url !== undefined;
  return elicitation.form !== undefined || Object.keys(elicitation).length === 0;
}

/**
 * Passes the servers' sampling and elicitation requests to the proxy clients that caused them.
 * Give it to the manager as `serverRequests` and to {@link createProxyServer} as `relay`: while
 * a proxy client waits on a tool call (or a prompt, or a resource read) of a server, what that
 * server asks goes to that client (as a request in the legacy era, as an `input_required`
 * round in the modern era), and the answer comes back. With several calls waiting on one
 * server, the latest caller that can answer gets the question. A request with no such caller
 * is refused with an error the server sees.
 *
 * @example A proxy whose clients answer their servers' questions
 * ```ts
 * import { Client, MemoryTransport } from "@mcp-inspect/client";
 * import { ServerManager } from "@mcp-inspect/client/manager";
 * import { createProxyServer, ServerRequestRelay } from "@mcp-inspect/client/server";
 *
 * // A fake server of this repository, whose `elicit` tool asks "Who are you?"
 * const args = ["run", "--allow-all", "--no-config", "testdata/servers/everything.ts"];
 * const relay = new ServerRequestRelay();
 * await using manager = new ServerManager({ serverRequests: relay });
 * await manager.connect("rich", { command: Deno.execPath(), args });
 * using proxy = createProxyServer(manager, { relay });
 * const transport = MemoryTransport.serving((end) => proxy.server.serve(end));
 * await using client = await Client.connect(transport, {
 *   onElicitation: () => ({ action: "accept", content: { name: "Ada" } }),
 * });
 * const result = await client.callTool("mcp__rich__elicit"); // the question reaches this client
 * console.log(result.content);
 * // [{ type: "text", text: '{"action":"accept","content":{"name":"Ada","age":36}}' }]
 * ```
 */
export class ServerRequestRelay implements ServerRequestHandlers {
  /** Both elicitation modes; whether a given client supports one is checked per request. */
  readonly elicitationModes: readonly ("form" | "url")[] = ["form", "url"];

  /** Passes `sampling/createMessage` on. */
  onSampling = (
    server: string,
    request: SamplingRequest,
    context: HandlerContext,
  ): Promise<SamplingResult> =>
    this.#relay(server, "sampling/createMessage", request, context) as Promise<SamplingResult>;

  /** Passes `elicitation/create` on. */
  onElicitation = (
    server: string,
    request: ElicitationRequest,
    context: HandlerContext,
  ): Promise<ElicitationResult> =>
    this.#relay(server, "elicitation/create", request, context) as Promise<
      ElicitationResult
    >;

  async #relay(
    server: string,
    method: string,
    request: JsonObject,
    context: HandlerContext,
  ): Promise<JsonObject> {
    const calls: readonly UpstreamCall[] = callsOf(this).get(server) ?? [];
    const caller = calls.findLast((call) => covers(call.capabilities, method, request));
    if (!caller) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `No client of the proxy that can answer ${method} is waiting on server "${server}"`,
      );
    }
    return await caller.ask(method, request, context.signal);
  }
}
