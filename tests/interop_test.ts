// Interop tests against real MCP servers from npm, run as processes over stdio. Every message the
// client sends is checked against the official schema (connectChecked); the servers are the
// reference implementations, so a disagreement here is a bug on one side or the other.

import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import {
  type CallToolResult,
  type ClientEvents,
  type ClientOptions,
  DEFAULT_INHERITED_ENV_VARS,
  type ElicitationRequest,
  type ElicitationResult,
  ErrorCode,
  type LogMessage,
  McpError,
  type Progress,
  type SamplingRequest,
  StdioTransport,
  type StdioTransportOptions,
} from "../mod.ts";
import { type CheckedClient, connectChecked, rejectsWith } from "./_helpers.ts";
import { denoEnv, type NpmServer, npmServer } from "./_npm_servers.ts";

// ---------------------------------------------------------------------------------------------
// Helpers

function connectNpm(
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
function everything(
  options: ClientOptions = {},
  transport: Partial<StdioTransportOptions> = {},
): Promise<CheckedClient> {
  return connectNpm("everything", ["stdio"], options, transport);
}

function textOf(result: CallToolResult): string {
  return result.content.map((item) => item.type === "text" ? item.text ?? "" : "").join("\n");
}

/** The JSON that server-everything appends to a tool's text after "Raw result: ". */
function rawResultOf(result: CallToolResult): Record<string, unknown> {
  const text = textOf(result);
  const marker = "Raw result: ";
  assert.ok(text.includes(marker), `no raw result in ${text}`);
  return JSON.parse(text.slice(text.indexOf(marker) + marker.length));
}

/** The next event of a kind that matches, or a rejection after `ms`. Leaves no timer behind. */
function nextEvent<K extends keyof ClientEvents & string>(
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

/** Polls until `check` holds; servers apply some changes (roots) after the call that caused them. */
async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A temporary directory (its real path, as servers resolve symlinks) removed on dispose. */
async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcp-interop-" }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

function root(path: string, name: string): { uri: string; name: string } {
  return { uri: pathToFileURL(path).href, name };
}

// ---------------------------------------------------------------------------------------------
// @modelcontextprotocol/server-everything

Deno.test("server-everything: the handshake reports its info, capabilities and instructions", async () => {
  await using fx = await everything();
  const { client } = fx;
  assert.equal(client.protocolVersion, "2025-11-25");
  assert.equal(client.serverInfo.name, "mcp-servers/everything");
  for (const capability of ["tools", "prompts", "resources", "logging", "completions"]) {
    assert.ok(capability in client.serverCapabilities, `no "${capability}" capability`);
  }
  assert.match(client.instructions ?? "", /\S/);
});

Deno.test("server-everything: listTools() walks every page and matches a single raw page", async () => {
  await using fx = await everything();
  const tools = await fx.client.listTools();
  const names = tools.map((tool) => tool.name);
  for (
    const name of ["echo", "get-sum", "get-structured-content", "trigger-long-running-operation"]
  ) {
    assert.ok(names.includes(name), `no tool "${name}" in ${names.join(", ")}`);
  }
  assert.equal(new Set(names).size, names.length, "a tool was listed twice");
  // Tools that need sampling, elicitation or roots appear only for a client that offers them.
  assert.ok(!names.includes("trigger-sampling-request"));
  assert.ok(!names.includes("get-roots-list"));
  const page = await fx.client.listTools({ cursor: undefined });
  assert.equal(page.nextCursor, undefined);
  assert.deepEqual(page.items.map((tool) => tool.name), names);
});

Deno.test("server-everything: callTool() runs its echo and get-sum tools", async () => {
  await using fx = await everything();
  const echo = await fx.client.callTool("echo", { message: "héllo, wörld" });
  assert.equal(echo.isError, undefined);
  assert.equal(textOf(echo), "Echo: héllo, wörld");
  const sum = await fx.client.callTool("get-sum", { a: 19, b: 23.5 });
  assert.equal(textOf(sum), "The sum of 19 and 23.5 is 42.5.");
});

Deno.test("server-everything: structured content passes the tool's output schema", async () => {
  await using fx = await everything();
  const result = await fx.client.callTool("get-structured-content", { location: "Chicago" });
  assert.deepEqual(result.structuredContent, {
    temperature: 36,
    conditions: "Light rain / drizzle",
    humidity: 82,
  });
  assert.deepEqual(JSON.parse(textOf(result)), result.structuredContent);
});

Deno.test("server-everything: image, resource link and embedded resource content arrive intact", async () => {
  await using fx = await everything();
  const image = await fx.client.callTool("get-tiny-image");
  const png = image.content.find((item) => item.type === "image");
  assert.equal(png?.mimeType, "image/png");
  const bytes = Uint8Array.from(atob(png?.data ?? ""), (c) => c.charCodeAt(0));
  assert.deepEqual([...bytes.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]); // the PNG signature

  const links = await fx.client.callTool("get-resource-links", { count: 4 });
  const uris = links.content.filter((item) => item.type === "resource_link").map((item) =>
    item.uri
  );
  assert.deepEqual(uris, [
    "demo://resource/dynamic/blob/1",
    "demo://resource/dynamic/text/2",
    "demo://resource/dynamic/blob/3",
    "demo://resource/dynamic/text/4",
  ]);

  const reference = await fx.client.callTool("get-resource-reference", {
    resourceType: "Text",
    resourceId: 7,
  });
  const embedded = reference.content.find((item) => item.type === "resource");
  assert.equal(embedded?.resource?.uri, "demo://resource/dynamic/text/7");
  assert.match(embedded?.resource?.text ?? "", /^Resource 7: This is a plaintext resource/);
});

Deno.test("server-everything: failed tool calls come back as isError results, not rejections", async () => {
  await using fx = await everything();
  // The SDK's McpServer turns bad arguments and unknown tools alike into a tool error result.
  const invalid = await fx.client.callTool("get-sum", { a: "one", b: 2 });
  assert.equal(invalid.isError, true);
  assert.match(textOf(invalid), /Invalid arguments for tool get-sum/);
  const unknown = await fx.client.callTool("no-such-tool");
  assert.equal(unknown.isError, true);
  assert.match(textOf(unknown), /Tool no-such-tool not found/);
});

Deno.test("server-everything: onProgress receives every step of a long-running operation", async () => {
  await using fx = await everything();
  const updates: Progress[] = [];
  const result = await fx.client.callTool(
    "trigger-long-running-operation",
    { duration: 0.5, steps: 5 },
    { onProgress: (progress) => updates.push(progress), timeoutMs: 10_000 },
  );
  assert.match(textOf(result), /Long running operation completed/);
  assert.deepEqual(updates.map((update) => update.progress), [1, 2, 3, 4, 5]);
  assert.ok(updates.every((update) => update.total === 5));
});

Deno.test("server-everything: listResources() and readResource() read static and templated resources", async () => {
  await using fx = await everything();
  const resources = await fx.client.listResources();
  const instructions = resources.find((resource) => resource.name === "instructions.md");
  assert.ok(instructions, `no instructions.md in ${resources.map((r) => r.name).join(", ")}`);
  // The same file is the server's instructions, so the two paths must agree byte for byte.
  const read = await fx.client.readResource(instructions.uri);
  assert.equal(read.contents[0]?.mimeType, "text/markdown");
  assert.equal(read.contents[0]?.text, fx.client.instructions);

  const templates = await fx.client.listResourceTemplates();
  assert.deepEqual(templates.map((template) => template.uriTemplate).sort(), [
    "demo://resource/dynamic/blob/{resourceId}",
    "demo://resource/dynamic/text/{resourceId}",
  ]);
  const text = await fx.client.readResource("demo://resource/dynamic/text/3");
  assert.match(text.contents[0]?.text ?? "", /^Resource 3: This is a plaintext resource/);
  const blob = await fx.client.readResource("demo://resource/dynamic/blob/5");
  assert.match(atob(blob.contents[0]?.blob ?? ""), /^Resource 5: This is a base64 blob/);
  await rejectsWith(fx.client.readResource("demo://resource/dynamic/text/zero"), McpError);
});

Deno.test("server-everything: listPrompts() and getPrompt() render prompts with arguments", async () => {
  await using fx = await everything();
  const prompts = await fx.client.listPrompts();
  const names = prompts.map((prompt) => prompt.name).sort();
  assert.deepEqual(names, [
    "args-prompt",
    "completable-prompt",
    "resource-prompt",
    "simple-prompt",
  ]);
  const args = prompts.find((prompt) => prompt.name === "args-prompt");
  assert.deepEqual(
    args?.arguments?.map(({ name, required }) => ({ name, required: required ?? false })),
    [{ name: "city", required: true }, { name: "state", required: false }],
  );

  const simple = await fx.client.getPrompt("simple-prompt");
  assert.equal(simple.messages[0]?.content.text, "This is a simple prompt without arguments.");
  const weather = await fx.client.getPrompt("args-prompt", { city: "Lyon", state: "Rhône" });
  assert.equal(weather.messages[0]?.content.text, "What's weather in Lyon, Rhône?");
  const embedded = await fx.client.getPrompt("resource-prompt", {
    resourceType: "Text",
    resourceId: "2",
  });
  assert.equal(embedded.messages[1]?.content.type, "resource");
  assert.equal(embedded.messages[1]?.content.resource?.uri, "demo://resource/dynamic/text/2");
  await rejectsWith(fx.client.getPrompt("args-prompt", {}), McpError);
});

Deno.test("server-everything: complete() completes prompt arguments, with context, and template variables", async () => {
  await using fx = await everything();
  const ref = { type: "ref/prompt", name: "completable-prompt" } as const;
  const departments = await fx.client.complete(ref, { name: "department", value: "S" });
  assert.deepEqual(departments.completion.values.sort(), ["Sales", "Support"]);
  const people = await fx.client.complete(ref, { name: "name", value: "" }, {
    context: { department: "Engineering" },
  });
  assert.deepEqual(people.completion.values, ["Alice", "Bob", "Charlie"]);
  const ids = await fx.client.complete(
    { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
    { name: "resourceId", value: "12" },
  );
  assert.deepEqual(ids.completion.values, ["12"]);
});

Deno.test("server-everything: setLoggingLevel() filters the log messages it sends", async () => {
  await using fx = await everything();
  const logs: LogMessage[] = [];
  fx.client.on("log", (message) => logs.push(message));
  const uri = "demo://resource/static/document/features.md";
  // Its subscribe and unsubscribe handlers log at "info" before they answer, so by the time
  // the answer arrives, any log line the level let through has arrived too.
  await fx.client.setLoggingLevel("error");
  await fx.client.subscribeResource(uri);
  assert.equal(logs.length, 0, `unexpected log: ${JSON.stringify(logs[0])}`);
  await fx.client.setLoggingLevel("info");
  await fx.client.unsubscribeResource(uri);
  assert.equal(logs.length, 1);
  assert.equal(logs[0]?.level, "info");
  assert.match(String(logs[0]?.data), /Received Unsubscribe Resource request/);
});

Deno.test("server-everything: onSampling answers its sampling request", async () => {
  const requests: SamplingRequest[] = [];
  await using fx = await everything({
    onSampling: (request) => {
      requests.push(request);
      return {
        role: "assistant",
        content: { type: "text", text: "Bonjour" },
        model: "interop-test-model",
        stopReason: "endTurn",
      };
    },
  });
  const tools = (await fx.client.listTools()).map((tool) => tool.name);
  assert.ok(tools.includes("trigger-sampling-request"));
  const result = await fx.client.callTool("trigger-sampling-request", {
    prompt: "Say hello in French",
    maxTokens: 17,
  });
  assert.equal(requests.length, 1);
  assert.equal(requests[0]?.maxTokens, 17);
  assert.equal(requests[0]?.systemPrompt, "You are a helpful test server.");
  const first = requests[0]?.messages[0]?.content;
  assert.match(Array.isArray(first) ? "" : first?.text ?? "", /Say hello in French/);
  const text = textOf(result);
  const sampled = JSON.parse(text.slice(text.indexOf("{")));
  assert.deepEqual(sampled, {
    role: "assistant",
    content: { type: "text", text: "Bonjour" },
    model: "interop-test-model",
    stopReason: "endTurn",
  });
});

Deno.test("server-everything: onElicitation answers a form, and the form's defaults fill the gaps", async () => {
  const requests: ElicitationRequest[] = [];
  let answer: ElicitationResult = { action: "accept", content: { name: "Ada", check: true } };
  await using fx = await everything({
    onElicitation: (request) => {
      requests.push(request);
      return answer;
    },
  });
  const accepted = await fx.client.callTool("trigger-elicitation-request");
  assert.equal(requests[0]?.mode ?? "form", "form");
  assert.deepEqual(requests[0]?.requestedSchema?.required, ["name"]);
  assert.match(textOf(accepted), /- Name: Ada/);
  assert.deepEqual(rawResultOf(accepted), {
    action: "accept",
    content: {
      name: "Ada",
      check: true,
      firstLine: "It was a dark and stormy night.",
      integer: 42,
      number: 3.14,
      untitledSingleSelectEnum: "Monica",
      untitledMultipleSelectEnum: ["Guitar"],
      titledSingleSelectEnum: "hero-1",
      titledMultipleSelectEnum: ["fish-1"],
      legacyTitledEnum: "pet-1",
    },
  });

  answer = { action: "decline" };
  const declined = await fx.client.callTool("trigger-elicitation-request");
  assert.match(textOf(declined), /User declined/);
  assert.deepEqual(rawResultOf(declined), { action: "decline" });
});

Deno.test("server-everything: URL elicitation works by request and by the -32042 error", async () => {
  const requests: ElicitationRequest[] = [];
  await using fx = await everything({
    elicitationModes: ["form", "url"],
    onElicitation: (request) => {
      requests.push(request);
      return { action: "accept" };
    },
  });
  const args = { url: "https://example.com/consent", elicitationId: "consent-1" };
  const result = await fx.client.callTool("trigger-url-elicitation", args);
  assert.match(textOf(result), /User completed the URL elicitation flow/);
  assert.equal(requests[0]?.mode, "url");
  assert.equal(requests[0]?.url, args.url);
  assert.equal(requests[0]?.elicitationId, "consent-1");

  // The error path: the call fails with the elicitations the user must complete first, and a
  // retry with the same arguments then proceeds by the request path.
  const error = await rejectsWith(
    fx.client.callTool("trigger-url-elicitation", { ...args, errorPath: true }),
    McpError,
  );
  assert.equal(error.code, ErrorCode.UrlElicitationRequired);
  const data = error.data as { elicitations?: { mode?: string; url?: string }[] };
  assert.equal(data.elicitations?.[0]?.mode, "url");
  assert.equal(data.elicitations?.[0]?.url, "https://modelcontextprotocol.io");
  const retried = await fx.client.callTool("trigger-url-elicitation", { ...args, errorPath: true });
  assert.match(textOf(retried), /User completed the URL elicitation flow/);
  assert.equal(requests.length, 2);
});

Deno.test("server-everything: it lists the client's roots and follows setRoots()", async () => {
  await using fx = await everything({ roots: [{ uri: "file:///srv/alpha", name: "alpha" }] });
  const first = await fx.client.callTool("get-roots-list");
  assert.match(textOf(first), /Current MCP Roots \(1 total\)/);
  assert.match(textOf(first), /1\. alpha\n\s+URI: file:\/\/\/srv\/alpha/);

  const updated = nextEvent(fx, "log", (log) => /Roots updated: 2 root/.test(String(log.data)));
  await fx.client.setRoots([
    { uri: "file:///srv/alpha", name: "alpha" },
    { uri: "file:///srv/beta", name: "beta" },
  ]);
  await updated;
  const second = await fx.client.callTool("get-roots-list");
  assert.match(textOf(second), /Current MCP Roots \(2 total\)/);
  assert.match(textOf(second), /2\. beta\n\s+URI: file:\/\/\/srv\/beta/);
});

Deno.test("server-everything: the server sees only allowlisted variables plus the configured env", async () => {
  await using fx = await everything({}, { env: { MCP_INSPECT_INTEROP: "passed through" } });
  const env = JSON.parse(textOf(await fx.client.callTool("get-env"))) as Record<string, string>;
  assert.equal(env.MCP_INSPECT_INTEROP, "passed through");
  const allowed = new Set([
    ...DEFAULT_INHERITED_ENV_VARS,
    ...Object.keys(denoEnv()),
    "MCP_INSPECT_INTEROP",
  ]);
  // Deno itself sets npm_config_user_agent ("deno/2.x npm/? …") when it runs an npm package.
  assert.match(env.npm_config_user_agent ?? "deno/", /^deno\//);
  allowed.add("npm_config_user_agent");
  const leaked = Object.keys(env).filter((key) => !allowed.has(key));
  assert.deepEqual(leaked, [], `variables outside the allowlist reached the server`);
});

// ---------------------------------------------------------------------------------------------
// @modelcontextprotocol/server-filesystem

async function allowedDirectories(fx: CheckedClient): Promise<string[]> {
  const result = await fx.client.callTool("list_allowed_directories");
  return textOf(result).split("\n").slice(1);
}

Deno.test("server-filesystem: a directory given only as a root can be listed, written and read", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/seed.txt`, "planted by the test\n");
  await using fx = await connectNpm("filesystem", [], { roots: [root(dir.path, "scratch")] });
  // The server asks for roots after the handshake, so they take effect a moment later.
  await until(
    async () => (await allowedDirectories(fx)).includes(dir.path),
    "the root becomes an allowed directory",
  );

  const listing = await fx.client.callTool("list_directory", { path: dir.path });
  assert.equal(textOf(listing), "[FILE] seed.txt");
  assert.deepEqual(listing.structuredContent, { content: "[FILE] seed.txt" });

  const content = "line one\nligne deux — ünïcode\n";
  await fx.client.callTool("create_directory", { path: `${dir.path}/notes` });
  const written = await fx.client.callTool("write_file", {
    path: `${dir.path}/notes/hello.txt`,
    content,
  });
  assert.equal(written.isError, undefined, textOf(written));
  assert.equal(await Deno.readTextFile(`${dir.path}/notes/hello.txt`), content);

  const read = await fx.client.callTool("read_text_file", { path: `${dir.path}/notes/hello.txt` });
  assert.equal(textOf(read), content);
  const tree = await fx.client.callTool("list_directory", { path: dir.path });
  assert.deepEqual(textOf(tree).split("\n").sort(), ["[DIR] notes", "[FILE] seed.txt"]);

  const outside = await fx.client.callTool("read_text_file", { path: "/etc/hostname" });
  assert.equal(outside.isError, true);
  assert.match(textOf(outside), /Access denied/);
});

Deno.test("server-filesystem: setRoots() moves the server from its argument directory to a new root", async () => {
  await using first = await tempDir();
  await using second = await tempDir();
  await using fx = await connectNpm("filesystem", [first.path], {
    roots: [root(first.path, "first")],
  });
  await until(
    async () => (await allowedDirectories(fx)).includes(first.path),
    "the first directory is allowed",
  );
  await fx.client.setRoots([root(second.path, "second")]);
  await until(
    async () => {
      const allowed = await allowedDirectories(fx);
      return allowed.includes(second.path) && !allowed.includes(first.path);
    },
    "only the second directory is allowed",
  );
  const written = await fx.client.callTool("write_file", {
    path: `${second.path}/moved.txt`,
    content: "in the new root",
  });
  assert.equal(written.isError, undefined, textOf(written));
  assert.equal(await Deno.readTextFile(`${second.path}/moved.txt`), "in the new root");
  const denied = await fx.client.callTool("write_file", {
    path: `${first.path}/stale.txt`,
    content: "must not be written",
  });
  assert.equal(denied.isError, true);
  await assert.rejects(Deno.stat(`${first.path}/stale.txt`), Deno.errors.NotFound);
});

// ---------------------------------------------------------------------------------------------
// @modelcontextprotocol/server-memory

Deno.test("server-memory: the graph is stored at MEMORY_FILE_PATH passed through env", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/graph.jsonl`;
  const entities = [
    { name: "Ada", entityType: "person", observations: ["wrote the first program"] },
    { name: "Analytical Engine", entityType: "machine", observations: [] },
  ];
  const relations = [{ from: "Ada", to: "Analytical Engine", relationType: "programmed" }];
  {
    await using fx = await connectNpm("memory", [], {}, { env: { MEMORY_FILE_PATH: file } });
    const uri = "memory://knowledge-graph";
    await fx.client.subscribeResource(uri);
    const updated = nextEvent(fx, "resourceUpdated", (event) => event.uri === uri);
    const created = await fx.client.callTool("create_entities", { entities });
    assert.deepEqual(created.structuredContent, { entities });
    await updated;
    await fx.client.callTool("create_relations", { relations });
    const graph = await fx.client.callTool("read_graph");
    assert.deepEqual(graph.structuredContent, { entities, relations });
    const resource = await fx.client.readResource(uri);
    assert.deepEqual(JSON.parse(resource.contents[0]?.text ?? ""), { entities, relations });
  }

  const lines = (await Deno.readTextFile(file)).split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(lines, [
    ...entities.map((entity) => ({ type: "entity", ...entity })),
    ...relations.map((relation) => ({ type: "relation", ...relation })),
  ]);

  // A second server given the same path reads the graph back.
  await using again = await connectNpm("memory", [], {}, { env: { MEMORY_FILE_PATH: file } });
  const found = await again.client.callTool("open_nodes", { names: ["Ada"] });
  assert.deepEqual(found.structuredContent, { entities: [entities[0]], relations });
});
