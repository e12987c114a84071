// The server of sdk_modern.ts, served over stdio by the official SDK v2 as a dual-era server: a
// connection that opens with `server/discover` (or any modern request) is served in the modern
// era, one that opens with `initialize` is pinned to the legacy era for its lifetime.
// Usage: deno run --allow-all --config deno.json testdata/servers/sdk_dual.ts

import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { sdkServer } from "./sdk_modern.ts";

serveStdio(sdkServer, { legacy: "serve" });
