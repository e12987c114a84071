// A fake MCP server of the modern era (2026-07-28): stateless requests with per-request _meta,
// server/discover, multi round-trip results, subscriptions/listen and cacheable results.
// Usage: deno run --allow-all testdata/servers/modern.ts
// Env: FAKE_SUPPORTED (comma list, default 2026-07-28) is what it speaks; FAKE_DUAL=1 also
// answers the legacy initialize handshake.

import { NO_RESPONSE, type Params, RpcError, send, serve, text } from "./_wire.ts";

const SUPPORTED = (Deno.env.get("FAKE_SUPPORTED") ?? "2026-07-28").split(",");
const DUAL = Deno.env.get("FAKE_DUAL") === "1";
const SERVER_INFO = { name: "fake-modern", version: "2.0.0" };
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  logging: {},
};

const calls: Record<string, number> = {};
/** Open subscriptions/listen requests: id → the filter the client opted in to. */
const listens = new Map<string | number, Params>();

const complete = (result: Params): Params => ({
  resultType: "complete",
  ...result,
  _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
});
const cacheable = (result: Params): Params =>
  complete({ ttlMs: 60_000, cacheScope: "private", ...result });

function tool(name: string, description: string, properties: Params = {}): Params {
  return { name, description, inputSchema: { type: "object", properties } };
}

const TOOLS = [
  tool("echo", "Echoes the text back.", { text: { type: "string" } }),
  tool("ask", "Asks the user for a name through an input request."),
  tool("multi", "Needs an elicitation, then a sampling, over two rounds."),
  tool("roots", "Asks for the client's roots."),
  tool("endless", "Never has enough input."),
  tool("log", "Logs at a level, if the request asked for logs.", { level: { type: "string" } }),
  tool("change", "Announces a changed tool list to listeners."),
  tool("touch", "Announces an updated resource to listeners.", { uri: { type: "string" } }),
  tool("stats", "How many requests of each method arrived."),
  tool("end_listens", "Ends every subscriptions/listen stream: gracefully, or with an error."),
  tool("long", "Runs as a task when the client accepts tasks; asks for a name midway."),
  tool("doomed", "Runs as a task that fails."),
];

/** Tasks of the tasks extension: id → state and how many times it was polled. */
interface FakeTask {
  taskId: string;
  status: string;
  polls: number;
  name?: string;
  doomed: boolean;
}
const tasks = new Map<string, FakeTask>();
const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

function taskState(task: FakeTask): Params {
  const now = new Date().toISOString();
  const base: Params = {
    taskId: task.taskId,
    status: task.status,
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 10,
  };
  if (task.status === "input_required") base.inputRequests = { who: elicit("Who asked?") };
  if (task.status === "completed") {
    base.result = { content: [{ type: "text", text: `done for ${task.name}` }] };
  }
  if (task.status === "failed") base.error = { code: -32001, message: "The build broke" };
  if (task.status === "working") base.statusMessage = `step ${task.polls}`;
  return base;
}

/** Each poll moves a task on: working → input_required → (update) → working → completed. */
function pollTask(task: FakeTask): void {
  task.polls++;
  if (task.status !== "working") return;
  if (task.doomed && task.polls >= 2) task.status = "failed";
  else if (task.name === undefined && task.polls >= 2) task.status = "input_required";
  else if (task.name !== undefined) task.status = "completed";
}

const elicit = (message: string) => ({
  method: "elicitation/create",
  params: {
    mode: "form",
    message,
    requestedSchema: {
      type: "object",
      properties: { name: { type: "string", default: "Ada" } },
    },
  },
});

function notifyListeners(filter: string, method: string, params: Params, uri?: string): void {
  for (const [id, wanted] of listens) {
    const subscribed = uri === undefined
      ? wanted[filter] === true
      : ((wanted.resourceSubscriptions ?? []) as string[]).includes(uri);
    if (!subscribed) continue;
    void send({
      jsonrpc: "2.0",
      method,
      params: { ...params, _meta: { "io.modelcontextprotocol/subscriptionId": id } },
    });
  }
}

function callTool(params: Params, meta: Params): Params {
  const args = (params.arguments ?? {}) as Params;
  const responses = params.inputResponses as Params | undefined;
  const state = params.requestState as string | undefined;
  switch (params.name) {
    case "echo":
      return complete(text(String(args.text ?? "")));
    case "ask": {
      const answer = responses?.name as { action?: string; content?: Params } | undefined;
      if (!answer) {
        return {
          resultType: "input_required",
          inputRequests: { name: elicit("Who are you?") },
          requestState: "ask-1",
        };
      }
      if (state !== "ask-1") throw new RpcError(-32602, "Invalid requestState");
      return complete(text(`hello ${answer.content?.name ?? "nobody"}`));
    }
    case "multi": {
      if (!responses) {
        return {
          resultType: "input_required",
          inputRequests: { who: elicit("Name?") },
          requestState: "multi-1",
        };
      }
      if (state === "multi-1") {
        const who = (responses.who as { content?: Params }).content?.name;
        return {
          resultType: "input_required",
          inputRequests: {
            poem: {
              method: "sampling/createMessage",
              params: {
                messages: [{ role: "user", content: { type: "text", text: `Poem for ${who}` } }],
                maxTokens: 50,
              },
            },
          },
          requestState: `multi-2:${who}`,
        };
      }
      if (state?.startsWith("multi-2:")) {
        const poem = (responses.poem as { content?: { text?: string } }).content?.text;
        return complete(text(`${state.slice(8)}: ${poem}`));
      }
      throw new RpcError(-32602, "Invalid requestState");
    }
    case "roots":
      if (!responses) {
        return {
          resultType: "input_required",
          inputRequests: { r: { method: "roots/list", params: {} } },
        };
      }
      return complete(text(JSON.stringify(responses.r)));
    case "endless":
      return {
        resultType: "input_required",
        inputRequests: { again: elicit("Again?") },
        requestState: "x",
      };
    case "log": {
      const wanted = meta["io.modelcontextprotocol/logLevel"];
      const level = String(args.level ?? "info");
      // spec: no notifications/message for requests that did not ask for them
      if (typeof wanted === "string" && LEVELS.indexOf(level) >= LEVELS.indexOf(wanted)) {
        void send({
          jsonrpc: "2.0",
          method: "notifications/message",
          params: { level, data: `at ${level}` },
        });
      }
      return complete(text("logged"));
    }
    case "change":
      notifyListeners("toolsListChanged", "notifications/tools/list_changed", {});
      return complete(text("changed"));
    case "touch":
      notifyListeners("", "notifications/resources/updated", { uri: args.uri }, String(args.uri));
      return complete(text("touched"));
    case "stats":
      return complete(text(JSON.stringify(calls)));
    case "end_listens": {
      const graceful = args.graceful === true;
      for (const id of listens.keys()) {
        void send(
          graceful
            ? { jsonrpc: "2.0", id, result: complete({}) }
            : { jsonrpc: "2.0", id, error: { code: -32603, message: "Listener restarting" } },
        );
      }
      listens.clear();
      return complete(text("ended"));
    }
    case "long":
    case "doomed": {
      const extensions = ((meta["io.modelcontextprotocol/clientCapabilities"] ?? {}) as Params)
        .extensions as Params | undefined;
      if (!extensions?.[TASKS_EXTENSION]) return complete(text("done at once (no tasks)"));
      const task: FakeTask = {
        taskId: `t${tasks.size + 1}`,
        status: "working",
        polls: 0,
        doomed: params.name === "doomed",
      };
      tasks.set(task.taskId, task);
      return { ...taskState(task), resultType: "task" };
    }
    default:
      throw new RpcError(-32602, `Unknown tool: ${params.name}`);
  }
}

await serve({
  onNotification(note) {
    if (note.method === "notifications/cancelled") {
      listens.delete(note.params?.requestId as string | number);
    }
  },
  onRequest(request) {
    const params = (request.params ?? {}) as Params;
    calls[request.method] = (calls[request.method] ?? 0) + 1;
    if (request.method === "initialize") {
      if (!DUAL) {
        throw new RpcError(
          -32601,
          `This server speaks only ${SUPPORTED.join(", ")}; initialize is not supported`,
        );
      }
      return Promise.resolve({
        protocolVersion: "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "fake-modern-dual", version: "2.0.0" },
      });
    }
    const meta = (params._meta ?? {}) as Params;
    const version = meta["io.modelcontextprotocol/protocolVersion"];
    if (typeof version !== "string") {
      throw new RpcError(-32600, "Missing io.modelcontextprotocol/protocolVersion in _meta");
    }
    if (!SUPPORTED.includes(version)) {
      throw new RpcError(-32022, "Unsupported protocol version", {
        supported: SUPPORTED,
        requested: version,
      });
    }
    switch (request.method) {
      case "server/discover":
        return Promise.resolve(complete({
          supportedVersions: SUPPORTED,
          capabilities: CAPABILITIES,
          instructions: "A modern fake.",
          ttlMs: 0,
          cacheScope: "public",
        }));
      case "tools/list":
        return Promise.resolve(cacheable({ tools: TOOLS }));
      case "tools/call":
        return Promise.resolve(callTool(params, meta));
      case "resources/list":
        return Promise.resolve(
          cacheable({ resources: [{ uri: "fake://modern/doc", name: "doc" }] }),
        );
      case "resources/templates/list":
        return Promise.resolve(cacheable({ resourceTemplates: [] }));
      case "resources/read":
        if (params.uri !== "fake://modern/doc") {
          throw new RpcError(-32602, "Resource not found", { uri: params.uri });
        }
        return Promise.resolve(
          cacheable({ contents: [{ uri: params.uri, text: `read #${calls["resources/read"]}` }] }),
        );
      case "tasks/get": {
        const task = tasks.get(String(params.taskId));
        if (!task) throw new RpcError(-32602, `Unknown task ${params.taskId}`);
        pollTask(task);
        return Promise.resolve(complete(taskState(task)));
      }
      case "tasks/update": {
        const task = tasks.get(String(params.taskId));
        if (!task) throw new RpcError(-32602, `Unknown task ${params.taskId}`);
        const who = ((params.inputResponses as Params)?.who as { content?: Params } | undefined)
          ?.content;
        task.name = String(who?.name ?? "nobody");
        task.status = "working";
        return Promise.resolve(complete({}));
      }
      case "tasks/cancel": {
        const task = tasks.get(String(params.taskId));
        if (task) task.status = "cancelled";
        return Promise.resolve(complete({}));
      }
      case "subscriptions/listen": {
        const filter = (params.notifications ?? {}) as Params;
        listens.set(request.id, filter);
        void send({
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: {
            notifications: filter,
            _meta: { "io.modelcontextprotocol/subscriptionId": request.id },
          },
        });
        return Promise.resolve(NO_RESPONSE);
      }
      default:
        throw new RpcError(-32601, `Method not found: ${request.method}`);
    }
  },
});
