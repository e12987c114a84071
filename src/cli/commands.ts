// The one-server commands of mcp-inspect that need no module of their own: info, tools,
// resources, prompts, complete, ping and logs. Each prints a readable view, or with --json
// exactly one JSON document: the protocol result.

import type { Tool } from "../../mod.ts";
import { closest, UsageError } from "./args.ts";
import { type Command, type Context, printJson } from "./command.ts";
import {
  promptArguments,
  readArgsOption,
  typedArguments,
  undeclaredArguments,
} from "./typed_arguments.ts";
import {
  describeArguments,
  oneLine,
  renderContent,
  renderResource,
  renderToolResult,
  table,
} from "./format.ts";

function requestOptions(context: Context) {
  return {
    signal: context.signal,
    timeoutMs: context.args.timeoutMs,
  };
}

function need(context: Context, count: number, usage: string): void {
  if (context.positionals.length < count) throw new UsageError(`Missing argument: ${usage}`);
}

const info: Command = {
  words: ["info"],
  run(context) {
    const { client, out } = context;
    const result = {
      serverInfo: client.serverInfo,
      protocolVersion: client.protocolVersion,
      era: client.era,
      capabilities: client.serverCapabilities,
      instructions: client.instructions ?? null,
      connectMs: Math.round(context.connectMs),
    };
    if (context.args.json) {
      printJson(context, result);
      return Promise.resolve(0);
    }
    const b = out.style.bold;
    out.stdout([
      `${b("Server")}        ${client.serverInfo.name} ${client.serverInfo.version}`,
      `${b("Revision")}      ${client.protocolVersion} (${
        client.era === "modern" ? "modern era, stateless" : "legacy era, initialize handshake"
      })`,
      `${b("Capabilities")}  ${Object.keys(client.serverCapabilities).join(", ") || "none"}`,
      `${b(client.era === "modern" ? "Discover" : "Handshake")}     ${
        Math.round(context.connectMs)
      } ms`,
      ...(client.instructions ? [`${b("Instructions")}  ${client.instructions}`] : []),
    ].join("\n"));
    return Promise.resolve(0);
  },
};

/** The tools the config's lists allow (what the manager would offer); `note` says how many not. */
async function allowedTools(context: Context, note: boolean): Promise<Tool[]> {
  const listed = await context.client.listTools(requestOptions(context));
  const { out, policy } = context;
  const say = note ? (line: string) => out.stderr(out.errStyle.dim(line)) : undefined;
  return policy ? policy.allowed(listed, say) : listed;
}

const toolsList: Command = {
  words: ["tools", "list"],
  async run(context) {
    const tools = await allowedTools(context, true);
    if (context.args.json) printJson(context, { tools });
    else {
      context.out.stdout(
        tools.length === 0 ? "No tools." : table(
          tools.map((t) => [t.name, describeArguments(t.inputSchema), oneLine(t.description, 60)]),
          ["NAME", "ARGUMENTS", "DESCRIPTION"].map(context.out.style.bold),
        ),
      );
    }
    return 0;
  },
};

/** The tool or prompt by name, or a usage error suggesting the closest name. */
async function findByName<T extends { name: string }>(
  kind: "tool" | "prompt",
  items: readonly T[],
  name: string,
): Promise<T> {
  const item = items.find((i) => i.name === name);
  if (item) return item;
  const suggestion = await closest(name, items.map((i) => i.name));
  throw new UsageError(
    `Unknown ${kind} "${name}"${suggestion ? `; did you mean "${suggestion}"?` : ""}`,
  );
}

const toolsCall: Command = {
  words: ["tools", "call"],
  toolsToCall: (positionals) => Promise.resolve(positionals.slice(0, 1)),
  async run(context) {
    need(context, 1, "tools call <name> [key=value ...]");
    const [name, ...pairs] = context.positionals as [string, ...string[]];
    // Checked here too, not only before connecting: the shell runs this on an open connection.
    context.policy?.check(name);
    const options = requestOptions(context);
    // Among the allowed tools only: a refused one is no suggestion for a misspelt name.
    const tool = await findByName("tool", await allowedTools(context, false), name);
    const args = {
      ...(await readArgsOption(context.args.args)),
      ...typedArguments(pairs, tool.inputSchema),
    };
    for (const warning of await undeclaredArguments(tool, args)) {
      context.out.stderr(`${context.out.errStyle.bold("warning:")} ${warning}`);
    }
    const missing = ((tool.inputSchema.required ?? []) as string[]).filter((k) => !(k in args));
    if (missing.length > 0) {
      throw new UsageError(
        `Tool "${name}" needs argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`,
      );
    }
    const result = await context.client.callTool(name, args, {
      ...options,
      onProgress: (p) => {
        const total = p.total !== undefined ? `/${p.total}` : "";
        context.out.stderr(
          context.out.errStyle.dim(`progress ${p.progress}${total} ${p.message ?? ""}`),
        );
      },
    });
    if (context.args.json) printJson(context, result);
    else context.out.stdout(renderToolResult(result));
    return result.isError ? 1 : 0;
  },
};

const resourcesList: Command = {
  words: ["resources", "list"],
  async run(context) {
    const resources = await context.client.listResources(requestOptions(context));
    if (context.args.json) printJson(context, { resources });
    else {
      context.out.stdout(
        resources.length === 0 ? "No resources." : table(
          resources.map((r) => [r.uri, r.mimeType ?? "", oneLine(r.description ?? r.name, 60)]),
          ["URI", "TYPE", "DESCRIPTION"].map(context.out.style.bold),
        ),
      );
    }
    return 0;
  },
};

const resourcesTemplates: Command = {
  words: ["resources", "templates"],
  async run(context) {
    const templates = await context.client.listResourceTemplates(requestOptions(context));
    if (context.args.json) printJson(context, { resourceTemplates: templates });
    else {
      context.out.stdout(
        templates.length === 0 ? "No resource templates." : table(
          templates.map((
            t,
          ) => [t.uriTemplate, t.mimeType ?? "", oneLine(t.description ?? t.name, 60)]),
          ["URI TEMPLATE", "TYPE", "DESCRIPTION"].map(context.out.style.bold),
        ),
      );
    }
    return 0;
  },
};

const resourcesRead: Command = {
  words: ["resources", "read"],
  async run(context) {
    need(context, 1, "resources read <uri>");
    const result = await context.client.readResource(
      context.positionals[0]!,
      requestOptions(context),
    );
    if (context.args.json) printJson(context, result);
    else context.out.stdout(result.contents.map(renderResource).join("\n"));
    return 0;
  },
};

const promptsList: Command = {
  words: ["prompts", "list"],
  async run(context) {
    const prompts = await context.client.listPrompts(requestOptions(context));
    if (context.args.json) printJson(context, { prompts });
    else {
      context.out.stdout(
        prompts.length === 0 ? "No prompts." : table(
          prompts.map((p) => [
            p.name,
            (p.arguments ?? []).map((a) => `${a.name}${a.required ? "*" : "?"}`).join(", "),
            oneLine(p.description, 60),
          ]),
          ["NAME", "ARGUMENTS", "DESCRIPTION"].map(context.out.style.bold),
        ),
      );
    }
    return 0;
  },
};

const promptsGet: Command = {
  words: ["prompts", "get"],
  async run(context) {
    need(context, 1, "prompts get <name> [key=value ...]");
    const [name, ...pairs] = context.positionals as [string, ...string[]];
    const args: Record<string, string> = {};
    const given = {
      ...(await readArgsOption(context.args.args)),
      ...promptArguments(pairs),
    };
    for (const [key, value] of Object.entries(given)) {
      args[key] = typeof value === "string" ? value : JSON.stringify(value);
    }
    const options = requestOptions(context);
    const prompt = await findByName("prompt", await context.client.listPrompts(options), name);
    for (const warning of await undeclaredArguments(prompt, args)) {
      context.out.stderr(`${context.out.errStyle.bold("warning:")} ${warning}`);
    }
    const missing = (prompt.arguments ?? []).filter((a) => a.required && !(a.name in args));
    if (missing.length > 0) {
      throw new UsageError(
        `Prompt "${name}" needs argument${missing.length > 1 ? "s" : ""} ${
          missing.map((a) => a.name).join(", ")
        }`,
      );
    }
    const result = await context.client.getPrompt(name, args, options);
    if (context.args.json) printJson(context, result);
    else {
      context.out.stdout(
        result.messages.map((m) =>
          `${context.out.style.bold(`${m.role}:`)} ${renderContent(m.content)}`
        )
          .join("\n"),
      );
    }
    return 0;
  },
};

const ping: Command = {
  words: ["ping"],
  async run(context) {
    const started = performance.now();
    await context.client.ping(requestOptions(context));
    const ms = Math.round((performance.now() - started) * 10) / 10;
    if (context.args.json) printJson(context, {});
    else context.out.stdout(`pong (${ms} ms)`);
    return 0;
  },
};

const complete: Command = {
  words: ["complete"],
  async run(context) {
    need(context, 3, "complete <prompt-or-template> <argument> <partial>");
    const [target, name, value] = context.positionals as [string, string, string];
    // A URI template names a resource; anything else is a prompt.
    const ref = target.includes("://") || target.includes("{")
      ? { type: "ref/resource" as const, uri: target }
      : { type: "ref/prompt" as const, name: target };
    const result = await context.client.complete(ref, { name, value }, requestOptions(context));
    if (context.args.json) printJson(context, result);
    else context.out.stdout(result.completion.values.join("\n") || "No completions.");
    return 0;
  },
};

const logs: Command = {
  words: ["logs"],
  async run(context) {
    const { client, out } = context;
    const json = context.args.json;
    const print = (kind: string, params: unknown) =>
      out.stdout(
        json ? JSON.stringify({ notification: kind, params }) : `${kind} ${JSON.stringify(params)}`,
      );
    const offs = [
      client.on("log", (m) => {
        if (json) print("notifications/message", m);
        else {
          const data = typeof m.data === "string" ? m.data : JSON.stringify(m.data);
          out.stdout(`[${m.level}]${m.logger ? ` ${m.logger}:` : ""} ${data}`);
        }
      }),
      client.on("toolsListChanged", () => print("notifications/tools/list_changed", {})),
      client.on("promptsListChanged", () => print("notifications/prompts/list_changed", {})),
      client.on("resourcesListChanged", () => print("notifications/resources/list_changed", {})),
      client.on("resourceUpdated", (p) => print("notifications/resources/updated", p)),
    ];
    try {
      if (client.serverCapabilities.logging) {
        await client.setLoggingLevel("debug", requestOptions(context));
      }
      out.stderr(out.errStyle.dim("Streaming server notifications; Ctrl-C to stop."));
      // Until Ctrl-C (a normal end for this command) or until the server goes away.
      const closed = new Promise<Error>((resolve) => offs.push(client.on("close", resolve)));
      const interrupted = new Promise<void>((resolve) =>
        context.signal.addEventListener("abort", () => resolve(), { once: true })
      );
      const ended = await Promise.race([closed, interrupted]);
      if (ended instanceof Error && !context.signal.aborted) throw ended;
      return 0;
    } finally {
      for (const off of offs) off();
    }
  },
};

/** The commands of this module, as the CLI and the shell look them up. */
export const COMMANDS: readonly Command[] = [
  complete,
  logs,
  info,
  toolsList,
  toolsCall,
  resourcesList,
  resourcesTemplates,
  resourcesRead,
  promptsList,
  promptsGet,
  ping,
];
