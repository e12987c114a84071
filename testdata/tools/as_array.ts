// A tools module whose default export is an array of tool definitions.

import type { LocalTool } from "../../src/manager/mod.ts";

const tools: LocalTool[] = [{
  name: "shout",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  handler: ({ text }) => String(text ?? "").toUpperCase(),
}];

export default tools;
