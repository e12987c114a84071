// Manager calls routed to their server: a tool or prompt by qualified name or by server and name,
// a resource by URI to the server that offers it, each run on that server's client and waiting
// for a reconnection as a tool call does.

import type { Client } from "../client/client.ts";
import type { RequestOptions } from "../session.ts";
import type {
  CallToolResult,
  CompleteResult,
  CompletionReference,
  GetPromptResult,
  ReadResourceResult,
} from "../types.ts";
import type { ItemIndex } from "./_item_index.ts";
import type { ManagedServer } from "./_server.ts";
import { qualify } from "./_names.ts";
import { requestOptions } from "./_status.ts";
import { ServerUnavailableError, UnknownToolError } from "./errors.ts";
import type { ManagerCallOptions } from "./types.ts";

/**
 * The calls of `ServerManager`, after its overloads. Methods that return a promise without
 * awaiting may throw instead of rejecting: the manager's async methods await them, which turns
 * either into a rejection.
 */
export class CallRouter {
  readonly #servers: ReadonlyMap<string, ManagedServer>;
  readonly #registry: ItemIndex;

  /** Routes among `servers`, the manager's own map as it changes, named by `registry`. */
  constructor(servers: ReadonlyMap<string, ManagedServer>, registry: ItemIndex) {
    this.#servers = servers;
    this.#registry = registry;
  }

  /** The server of that name; throws {@link ServerUnavailableError} if there is none. */
  server(name: string): ManagedServer {
    const server = this.#servers.get(name);
    if (!server) throw new ServerUnavailableError(name, "unknown");
    return server;
  }

  /** By server and tool name when `second` is a string, else by qualified name. */
  callTool(
    first: string,
    second?: string | Record<string, unknown>,
    third?: Record<string, unknown> | ManagerCallOptions,
    fourth?: ManagerCallOptions,
  ): Promise<CallToolResult> {
    if (typeof second === "string") {
      return this.server(first).callTool(
        second,
        (third ?? {}) as Record<string, unknown>,
        fourth ?? {},
      );
    }
    // Hidden entries resolve too, so that a denied or disabled tool gets the precise refusal.
    const options = (third ?? {}) as ManagerCallOptions;
    const entry = this.#registry.findTool(first);
    if (entry) return entry.server.callTool(entry.item.name, second ?? {}, options);
    return this.#unlisted(() => this.#registry.findTool(first), first, "tool", options)
      .then((listed) => listed.server.callTool(listed.item.name, second ?? {}, options));
  }

  /**
   * A qualified name no listing has yet may belong to a server that has listed nothing: one still
   * connecting, reconnecting, idle, failed or disabled. Then that server's state answers (it is
   * waited for, as a call by server and name would wait, or it is unavailable), not "unknown";
   * once it is ready, `find` looks the name up again.
   */
  async #unlisted<T>(
    find: () => T | undefined,
    name: string,
    kind: "tool" | "prompt",
    options: ManagerCallOptions,
  ): Promise<T> {
    let owner: ManagedServer | undefined;
    for (const server of this.#servers.values()) {
      const prefix = qualify(server.name, "");
      const longer = owner === undefined || prefix.length > qualify(owner.name, "").length;
      if (server.phase !== "ready" && name.startsWith(prefix) && longer) owner = server;
    }
    if (!owner) throw new UnknownToolError(name, kind);
    await owner.acquire(options);
    const listed = find();
    if (listed === undefined) throw new UnknownToolError(name, kind);
    return listed;
  }

  getPrompt(
    qualifiedName: string,
    args: Record<string, string>,
    options: ManagerCallOptions,
  ): Promise<GetPromptResult> {
    const find = () => this.#registry.findPrompt(qualifiedName);
    const get = (entry: NonNullable<ReturnType<typeof find>>) =>
      this.#using(
        entry.server,
        options,
        (client, request) => client.getPrompt(entry.item.name, args, request),
      );
    const entry = find();
    if (entry) return get(entry);
    return this.#unlisted(find, qualifiedName, "prompt", options).then(get);
  }

  /** From server `first` when `second` is a string (the URI), else from whoever offers `first`. */
  readResource(
    first: string,
    second?: string | ManagerCallOptions,
    third?: ManagerCallOptions,
  ): Promise<ReadResourceResult> {
    const named = typeof second === "string";
    const uri = named ? second : first;
    const options = (named ? third : second) ?? {};
    const server = named ? this.server(first) : this.#registry.resourceOwner(uri);
    if (!server) throw new UnknownToolError(uri, "resource");
    return this.#using(
      server,
      options,
      (client, request) => client.readResource(uri, request),
    );
  }

  complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    options: ManagerCallOptions & { context?: Record<string, string> | undefined },
  ): Promise<CompleteResult> {
    const [server, local] = this.#registry.completionTarget(ref);
    const { context, ...rest } = options;
    return this.#using(
      server,
      rest,
      (client, request) => client.complete(local, argument, { ...request, context }),
    );
  }

  /** Subscribes, then keeps `uri` among the server's subscriptions to renew on reconnection. */
  async subscribeResource(uri: string, options: ManagerCallOptions): Promise<void> {
    const server = this.#registry.resourceOwner(uri);
    if (!server) throw new UnknownToolError(uri, "resource");
    await this.#using(server, options, (client, request) => client.subscribeResource(uri, request));
    server.subscriptions.add(uri);
  }

  /** Forgets `uri`, and unsubscribes if its server is connected. */
  async unsubscribeResource(uri: string, options: ManagerCallOptions): Promise<void> {
    const server = [...this.#servers.values()].find((s) => s.subscriptions.has(uri));
    if (!server) return;
    server.subscriptions.delete(uri);
    if (server.phase !== "ready") return; // a new connection will not subscribe again
    await this.#using(
      server,
      options,
      (client, request) => client.unsubscribeResource(uri, request),
    );
  }

  /** Runs a request on a server's client, waiting for a reconnection as a tool call does. */
  #using<T>(
    server: ManagedServer,
    options: ManagerCallOptions,
    work: (client: Client, request: RequestOptions) => Promise<T>,
  ): Promise<T> {
    return server.use(async () => {
      const { client } = await server.acquire(options);
      return await work(client, requestOptions(options));
    });
  }
}
