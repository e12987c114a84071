// The client that the official conformance suite drives: it appends the server URL to our
// command line and names the scenario in MCP_CONFORMANCE_SCENARIO. Built only on mod.ts.
//
//   deno run -A npm:@modelcontextprotocol/conformance@0.2.0-alpha.12 client \
//     --command "deno run -A tests/conformance/client.ts" --scenario sse-retry

import {
  Client,
  type ClientOptions,
  Skills,
  SkillVerificationError,
  StreamableHttpTransport,
} from "../../mod.ts";
import { runAuthScenario } from "./_auth.ts";

type Scenario = (client: Client) => Promise<void>;

/** Lists tools and calls the first one with the numbers the scenario expects. */
const basic: Scenario = async (client) => {
  if (!client.serverCapabilities.tools) return; // the initialize scenario offers nothing more
  const [tool] = await client.listTools();
  if (tool) await client.callTool(tool.name, { a: 2, b: 3 });
};

/** Lists the skills, then loads the first: the scenario serves a file that fails verification. */
const loadFirstSkill: Scenario = async (client) => {
  const skills = new Skills(client);
  const [entry] = (await skills.list()).skills;
  if (!entry) throw new Error("The scenario listed no skill");
  try {
    await skills.load(entry);
  } catch (error) {
    if (!(error instanceof SkillVerificationError)) throw error;
    console.error(`[skills] refused: ${error.message}`);
  }
};

const SCENARIOS: Record<string, { run: Scenario; options?: ClientOptions }> = {
  // Listing must read no skill file: only a load does.
  "sep-2640-client-no-prefetch": { run: async (client) => void await new Skills(client).list() },
  "sep-2640-client-verify-digest": { run: loadFirstSkill },
  "sep-2640-client-verify-size": { run: loadFirstSkill },
  "sep-2640-client-verify-frontmatter": { run: loadFirstSkill },
  "initialize": { run: basic },
  "tools_call": { run: basic },
  "tools-call": { run: basic },
  "json-schema-ref-no-deref": {
    run: async (client) => void await client.listTools(),
  },
  "json-schema-2020-12-preservation": {
    // The scenario diffs the schema we echo against what it sent: we must keep it verbatim.
    run: async (client) => {
      const tools = await client.listTools();
      const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
      if (!focal) throw new Error("The scenario did not offer json_schema_2020_12_tool");
      await client.callTool("json_schema_echo", { schema: focal.inputSchema });
    },
  },
  "elicitation-sep1034-client-defaults": {
    // Accept with nothing filled in: the client must apply every default of the form.
    options: { onElicitation: () => ({ action: "accept", content: {} }) },
    run: async (client) => {
      await client.callTool("test_client_elicitation_defaults", {});
    },
  },
  "request-metadata": {
    run: async (client) => void await client.listTools(),
  },
  "http-standard-headers": { run: basic },
  "http-invalid-tool-headers": {
    // Tools with invalid x-mcp-header annotations must already be gone from the list.
    run: async (client) => {
      for (const tool of await client.listTools()) {
        await client.callTool(tool.name, { region: "us" });
      }
    },
  },
  "http-custom-headers": {
    run: async (client) => {
      await client.listTools();
      await client.callTool("test_custom_headers", {
        region: "us-west1",
        priority: 5,
        verbose: true,
        debug: false,
        empty_val: "",
        method_val: "tools/call",
        float_val: 1.5,
        non_ascii_val: "Hello, 世界",
        whitespace_val: " padded ",
        leading_space_val: " lead",
        trailing_space_val: "trail ",
        internal_space_val: "a b",
        control_char_val: "a\u0001b",
        crlf_val: "line1\r\nline2",
        tab_val: "\tx",
        query: "SELECT 1",
      });
      await client.callTool("test_custom_headers_null", {
        region: "eu",
        priority: 1,
        verbose: null,
        query: "q",
      });
    },
  },
  "sep-2322-client-request-state": {
    options: { onElicitation: () => ({ action: "accept", content: { confirmed: true } }) },
    run: async (client) => {
      for (const tool of await client.listTools()) await client.callTool(tool.name, {});
    },
  },
  "sse-retry": {
    run: async (client) => {
      const [tool] = await client.listTools();
      if (tool) await client.callTool(tool.name, {});
    },
  },
};

async function main(): Promise<number> {
  const url = Deno.args.at(-1);
  const name = Deno.env.get("MCP_CONFORMANCE_SCENARIO") ?? "";
  const scenario = SCENARIOS[name];
  if (url && !scenario && name.startsWith("auth/")) return await runAuthScenario(url, name);
  if (!url || !scenario) {
    console.error(`conformance client: scenario "${name}" is not supported (url: ${url})`);
    return 2;
  }
  await using client = await Client.connect(
    new StreamableHttpTransport({
      url,
      onDiagnostic: (d) => console.error(`[diagnostic] ${d.message}`),
    }),
    { clientInfo: { name: "mcp-inspect-conformance", version: "1.0.0" }, ...scenario.options },
  );
  await scenario.run(client);
  return 0;
}

if (import.meta.main) {
  // A refusal some scenarios expect (a capability the server lacks, metadata naming another
  // resource) ends the run with its message and exit code 1, not an uncaught stack trace.
  const code = await main().catch((error) => {
    const scenario = Deno.env.get("MCP_CONFORMANCE_SCENARIO") ?? "";
    console.error(`conformance client: ${scenario}: ${error?.name}: ${error?.message ?? error}`);
    return 1;
  });
  Deno.exit(code);
}
