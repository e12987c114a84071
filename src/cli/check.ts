// `mcp-inspect check`: a health and conformance report for any server. It lists everything,
// calls only what --call names, validates every message the server sent against the official
// schema of the negotiated revision, and exits 1 when it finds a problem.

import {
  type JsonRpcMessage,
  SchemaValidator,
  Skills,
  SPEC_REVISIONS,
  SpecValidator,
  type Tool,
} from "../../mod.ts";
import { UsageError } from "./args.ts";
import type { Command, Context } from "./command.ts";
import { CheckReport, type Finding } from "./_check_report.ts";

/** Spec (server/tools, tool names): 1–128 characters from A-Z a-z 0-9 _ - . */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

type Options = { signal: AbortSignal; timeoutMs?: number | undefined };

export const check: Command = {
  words: ["check"],
  recordWire: true,
  async run(context: Context): Promise<number> {
    const { client } = context;
    // Before any output: a --schema-dir that cannot serve this revision is the user's mistake,
    // not a warning under a report that exits 0 having validated nothing.
    const validator = await loadValidator(context);
    const report = new CheckReport();
    report.latencies[client.era === "modern" ? "discover" : "handshake"] = Math.round(
      context.connectMs,
    );
    const options: Options = {
      signal: context.signal,
      timeoutMs: context.args.timeoutMs,
    };
    const { name, version } = client.serverInfo;
    report.add(
      "ok",
      "connect",
      `${name} ${version}, revision ${client.protocolVersion} (${client.era} era)`,
    );
    const caps = client.serverCapabilities;
    if (caps.tools) await checkTools(context, report, options);
    if (caps.resources) await checkResources(context, report, options);
    if (caps.prompts) {
      const prompts = await report.timed("prompts/list", () => client.listPrompts(options));
      if (prompts) {
        report.add("ok", "prompts/list", `${prompts.length} prompt(s)`);
        repeats(report, "prompt names", "prompt", prompts.map((prompt) => prompt.name));
      }
    }
    if (new Skills(client).available) {
      await (await import("./skills.ts")).checkSkills(context, (...a) => report.add(...a));
    }
    await report.timed("ping", () => client.ping(options));
    // Every fault the server committed on the way (garbage on stdout, stray or repeated answers,
    // malformed messages) is a problem of its own: an inspector shows them all.
    for (const d of context.diagnostics) {
      const detail = d.data === undefined ? d.message : `${d.message}: ${d.data}`;
      report.add("problem", `protocol (${d.kind})`, detail);
    }
    validateWire(context, validator, report.findings);
    return report.print(context);
  },
};

/** Tool names and schemas, and the calls --call names. */
async function checkTools(context: Context, report: CheckReport, options: Options): Promise<void> {
  const { client } = context;
  const tools = await report.timed("tools/list", () => client.listTools(options));
  if (!tools) return;
  report.add("ok", "tools/list", `${tools.length} tool(s)`);
  const seen = new Set<string>();
  await SchemaValidator.ready();
  const validator = new SchemaValidator();
  for (const tool of tools) {
    if (!TOOL_NAME.test(tool.name)) {
      report.add(
        "warning",
        "tool names",
        `"${tool.name}" breaks the naming guidance (1–128 of A-Z a-z 0-9 _ - .)`,
      );
    }
    seen.add(tool.name);
    const schemas = [["inputSchema", tool.inputSchema], ["outputSchema", tool.outputSchema]];
    for (const [kind, schema] of schemas as [string, typeof tool.inputSchema | undefined][]) {
      if (!schema) continue;
      try {
        validator.compile(schema);
      } catch (error) {
        const why = (error as Error).message;
        report.add("problem", "schemas", `${kind} of "${tool.name}" does not compile: ${why}`);
      }
    }
  }
  repeats(report, "tool names", "tool", tools.map((tool) => tool.name));
  policyFinding(context, report, tools);
  for (const name of context.args.call) {
    // --call is a call like `tools call`: what the config's lists refuse is not sent.
    const refused = context.policy?.refusal(name);
    if (refused) {
      report.add("problem", `call ${name}`, `${refused.message}; not called`);
      continue;
    }
    if (!seen.has(name)) {
      report.add("problem", `call ${name}`, "no such tool");
      continue;
    }
    const result = await report.timed(
      `tools/call ${name}`,
      () => client.callTool(name, {}, options),
    );
    if (!result) continue;
    report.add(
      result.isError ? "warning" : "ok",
      `call ${name}`,
      result.isError ? "returned isError" : "ok",
    );
  }
}

/**
 * How the config's allow and deny lists apply. `check` inspects the server itself, so every tool
 * is still listed and checked; this says which of them the manager, the proxy and the other
 * commands would refuse.
 */
function policyFinding(context: Context, report: CheckReport, tools: readonly Tool[]): void {
  const policy = context.policy;
  if (!policy) return;
  const allowed = new Set(policy.allowed(tools));
  const refused = tools.filter((tool) => !allowed.has(tool)).map((tool) => `"${tool.name}"`);
  const named = refused.length === 0
    ? ""
    : `: ${refused.slice(0, 10).join(", ")}${
      refused.length > 10 ? ` and ${refused.length - 10} more` : ""
    }`;
  report.add(
    "ok",
    "policy",
    `${refused.length} of ${tools.length} tool(s) refused by the allow/deny lists of server ` +
      `"${policy.server}" in ${policy.file}${named}`,
  );
}

/** Resources and resource templates. */
async function checkResources(
  context: Context,
  report: CheckReport,
  options: Options,
): Promise<void> {
  const { client } = context;
  const resources = await report.timed("resources/list", () => client.listResources(options));
  if (resources) {
    report.add("ok", "resources/list", `${resources.length} resource(s)`);
    repeats(report, "resource URIs", "resource", resources.map((resource) => resource.uri));
  }
  const templates = await report.timed(
    "resources/templates/list",
    () => client.listResourceTemplates(options),
  );
  if (templates) {
    report.add("ok", "resources/templates/list", `${templates.length} template(s)`);
    const patterns = templates.map((template) => template.uriTemplate);
    repeats(report, "resource templates", "template", patterns);
  }
}

/**
 * Names a listing gives more than once: which one a call by that name reaches is up to chance,
 * so each is a problem.
 */
function repeats(report: CheckReport, check: string, kind: string, names: string[]): void {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const [name, count] of counts) {
    if (count > 1) report.add("problem", check, `${kind} "${name}" is listed ${count} times`);
  }
}

/**
 * The validator of the revision in use: a warning finding when no official schema is known for
 * it, a usage error when --schema-dir cannot give it.
 */
async function loadValidator(context: Context): Promise<SpecValidator | Finding> {
  const revision = context.client.protocolVersion;
  if (!SPEC_REVISIONS.includes(revision)) {
    return {
      level: "warning",
      check: "schema",
      detail: `no official schema known for ${revision}`,
    };
  }
  const dir = context.args.schemaDir;
  try {
    return await SpecValidator.load(revision, dir !== undefined ? { schemaDir: dir } : {});
  } catch (error) {
    if (dir !== undefined) {
      throw new UsageError(`Cannot use --schema-dir "${dir}": ${(error as Error).message}`);
    }
    return { level: "warning", check: "schema", detail: `skipped: ${(error as Error).message}` };
  }
}

/** Every message the server sent, checked against the official schema of the revision in use. */
function validateWire(
  context: Context,
  validator: SpecValidator | Finding,
  findings: Finding[],
): void {
  if (!(validator instanceof SpecValidator)) {
    findings.push(validator);
    return;
  }
  const revision = context.client.protocolVersion;
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
