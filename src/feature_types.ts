// The data types of the server features: tools (with their schemas and annotations), content,
// resources and templates, prompts, and completion. Open types: unknown fields pass through.

/**
 * A JSON Schema object, kept exactly as the server sent it.
 *
 * @example The input schema of a tool taking two numbers
 * ```ts
 * import type { JsonSchema } from "@mcp-inspect/client";
 * const inputSchema: JsonSchema = {
 *   type: "object",
 *   properties: { a: { type: "number" }, b: { type: "number" } },
 *   required: ["a", "b"],
 * };
 * ```
 */
export type JsonSchema = Record<string, unknown>;

/**
 * Hints about a tool's behaviour. They are hints from the server, not guarantees.
 *
 * @example Finding the tools to confirm before they run
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({
 *   tools: [{ name: "search" }, { name: "drop_table", annotations: { destructiveHint: true } }],
 * });
 * await using client = await Client.connect(fake.transport());
 * const risky = (await client.listTools()).filter((tool) => tool.annotations?.destructiveHint);
 * console.log(risky.map((tool) => tool.name)); // ["drop_table"]: ask the user first
 * ```
 */
export interface ToolAnnotations {
  /** Display name. */
  title?: string;
  /** Does not modify its environment. */
  readOnlyHint?: boolean;
  /** May perform destructive updates. */
  destructiveHint?: boolean;
  /** Calling again with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** Interacts with an open world of external entities. */
  openWorldHint?: boolean;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * A tool the server offers.
 *
 * @example Listing the tools
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo", description: "Repeats its text" }] });
 * await using client = await Client.connect(fake.transport());
 * for (const tool of await client.listTools()) console.log(tool.name, tool.description);
 * // "echo" "Repeats its text"
 * ```
 */
export interface Tool {
  /** The name to call it by. */
  name: string;
  /** Display name. */
  title?: string;
  /** What it does. */
  description?: string;
  /** The JSON Schema of its arguments. */
  inputSchema: JsonSchema;
  /** The JSON Schema of its `structuredContent`, if it returns structured results. */
  outputSchema?: JsonSchema;
  /** Behaviour hints. */
  annotations?: ToolAnnotations;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * One piece of content in a tool result, prompt message or sampling message.
 *
 * @example Printing the text of a result
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo", handler: (args) => String(args.text) }] });
 * await using client = await Client.connect(fake.transport());
 * const result = await client.callTool("echo", { text: "hi" });
 * for (const item of result.content) if (item.type === "text") console.log(item.text); // "hi"
 * ```
 */
export interface Content {
  /** `text`, `image`, `audio`, `resource_link` or `resource`. */
  type: string;
  /** The text of `text` content. */
  text?: string;
  /** Base64 data of `image` and `audio` content. */
  data?: string;
  /** The MIME type of `image` and `audio` content. */
  mimeType?: string;
  /** The URI of a `resource_link`. */
  uri?: string;
  /** The contents of an embedded `resource`. */
  resource?: ResourceContents;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * The result of `tools/call`.
 *
 * @example Preferring structured content
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const add = (args: Record<string, unknown>) => ({ sum: Number(args.a) + Number(args.b) });
 * const fake = new FakeServer({
 *   tools: [{ name: "add", handler: (args) => ({ content: [], structuredContent: add(args) }) }],
 * });
 * await using client = await Client.connect(fake.transport());
 * const result = await client.callTool("add", { a: 1, b: 2 });
 * console.log(result.structuredContent ?? result.content); // { sum: 3 }
 * ```
 */
export interface CallToolResult {
  /** Unstructured content. */
  content: Content[];
  /** Structured content, validated against the tool's `outputSchema` when it has one. */
  structuredContent?: unknown;
  /** The tool failed; `content` says why. */
  isError?: boolean;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * A resource the server offers.
 *
 * @example Listing the resources
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ resources: [{ uri: "mem://todo", text: "Buy milk" }] });
 * await using client = await Client.connect(fake.transport());
 * for (const resource of await client.listResources()) console.log(resource.uri); // "mem://todo"
 * ```
 */
export interface Resource {
  /** Its URI. */
  uri: string;
  /** Programmatic name. */
  name: string;
  /** Display name. */
  title?: string;
  /** What it is. */
  description?: string;
  /** Its MIME type. */
  mimeType?: string;
  /** Size in bytes, if known. */
  size?: number;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * A family of resources, addressed by an RFC 6570 URI template.
 *
 * @example Listing the resource templates
 * ```ts
 * import { Client, MemoryTransport } from "@mcp-inspect/client";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * const resourceTemplates = [{ uriTemplate: "mem://notes/{id}", name: "note" }];
 * const server = new McpServer({
 *   serverInfo: { name: "notes", version: "1.0.0" },
 *   capabilities: { resources: {} },
 *   handlers: { "resources/templates/list": () => ({ resourceTemplates }) },
 * });
 * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
 * for (const template of await client.listResourceTemplates()) console.log(template.uriTemplate);
 * // "mem://notes/{id}"
 * ```
 */
export interface ResourceTemplate {
  /** The URI template. */
  uriTemplate: string;
  /** Programmatic name. */
  name: string;
  /** Display name. */
  title?: string;
  /** What it is. */
  description?: string;
  /** The MIME type of matching resources. */
  mimeType?: string;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * The contents of a resource: `text` or base64 `blob`.
 *
 * @example Reading the text of a resource
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const hosts = { uri: "file:///etc/hosts", text: "127.0.0.1 localhost" };
 * const fake = new FakeServer({ resources: [hosts] });
 * await using client = await Client.connect(fake.transport());
 * const { contents } = await client.readResource("file:///etc/hosts");
 * console.log(contents[0]?.text); // "127.0.0.1 localhost"
 * ```
 */
export interface ResourceContents {
  /** The resource's URI. */
  uri: string;
  /** Its MIME type. */
  mimeType?: string;
  /** Text contents. */
  text?: string;
  /** Base64 binary contents. */
  blob?: string;
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * The result of `resources/read`.
 *
 * @example Reading a resource
 * ```ts
 * import { Client, type ReadResourceResult } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ resources: [{ uri: "fake://docs/readme", text: "# Readme" }] });
 * await using client = await Client.connect(fake.transport());
 * const result: ReadResourceResult = await client.readResource("fake://docs/readme");
 * console.log(result.contents);
 * // [{ uri: "fake://docs/readme", text: "# Readme", mimeType: "text/plain" }]
 * ```
 */
export interface ReadResourceResult {
  /** One or more contents. */
  contents: ResourceContents[];
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * A prompt template the server offers.
 *
 * @example Listing the prompts and their arguments
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const greet = { name: "greet", arguments: [{ name: "name" }], text: "Hi" };
 * const fake = new FakeServer({ prompts: [greet] });
 * await using client = await Client.connect(fake.transport());
 * for (const prompt of await client.listPrompts()) console.log(prompt.name, prompt.arguments);
 * // "greet" [{ name: "name" }]
 * ```
 */
export interface Prompt {
  /** The name to get it by. */
  name: string;
  /** Display name. */
  title?: string;
  /** What it is for. */
  description?: string;
  /** Its arguments. */
  arguments?: { name: string; description?: string; required?: boolean; [key: string]: unknown }[];
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * The result of `prompts/get`.
 *
 * @example Rendering a prompt
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer } from "@mcp-inspect/client/testing";
 *
 * const greet = { name: "greet", text: (args: Record<string, string>) => `Hello ${args.name}` };
 * const fake = new FakeServer({ prompts: [greet] });
 * await using client = await Client.connect(fake.transport());
 * const { messages } = await client.getPrompt("greet", { name: "Ada" });
 * console.log(messages); // [{ role: "user", content: { type: "text", text: "Hello Ada" } }]
 * ```
 */
export interface GetPromptResult {
  /** A description of the rendered prompt. */
  description?: string;
  /** The messages. */
  messages: { role: "user" | "assistant"; content: Content }[];
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}

/**
 * What `complete()` completes: a prompt argument or a resource template variable.
 *
 * @example Referring to a prompt
 * ```ts
 * import type { CompletionReference } from "@mcp-inspect/client";
 * const ref: CompletionReference = { type: "ref/prompt", name: "greet" };
 * ```
 */
export type CompletionReference =
  | { type: "ref/prompt"; name: string }
  | { type: "ref/resource"; uri: string };

/**
 * The result of `completion/complete`.
 *
 * @example Completing a prompt argument
 * ```ts
 * import { Client, MemoryTransport } from "@mcp-inspect/client";
 * import { McpServer } from "@mcp-inspect/client/server";
 *
 * const server = new McpServer({
 *   serverInfo: { name: "greeter", version: "1.0.0" },
 *   capabilities: { completions: {} },
 *   handlers: { "completion/complete": () => ({ completion: { values: ["formal", "fun"] } }) },
 * });
 * await using client = await Client.connect(MemoryTransport.serving((end) => server.serve(end)));
 * const { completion } = await client.complete({ type: "ref/prompt", name: "greet" }, { name: "style", value: "f" });
 * console.log(completion.values); // ["formal", "fun"]
 * ```
 */
export interface CompleteResult {
  /** The suggestions. */
  completion: { values: string[]; total?: number; hasMore?: boolean; [key: string]: unknown };
  /** Fields this client does not model pass through untouched. */
  [key: string]: unknown;
}
