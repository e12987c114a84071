// `mcp-inspect check`: a health and conformance report for any server. It lists everything,
// calls only what --call names, validates every message the server sent against the official
// schema of the negotiated revision, and exits 1 when it finds a problem.

import {
  type JsonRpcMessage,
  SchemaValidator,
  Skills,
  SPEC_REVISIONS,
  SpecValidator,
} from "../../mod.ts";
import type { Command, Context } from "./commands.ts";

interface Finding {
  level: "ok" | "warning" | "problem";
  check: string;
  detail: string;
}

/** Spec (server/tools, tool names): 1–128 characters from A-Z a-z 0-9 _ - . */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export const check: Command = {
  words: ["check"],
  recordWire: true,
  async run(context: Context): Promise<number> {
    const { client, out } = context;
    const findings: Finding[] = [];
    const latencies: Record<string, number> = {
      [client.era === "modern" ? "discover" : "handshake"]: Math.round(context.connectMs),
    };
    const add = (level: Finding["level"], check: string, detail: string) =>
      findings.push({ level, check, detail });
    const timed = async <T>(name: string, run: () => Promise<T>): Promise<T | undefined> => {
      const started = performance.now();
      try {
        return await run();
      } catch (error) {
        add("problem", name, (error as Error).message);
        return undefined;
      } finally {
        latencies[name] = Math.round((performance.now() - started) * 10) / 10;
      }
    };
    const caps = client.serverCapabilities;
    const options = {
      signal: context.signal,
      ...(context.args.timeoutMs ? { timeoutMs: context.args.timeoutMs } : {}),
    };
    add(
      "ok",
      "connect",
      `${client.serverInfo.name} ${client.serverInfo.version}, revision ${client.protocolVersion} (${client.era} era)`,
    );

    if (caps.tools) {
      const tools = await timed("tools/list", () => client.listTools(options));
      if (tools) {
        add("ok", "tools/list", `${tools.length} tool(s)`);
        const seen = new Set<string>();
        const validator = new SchemaValidator();
        for (const tool of tools) {
          if (!TOOL_NAME.test(tool.name)) {
            add(
              "warning",
              "tool names",
              `"${tool.name}" breaks the naming guidance (1–128 of A-Z a-z 0-9 _ - .)`,
            );
          }
          if (seen.has(tool.name)) add("problem", "tool names", `"${tool.name}" is listed twice`);
          seen.add(tool.name);
          for (
            const [kind, schema] of [["inputSchema", tool.inputSchema], [
              "outputSchema",
              tool.outputSchema,
            ]] as const
          ) {
            if (!schema) continue;
            try {
              validator.compile(schema);
            } catch (error) {
              add(
                "problem",
                "schemas",
                `${kind} of "${tool.name}" does not compile: ${(error as Error).message}`,
              );
            }
          }
        }
        for (const name of context.args.call) {
          if (!seen.has(name)) {
            add("problem", `call ${name}`, "no such tool");
            continue;
          }
          const result = await timed(
            `tools/call ${name}`,
            () => client.callTool(name, {}, options),
          );
          if (result) {
            add(
              result.isError ? "warning" : "ok",
              `call ${name}`,
              result.isError ? "returned isError" : "ok",
            );
          }
        }
      }
    }
    if (caps.resources) {
      const resources = await timed("resources/list", () => client.listResources(options));
      if (resources) add("ok", "resources/list", `${resources.length} resource(s)`);
      const templates = await timed(
        "resources/templates/list",
        () => client.listResourceTemplates(options),
      );
      if (templates) add("ok", "resources/templates/list", `${templates.length} template(s)`);
    }
    if (caps.prompts) {
      const prompts = await timed("prompts/list", () => client.listPrompts(options));
      if (prompts) add("ok", "prompts/list", `${prompts.length} prompt(s)`);
    }
    if (new Skills(client).available) {
      await (await import("./skills.ts")).checkSkills(context, add);
    }
    await timed("ping", () => client.ping(options));
    // Every fault the server committed on the way (garbage on stdout, stray or repeated answers,
    // malformed messages) is a problem of its own: an inspector shows them all.
    for (const d of context.diagnostics) {
      add(
        "problem",
        `protocol (${d.kind})`,
        d.data === undefined ? d.message : `${d.message}: ${d.data}`,
      );
    }
    await validateWire(context, findings);

    const problems = findings.filter((f) => f.level === "problem").length;
    const warnings = findings.filter((f) => f.level === "warning").length;
    if (context.args.json) {
      out.stdout(JSON.stringify(
        {
          server: client.serverInfo,
          protocolVersion: client.protocolVersion,
          era: client.era,
          findings,
          latenciesMs: latencies,
          problems,
          warnings,
        },
        null,
        2,
      ));
    } else {
      const { green, red, dim } = out.style;
      const mark = { ok: green("✓"), warning: "!", problem: red("✗") };
      for (const f of findings) out.stdout(`${mark[f.level]} ${f.check}: ${f.detail}`);
      out.stdout(
        dim(`latency (ms): ${Object.entries(latencies).map(([k, v]) => `${k} ${v}`).join(", ")}`),
      );
      out.stdout(`${problems} problem(s), ${warnings} warning(s)`);
    }
    return problems > 0 ? 1 : 0;
  },
};

/** Every message the server sent, checked against the official schema of the revision in use. */
async function validateWire(context: Context, findings: Finding[]): Promise<void> {
  const revision = context.client.protocolVersion;
  if (!SPEC_REVISIONS.includes(revision)) {
    findings.push({
      level: "warning",
      check: "schema",
      detail: `no official schema known for ${revision}`,
    });
    return;
  }
  let validator: SpecValidator;
  try {
    const dir = context.args.schemaDir;
    validator = await SpecValidator.load(revision, dir !== undefined ? { schemaDir: dir } : {});
  } catch (error) {
    findings.push({
      level: "warning",
      check: "schema",
      detail: `skipped: ${(error as Error).message}`,
    });
    return;
  }
  const wire = context.wire!;
  const methods = new Map<unknown, string>();
  for (const message of wire.sent) {
    if ("method" in message && "id" in message) methods.set(message.id, message.method);
  }
  let invalid = 0;
  for (const message of wire.received) {
    const answers = responseTo(message, methods);
    const issues = validator.checkServerMessage(message, answers);
    if (issues.length === 0) continue;
    invalid++;
    if (invalid <= 10) {
      const what = "method" in message
        ? message.method
        : `response to ${answers ?? "unknown request"}`;
      findings.push({
        level: "problem",
        check: "schema",
        detail: `${what}: ${issues.slice(0, 3).join("; ")}`,
      });
    }
  }
  findings.push({
    level: invalid > 0 ? "problem" : "ok",
    check: "schema",
    detail: `${
      wire.received.length - invalid
    } of ${wire.received.length} message(s) from the server are valid against the ${revision} schema`,
  });
}

function responseTo(message: JsonRpcMessage, methods: Map<unknown, string>): string | undefined {
  if ("method" in message || !("result" in message)) return undefined;
  return methods.get(message.id);
}
