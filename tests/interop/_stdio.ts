// Connecting to the pinned npm servers of _npm_servers.ts over stdio, every message the client sends
// checked against the schema, and the lookups that the stdio interop tests share.

import {
  type CallToolResult,
  type ClientEvents,
  type ClientOptions,
  StdioTransport,
  type StdioTransportOptions,
} from "../../mod.ts";
import { type CheckedClient, connectChecked } from "../_helpers.ts";
import { type NpmServer, npmServer } from "../_npm_servers.ts";

/** Starts a pinned npm server over stdio and connects with every message schema-checked. */
export function connectNpm(
  server: NpmServer,
  args: readonly string[],
  options: ClientOptions = {},
  transport: Partial<StdioTransportOptions> = {},
): Promise<CheckedClient> {
  return npmServer(server, args, transport).then((transportOptions) =>
    connectChecked(new StdioTransport(transportOptions), options)
  );
}

/** server-everything takes its transport as the first argument. */
export function everything(
  options: ClientOptions = {},
  transport: Partial<StdioTransportOptions> = {},
): Promise<CheckedClient> {
  return connectNpm("everything", ["stdio"], options, transport);
}

/** The text blocks of a tool result, one per line. */
export function textOf(result: CallToolResult): string {
  return result.content.map((item) => item.type === "text" ? item.text ?? "" : "").join("\n");
}

/** The next event of a kind that matches, or a rejection after `ms`. Leaves no timer behind. */
export function nextEvent<K extends keyof ClientEvents & string>(
  fx: CheckedClient,
  event: K,
  match: (payload: ClientEvents[K]) => boolean = () => true,
  ms = 10_000,
): Promise<ClientEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`No matching "${event}" event within ${ms} ms`));
    }, ms);
    const off = fx.client.on(event, (payload) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}
