// A module that offers no tools: `mcp-inspect proxy --tools` refuses it.

export const answer = 42;
