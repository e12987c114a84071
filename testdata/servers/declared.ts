// A fake MCP server declared with the public testing helpers (src/testing), served on stdio: how
// a user of `@mcp-inspect/client/testing` writes a child-process fake.
// Usage: deno run --allow-all testdata/servers/declared.ts

import { FakeServer } from "../../src/testing/testing.ts";

await new FakeServer({
  name: "declared",
  tools: [{ name: "shout", handler: (args) => String(args.text).toUpperCase() }],
}).serveStdio();
