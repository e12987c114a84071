// Fake MCP servers for tests, declared in a few lines: tools, resources and prompts, and the
// misbehaviours a host must survive. In process (a memory transport), in a child process
// (`serveStdio()` in a script), or over Streamable HTTP.

import { McpError } from "../mcp_error.ts";
import { ErrorCode, type JsonObject, type JsonRpcMessage, type RequestId } from "../jsonrpc.ts";
import { McpServer, type ServerRequestContext } from "../server/server.ts";
import { type HttpServerHandle, serveHttp, type ServeHttpOptions } from "../server/http.ts";
import { StdioServerTransport } from "../server/stdio.ts";
import { MemoryTransport } from "../transport/memory.ts";
import type { Transport } from "../transport/transport.ts";
import type { CallToolResult, Tool } from "../feature_types.ts";
import { FakeTasks } from "./_fake_tasks.ts";

type Context = ServerRequestContext;

/** Whether a tool may, must or must not run as a task (`execution.taskSupport`, 2025-11-25). */
function taskSupport(tool: FakeTool): "forbidden" | "optional" | "required" {
  const support = (tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === "optional" || support === "required" ? support : "forbidden";
}

/**
 * A tool of a {@link FakeServer}: its listing, and what a call answers (a string is one text
 * content; default: the arguments as JSON text). A tool whose `execution.taskSupport` is
 * `"optional"` or `"required"` runs as a task when a call asks for one (revision 2025-11-25):
 * the fake then declares the tasks capability and answers `tasks/get`, `tasks/result`,
 * `tasks/list` and `tasks/cancel`, and the handler's signal aborts on cancellation.
 *
 * @example A tool that echoes its text
 * ```ts
 * import type { FakeTool } from "@mcp-inspect/client/testing";
 * const echo: FakeTool = { name: "echo", handler: (args) => String(args.text) };
 * ```
 *
 * @example A tool that runs only as a task, and waits until it is cancelled
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer, type FakeTool } from "@mcp-inspect/client/testing";
 *
 * const forever: FakeTool = {
 *   name: "forever",
 *   execution: { taskSupport: "required" },
 *   handler: (_args, { signal }) => new Promise((_, reject) => signal.onabort = reject),
 * };
 * const fake = new FakeServer({ tools: [forever] });
 * await using client = await Client.connect(fake.transport(), { protocol: "2025-11-25" });
 * const created = await client.request("tools/call", { name: "forever", arguments: {}, task: {} });
 * const { taskId } = created.task as { taskId: string };
 * await client.cancelTask(taskId);
 * console.log((await client.getTask(taskId)).status); // "cancelled"
 * ```
 */
export interface FakeTool extends Partial<Omit<Tool, "name">> {
  /** The tool's name. */
  name: string;
  /** The answer to a call: a result, or a string for one text content. */
  handler?: (
    args: Record<string, unknown>,
    context: ServerRequestContext,
  ) => CallToolResult | string | Promise<CallToolResult | string>;
}

/**
 * A resource of a {@link FakeServer}, with its text.
 *
 * @example A README as a resource
 * ```ts
 * import type { FakeResource } from "@mcp-inspect/client/testing";
 * const readme: FakeResource = { uri: "file:///README.md", text: "# Hello" };
 * ```
 */
export interface FakeResource {
  /** Its URI. */
  uri: string;
  /** Its name (default: the URI). */
  name?: string;
  /** Its MIME type (default `text/plain`). */
  mimeType?: string;
  /** Its contents. */
  text: string;
}

/**
 * A prompt of a {@link FakeServer}: a string (or function of the arguments) is one user message.
 *
 * @example A prompt with one argument
 * ```ts
 * import type { FakePrompt } from "@mcp-inspect/client/testing";
 * const greet: FakePrompt = { name: "greet", arguments: [{ name: "who" }], text: (a) => `Hi ${a.who}` };
 * ```
 */
export interface FakePrompt {
  /** Its name. */
  name: string;
  /** What it is for. */
  description?: string;
  /** Its arguments. */
  arguments?: { name: string; description?: string; required?: boolean }[];
  /** The user message it renders. */
  text: string | ((args: Record<string, string>) => string);
}

/**
 * What a {@link FakeServer} does wrong, on purpose.
 *
 * @example A server that hangs on calls and answers twice
 * ```ts
 * import type { FakeMisbehaviour } from "@mcp-inspect/client/testing";
 * const misbehave: FakeMisbehaviour = { neverAnswer: ["tools/call"], duplicateAnswers: true };
 * ```
 */
export interface FakeMisbehaviour {
  /** Every answer waits this long. */
  delayMs?: number;
  /** Requests of these methods are never answered (until cancelled). */
  neverAnswer?: string[];
  /** Requests of these methods are answered with this error. */
  failWith?: Record<string, { code: number; message: string }>;
  /** Every answer is sent twice (stdio and in-process, not HTTP). */
  duplicateAnswers?: boolean;
}

/**
 * Options of {@link FakeServer}.
 *
 * @example One tool and instructions
 * ```ts
 * import type { FakeServerOptions } from "@mcp-inspect/client/testing";
 * const options: FakeServerOptions = { tools: [{ name: "ping_me" }], instructions: "A fake." };
 * ```
 */
export interface FakeServerOptions {
  /** Its name (default `fake`). */
  name?: string;
  /** Its version (default `1.0.0`). */
  version?: string;
  /** Its guidance for the model. */
  instructions?: string;
  /** Its tools. */
  tools?: FakeTool[];
  /** Its resources. */
  resources?: FakeResource[];
  /** Its prompts. */
  prompts?: FakePrompt[];
  /** What it does wrong. */
  misbehave?: FakeMisbehaviour;
}

/**
 * A fake MCP server of both eras, for testing hosts: declare what it offers and how it
 * misbehaves, then connect a client in process, serve it from a child process, or over HTTP.
 * Every message a client sent it is kept in {@link FakeServer.received}.
 *
 * @example A host under test against a fake that never answers tools/call
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({
 *   tools: [{ name: "echo", handler: (args) => String(args.text) }, { name: "hang" }],
 *   misbehave: { neverAnswer: ["tools/call"] },
 * });
 * await using client = await Client.connect(fake.transport(), { protocol: "legacy" });
 * console.log((await client.listTools()).map((t) => t.name)); // ["echo", "hang"]
 * ```
 */
export class FakeServer {
  /** The server behind the fake. */
  readonly server: McpServer;
  /** Every message clients sent, in order. */
  readonly received: JsonRpcMessage[] = [];
  readonly #misbehave: FakeMisbehaviour;

  /**
   * Declares the fake; nothing is served until a transport, stdio or HTTP asks for it.
   *
   * @example A fake with one resource, not serving yet
   * ```ts
   * import { FakeServer } from "@mcp-inspect/client/testing";
   * const fake = new FakeServer({ resources: [{ uri: "mem://a", text: "A" }] });
   * console.log(fake.server.connectionCount); // 0
   * ```
   */
  constructor(options: FakeServerOptions = {}) {
    this.#misbehave = options.misbehave ?? {};
    const tools = options.tools ?? [];
    const resources = options.resources ?? [];
    const prompts = options.prompts ?? [];
    const handlers: Record<string, (p: JsonObject, c: Context) => Promise<JsonObject>> = {};
    const tasks = tools.some((tool) => taskSupport(tool) !== "forbidden")
      ? new FakeTasks()
      : undefined;
    if (options.tools) {
      handlers["tools/list"] = () =>
        Promise.resolve({
          tools: tools.map(({ handler: _, ...tool }) => ({
            inputSchema: { type: "object" },
            ...tool,
          })) as unknown as JsonObject[],
        });
      const call = async (tool: FakeTool, args: Record<string, unknown>, context: Context) => {
        const answer = tool.handler ? await tool.handler(args, context) : JSON.stringify(args);
        return (typeof answer === "string"
          ? { content: [{ type: "text", text: answer }] }
          : answer) as unknown as JsonObject;
      };
      handlers["tools/call"] = (params, context) => {
        const tool = tools.find((t) => t.name === params.name);
        if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
        const args = (params.arguments ?? {}) as Record<string, unknown>;
        // A task-augmented call (2025-11-25) runs as a task; taskSupport says whether it may.
        const support = taskSupport(tool);
        if (params.task !== undefined && support === "forbidden") {
          throw new McpError(
            ErrorCode.MethodNotFound,
            `Tool "${tool.name}" does not run as a task`,
          );
        }
        if (params.task === undefined && support === "required") {
          throw new McpError(ErrorCode.MethodNotFound, `Tool "${tool.name}" runs only as a task`);
        }
        if (tasks && params.task !== undefined) {
          return Promise.resolve(
            tasks.start(params, (signal) => call(tool, args, { ...context, signal })),
          );
        }
        return call(tool, args, context);
      };
      if (tasks) Object.assign(handlers, tasks.handlers());
    }
    if (options.resources) {
      handlers["resources/list"] = () =>
        Promise.resolve({
          resources: resources.map((r) => ({
            uri: r.uri,
            name: r.name ?? r.uri,
            mimeType: r.mimeType ?? "text/plain",
          })),
        });
      handlers["resources/templates/list"] = () => Promise.resolve({ resourceTemplates: [] });
      handlers["resources/read"] = (params) => {
        const resource = resources.find((r) => r.uri === params.uri);
        if (!resource) {
          throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${params.uri}`, {
            uri: params.uri,
          });
        }
        const { uri, text } = resource;
        return Promise.resolve({
          contents: [{ uri, text, mimeType: resource.mimeType ?? "text/plain" }],
        });
      };
    }
    if (options.prompts) {
      handlers["prompts/list"] = () =>
        Promise.resolve({
          prompts: prompts.map(({ text: _, ...prompt }) => prompt) as unknown as JsonObject[],
        });
      handlers["prompts/get"] = (params) => {
        const prompt = prompts.find((p) => p.name === params.name);
        if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${params.name}`);
        const args = (params.arguments ?? {}) as Record<string, string>;
        const text = typeof prompt.text === "string" ? prompt.text : prompt.text(args);
        return Promise.resolve({ messages: [{ role: "user", content: { type: "text", text } }] });
      };
    }
    const misbehaving = Object.fromEntries(
      Object.entries(handlers).map(([method, handler]) => [method, this.#wrap(method, handler)]),
    );
    this.server = new McpServer({
      serverInfo: { name: options.name ?? "fake", version: options.version ?? "1.0.0" },
      capabilities: {
        ...(options.tools ? { tools: {} } : {}),
        ...(tasks ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
        ...(options.resources ? { resources: {} } : {}),
        ...(options.prompts ? { prompts: {} } : {}),
      },
      instructions: options.instructions,
      handlers: misbehaving,
    });
  }

  /** A handler with the fake's delay, silence and errors around it. */
  #wrap(
    method: string,
    handler: (params: JsonObject, context: ServerRequestContext) => Promise<JsonObject>,
  ) {
    const { delayMs = 0, neverAnswer = [], failWith = {} } = this.#misbehave;
    return async (params: JsonObject, context: ServerRequestContext): Promise<JsonObject> => {
      if (delayMs > 0) await abortable(delayMs, context.signal);
      if (neverAnswer.includes(method)) {
        await abortable(Infinity, context.signal);
      }
      const failure = failWith[method];
      if (failure) throw new McpError(failure.code, failure.message);
      return await handler(params, context);
    };
  }

  /** A server-side transport with the message-level misbehaviours and the record of `received`. */
  #tamper(transport: Transport): Transport {
    const { duplicateAnswers = false } = this.#misbehave;
    const methods = new Map<RequestId, string>();
    const received = this.received;
    let readable: ReadableStream<JsonRpcMessage> | undefined;
    let writable: WritableStream<JsonRpcMessage> | undefined;
    return {
      get readable() {
        return readable!;
      },
      get writable() {
        return writable!;
      },
      async start() {
        await transport.start();
        readable = transport.readable.pipeThrough(
          new TransformStream<JsonRpcMessage, JsonRpcMessage>({
            transform(message, controller) {
              received.push(message);
              if ("method" in message && "id" in message) methods.set(message.id, message.method);
              controller.enqueue(message);
            },
          }),
        );
        const writer = transport.writable.getWriter();
        writable = new WritableStream<JsonRpcMessage>({
          async write(message) {
            const id = (message as { id?: RequestId }).id;
            const method = id === undefined ? undefined : methods.get(id);
            await writer.write(message);
            if (duplicateAnswers && method !== undefined) await writer.write(message);
          },
          close: () => writer.close(),
          abort: (reason) => writer.abort(reason),
        });
      },
      close: () => transport.close(),
      [Symbol.asyncDispose]: () => transport.close(),
    };
  }

  /**
   * A client-side transport connected to this fake in memory; closing it ends the session.
   *
   * @example Connecting a client in process
   * ```ts
   * import { Client } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer();
   * await using client = await Client.connect(fake.transport(), { protocol: "legacy" });
   * console.log(client.era, fake.server.connectionCount); // "legacy" 1
   * ```
   */
  transport(): Transport {
    return MemoryTransport.serving((server) => this.server.serve(this.#tamper(server)));
  }

  /**
   * Serves the fake on this process's stdin and stdout until stdin ends: the body of a fake
   * server script that a host starts as a child process.
   *
   * @example `testdata/fake.ts`, started with `deno run testdata/fake.ts`
   * ```ts ignore
   * import { FakeServer } from "jsr:@mcp-inspect/client/testing";
   * await new FakeServer({ tools: [{ name: "echo" }] }).serveStdio();
   * ```
   */
  serveStdio(): Promise<void> {
    return this.server.serve(this.#tamper(new StdioServerTransport()));
  }

  /**
   * Serves the fake over Streamable HTTP on loopback (see `serveHttp`); duplicate answers do not
   * apply there.
   *
   * @example Serving the fake on a free port
   * ```ts
   * import { Client, StreamableHttpTransport } from "@mcp-inspect/client";
   * import { FakeServer } from "@mcp-inspect/client/testing";
   *
   * const fake = new FakeServer({ tools: [{ name: "echo" }] });
   * await using http = fake.serveHttp({ port: 0 });
   * console.log(http.url.href); // "http://127.0.0.1:<port>/mcp"
   * await using client = await Client.connect(new StreamableHttpTransport({ url: http.url }));
   * console.log((await client.listTools()).map((t) => t.name)); // ["echo"]
   * ```
   */
  serveHttp(options: ServeHttpOptions = {}): HttpServerHandle {
    return serveHttp(this.server, { port: 0, ...options });
  }
}

/** Resolves after `ms` (never, for Infinity), or rejects when `signal` aborts. */
function abortable(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    function done() {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
