// A well-behaved fake MCP server exercising every feature the client supports.
// Usage: deno run --allow-all testdata/servers/everything.ts
// Env: FAKE_PROTOCOL_VERSION forces the answered revision; FAKE_CAPABILITIES (JSON) replaces
// the advertised capabilities.

import {
  exit,
  log,
  negotiate,
  NO_RESPONSE,
  type Params,
  request,
  RpcError,
  send,
  serve,
  sleep,
  text,
} from "./_wire.ts";
import { startTask, TASK_METHODS } from "./_tasks.ts";

const PAGE_SIZE = 2;
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const STRING: Params = { type: "string" };
const NUMBER: Params = { type: "number" };
const INTEGER: Params = { type: "integer" };

let initializeParams: Params = {};
let version = "2025-11-25";
// Spec logging: before any logging/setLevel the server decides what to send; we send everything.
let minLevel = 0;
const subscribed = new Set<string>();

type ToolRun = (args: Params, params: Params, signal: AbortSignal) => Params | Promise<Params>;

interface ToolEntry {
  definition: Params;
  run: ToolRun | "hang";
}

/** An object schema; every revision requires inputSchema to have `type: "object"`. */
function object(properties: Params, required: string[] = []): Params {
  return required.length > 0
    ? { type: "object", properties, required }
    : { type: "object", properties };
}

function tool(
  name: string,
  description: string,
  run: ToolRun | "hang",
  inputSchema: Params = object({}),
  outputSchema?: Params,
): ToolEntry {
  const definition: Params = { name, description, inputSchema };
  if (outputSchema) definition.outputSchema = outputSchema;
  return { definition, run };
}

/** Relays a request to the client; a JSON-RPC error becomes a tool execution error. */
async function relay(method: string, params?: Params): Promise<Params> {
  const response = await request(method, params);
  if (response.error) return text(response.error.message, true);
  return text(JSON.stringify(response.result));
}

const str = (args: Params, key: string): string => String(args[key] ?? "");

function structured(structuredContent: Params): Params {
  return { ...text(JSON.stringify(structuredContent)), structuredContent };
}

async function slow(args: Params, params: Params, signal: AbortSignal): Promise<Params> {
  const steps = Number(args.steps ?? 3);
  const delayMs = Number(args.delayMs ?? 50);
  const progressToken = (params._meta as Params | undefined)?.progressToken;
  for (let progress = 1; progress <= steps; progress++) {
    await sleep(delayMs, signal);
    if (signal.aborted) break; // serve() drops the response of a cancelled request
    if (progressToken === undefined) continue;
    const message = `step ${progress}`;
    void send({
      method: "notifications/progress",
      params: { progressToken, progress, total: steps, message },
    });
  }
  return text(`done after ${steps} steps`);
}

function elicit(): Promise<Params> {
  const params: Params = {
    message: "Who are you?",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", default: "Ada" },
        age: { type: "integer", default: 36 },
        email: STRING,
      },
      required: ["name"],
    },
  };
  // `mode` arrived in 2025-11-25; the 2025-06-18 schema does not know the field.
  return relay(
    "elicitation/create",
    version === "2025-11-25" ? { mode: "form", ...params } : params,
  );
}

async function pingClient(): Promise<Params> {
  const response = await request("ping");
  if (response.error) return text(response.error.message, true);
  const empty = response.result !== undefined && Object.keys(response.result).length === 0;
  return empty ? text("pong") : text(`Unexpected ping result: ${JSON.stringify(response)}`, true);
}

function logTool(args: Params): Params {
  const level = str(args, "level");
  if (!LEVELS.includes(level)) return text(`Unknown level: ${level}`, true);
  if (LEVELS.indexOf(level) >= minLevel) {
    const params = { level, logger: "fake", data: args.data ?? null };
    void send({ method: "notifications/message", params });
  }
  return text("logged");
}

function notifyChanges(): Params {
  for (const kind of ["tools", "prompts", "resources"]) {
    void send({ method: `notifications/${kind}/list_changed` });
  }
  return text("notified");
}

function updateResource(args: Params): Params {
  const uri = str(args, "uri");
  if (!subscribed.has(uri)) return text("not subscribed");
  void send({ method: "notifications/resources/updated", params: { uri } });
  return text("updated");
}

const echo: ToolRun = (args) => text(str(args, "text"));
const add: ToolRun = (args) => structured({ sum: Number(args.a) + Number(args.b) });
const env: ToolRun = (args) =>
  text(JSON.stringify({ value: Deno.env.get(str(args, "name")) ?? null }));
const badStructured: ToolRun = () => structured({ sum: "not a number" });
const explode: ToolRun = () => {
  throw new RpcError(-32001, "Tool exploded", { detail: "x" });
};
const sample: ToolRun = (args) =>
  relay("sampling/createMessage", {
    messages: [{ role: "user", content: { type: "text", text: str(args, "prompt") } }],
    maxTokens: 100,
  });
const elicitUrl: ToolRun = () =>
  relay("elicitation/create", {
    mode: "url",
    message: "Sign in",
    url: "https://example.com/login",
    elicitationId: "e1",
  });

const SUM_SCHEMA: Params = object({ sum: NUMBER }, ["sum"]);

const TOOLS: ToolEntry[] = [
  tool("echo", "Echoes the text back.", echo, object({ text: STRING }, ["text"])),
  tool("add", "Adds two numbers.", add, object({ a: NUMBER, b: NUMBER }, ["a", "b"]), SUM_SCHEMA),
  tool("bad_structured", "Breaks its schema.", badStructured, object({}), SUM_SCHEMA),
  tool("slow", "Reports progress per step.", slow, object({ steps: INTEGER, delayMs: INTEGER })),
  tool("hang", "Never answers; only cancellation ends it.", "hang"),
  tool("fail", "Fails as a tool execution error.", () => text("boom", true)),
  tool("error", "Fails as a JSON-RPC error.", explode),
  tool("sample", "Asks the client to sample.", sample, object({ prompt: STRING }, ["prompt"])),
  tool("elicit", "Asks the user to fill a form.", elicit),
  tool("elicit_url", "Asks the user to visit a URL.", elicitUrl),
  tool("roots", "Lists the client's roots.", () => relay("roots/list")),
  tool("ping_client", "Pings the client.", pingClient),
  tool("log", "Sends a log message.", logTool, object({ level: STRING, data: {} }, ["level"])),
  tool("notify_changes", "Announces changed lists.", notifyChanges),
  tool("update_resource", "Signals an update.", updateResource, object({ uri: STRING }, ["uri"])),
  tool("whoami", "Returns the initialize params.", () => text(JSON.stringify(initializeParams))),
  tool("env", "Reads an environment variable.", env, object({ name: STRING }, ["name"])),
  tool("cwd", "Returns the working directory.", () => text(Deno.cwd())),
  {
    definition: {
      name: "long_task",
      description: "Takes a while; may run as a task (2025-11-25).",
      inputSchema: object({ steps: INTEGER }),
      execution: { taskSupport: "optional" },
    },
    run: async (args, _request, signal) => {
      await sleep(20 * Number(args.steps ?? 3), signal);
      return text(`long done after ${args.steps ?? 3} steps`);
    },
  },
];

const RESOURCES: Params[] = [
  { uri: "fake://docs/readme", name: "readme", mimeType: "text/markdown" },
  { uri: "fake://docs/guide", name: "guide", mimeType: "text/plain" },
  { uri: "fake://images/logo", name: "logo", mimeType: "image/png" },
];
const TEMPLATES: Params[] = [{
  uriTemplate: "fake://notes/{id}",
  name: "note",
  mimeType: "text/plain",
}];
const PROMPTS: Params[] = [
  {
    name: "greet",
    description: "Greets someone.",
    arguments: [
      { name: "name", description: "Who to greet", required: true },
      { name: "style", description: "How to greet", required: false },
    ],
  },
  { name: "plain", description: "A prompt without arguments." },
];

/** Pages `items`; the cursor is base64 of the next offset, opaque to the client. */
function page(key: string, items: Params[], params: Params): Params {
  let offset = 0;
  if (params.cursor !== undefined) {
    try {
      offset = Number(atob(String(params.cursor)));
    } catch {
      offset = NaN;
    }
    if (!Number.isInteger(offset) || offset <= 0 || offset >= items.length) {
      throw new RpcError(-32602, `Invalid cursor: ${params.cursor}`);
    }
  }
  const result: Params = { [key]: items.slice(offset, offset + PAGE_SIZE) };
  if (offset + PAGE_SIZE < items.length) result.nextCursor = btoa(String(offset + PAGE_SIZE));
  return result;
}

const STATIC_CONTENTS: Record<string, Params> = {
  "fake://docs/readme": { mimeType: "text/markdown", text: "# Readme\n" },
  "fake://docs/guide": { mimeType: "text/plain", text: "A guide." },
  // The 8-byte PNG signature: enough for a client to sniff the type.
  "fake://images/logo": { mimeType: "image/png", blob: "iVBORw0KGgo=" },
};

function readResource(params: Params): Params {
  const uri = String(params.uri);
  const id = /^fake:\/\/notes\/([^/]+)$/.exec(uri)?.[1];
  const content = id !== undefined
    ? { mimeType: "text/plain", text: `note ${id}` }
    : Object.hasOwn(STATIC_CONTENTS, uri)
    ? STATIC_CONTENTS[uri]
    : undefined;
  // Spec resources: a missing resource is -32002 with the uri in data.
  if (!content) throw new RpcError(-32002, "Resource not found", { uri });
  return { contents: [{ uri, ...content }] };
}

function getPrompt(params: Params): Params {
  const args = (params.arguments ?? {}) as Params;
  if (params.name === "plain") {
    return { messages: [{ role: "user", content: { type: "text", text: "A plain prompt." } }] };
  }
  if (params.name !== "greet") throw new RpcError(-32602, `Unknown prompt: ${params.name}`);
  if (typeof args.name !== "string") throw new RpcError(-32602, "Missing required argument: name");
  const style = typeof args.style === "string" ? args.style : "neutral";
  const content = { type: "text", text: `Hello ${args.name}, in a ${style} style` };
  return { description: "Greets someone.", messages: [{ role: "user", content }] };
}

function complete(params: Params): Params {
  const ref = (params.ref ?? {}) as Params;
  const argument = (params.argument ?? {}) as Params;
  let choices: string[];
  if (ref.type === "ref/prompt" && ref.name === "greet") {
    choices = argument.name === "style" ? ["formal", "friendly", "funny"] : [];
  } else if (ref.type === "ref/resource" && ref.uri === "fake://notes/{id}") {
    choices = argument.name === "id" ? ["1", "2", "42"] : [];
  } else throw new RpcError(-32602, `Unknown reference: ${JSON.stringify(ref)}`);
  const values = choices.filter((value) => value.startsWith(String(argument.value ?? "")));
  return { completion: { values, total: values.length, hasMore: false } };
}

function initialize(params: Params): Params {
  initializeParams = params;
  version = Deno.env.get("FAKE_PROTOCOL_VERSION") ?? negotiate(params.protocolVersion);
  const override = Deno.env.get("FAKE_CAPABILITIES");
  const capabilities = override ? JSON.parse(override) : {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  };
  return {
    protocolVersion: version,
    capabilities,
    serverInfo: { name: "fake-everything", version: "1.0.0" },
    instructions: "A fake server for tests.",
  };
}

async function callTool(params: Params, signal: AbortSignal): Promise<Params | typeof NO_RESPONSE> {
  const entry = TOOLS.find((candidate) => candidate.definition.name === params.name);
  if (!entry) throw new RpcError(-32602, `Unknown tool: ${params.name}`);
  if (params.task !== undefined && entry.definition.execution !== undefined) {
    const run = entry.run;
    const args = (params.arguments ?? {}) as Params;
    return startTask(
      params,
      run === "hang"
        ? () => new Promise<Params>(() => {})
        : () => run(args, params, new AbortController().signal),
    );
  }
  if (entry.run !== "hang") {
    return await entry.run((params.arguments ?? {}) as Params, params, signal);
  }
  await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  return NO_RESPONSE;
}

function setLevel(params: Params): Params {
  const index = LEVELS.indexOf(String(params.level));
  if (index < 0) throw new RpcError(-32602, `Unknown level: ${params.level}`);
  minLevel = index;
  return {};
}

function subscription(subscribe: boolean): (params: Params) => Params {
  return (params) => {
    if (subscribe) subscribed.add(String(params.uri));
    else subscribed.delete(String(params.uri));
    return {};
  };
}

type Method = (
  params: Params,
  signal: AbortSignal,
) => Params | Promise<Params | typeof NO_RESPONSE>;

const METHODS: Record<string, Method> = {
  "initialize": initialize,
  "ping": () => ({}),
  "tools/list": (params) => page("tools", TOOLS.map((entry) => entry.definition), params),
  "tools/call": callTool,
  "resources/list": (params) => page("resources", RESOURCES, params),
  "resources/templates/list": (params) => page("resourceTemplates", TEMPLATES, params),
  "resources/read": readResource,
  "resources/subscribe": subscription(true),
  "resources/unsubscribe": subscription(false),
  "prompts/list": (params) => page("prompts", PROMPTS, params),
  "prompts/get": getPrompt,
  "completion/complete": complete,
  "logging/setLevel": setLevel,
  ...TASK_METHODS,
};

await serve({
  onRequest: async ({ method, params }, signal) => {
    const run = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
    if (!run) throw new RpcError(-32601, `Method not found: ${method}`);
    return await run(params ?? {}, signal);
  },
  onNotification: ({ method }) => {
    if (method === "notifications/roots/list_changed") log("roots changed");
  },
});
await exit(0);
