// A fake MCP server that is hard to stop: it ignores SIGTERM and SIGHUP, and starts a grandchild
// (a shell running sleep) that ignores them too. It logs `pids <server> <grandchild>` on stderr,
// and its one tool, `hang`, never answers (it logs `cancelled <id>` when told to stop).
// Usage: deno run --allow-all testdata/servers/stubborn.ts

import { exit, log, negotiate, NO_RESPONSE, RpcError, serve } from "./_wire.ts";

for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  Deno.addSignalListener(signal, () => log(`ignoring ${signal}`));
}
const grandchild = new Deno.Command("sh", {
  args: ["-c", "trap '' TERM HUP; sleep 600 & wait"],
  stdin: "null",
  stdout: "null",
  stderr: "null",
}).spawn();
log(`pids ${Deno.pid} ${grandchild.pid}`);

await serve({
  onRequest: ({ method, params }) => {
    switch (method) {
      case "initialize":
        return Promise.resolve({
          protocolVersion: negotiate(params?.protocolVersion),
          capabilities: { tools: {}, logging: {} },
          serverInfo: { name: "fake-stubborn", version: "1.0.0" },
        });
      case "ping":
      case "logging/setLevel":
        return Promise.resolve({});
      case "tools/list":
        return Promise.resolve({ tools: [{ name: "hang", inputSchema: { type: "object" } }] });
      case "tools/call":
        return Promise.resolve(NO_RESPONSE);
      default:
        throw new RpcError(-32601, `Method not found: ${method}`);
    }
  },
});
// stdin ended: stay, as stubborn servers do, until killed.
await new Promise(() => {});
await exit(0);
