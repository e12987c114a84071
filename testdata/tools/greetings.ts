// A tools module for `mcp-inspect proxy --tools`: its default export receives the registry.

import type { ToolRegistry } from "../../src/manager/mod.ts";

export default function register(registry: ToolRegistry): void {
  registry.register({
    name: "greet",
    description: "Greets someone by name.",
    inputSchema: {
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    },
    annotations: { readOnlyHint: true, title: "Greet" },
    handler: ({ name }) => `Hello, ${name}!`,
  });
  registry.register({
    name: "count",
    description: "Counts to n, reporting progress at each step.",
    inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 1 } } },
    handler: async ({ n }, { progress, signal }) => {
      const total = Number(n ?? 3);
      for (let step = 1; step <= total && !signal.aborted; step++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        progress({ progress: step, total });
      }
      return `counted to ${total}`;
    },
  });
}
