// A server whose every string is markup meant to run in an inspector's page: tool names and
// descriptions, instructions, results, resource text and an HTML resource. A page that shows
// them as text runs none of it; each payload sets window.__pwned if it ever runs.
// Usage: deno run --allow-all testdata/servers/hostile.ts

import { FakeServer } from "../../src/testing/testing.ts";

const IMG = `<img src=x onerror="window.__pwned='img'">`;
const SCRIPT = `<script>window.__pwned='script'</script>`;
const LINK = `javascript:window.__pwned='link'`;

await new FakeServer({
  name: `hostile${IMG}`,
  instructions: `Instructions ${SCRIPT}${IMG}`,
  tools: [
    {
      name: "markup",
      title: `Title ${IMG}`,
      description: `Description ${IMG}${SCRIPT}`,
      inputSchema: {
        type: "object",
        properties: {
          text: {
            type: "string",
            description: `Field help ${IMG}`,
            default: `"><svg onload="window.__pwned='default'">`,
          },
        },
      },
      handler: () => ({
        content: [
          { type: "text", text: `Result ${IMG}${SCRIPT}` },
          { type: "resource_link", uri: LINK, name: `Link ${IMG}` },
          {
            type: "image",
            data: "PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
            mimeType: `image/svg+xml" onerror="window.__pwned='mime'`,
          },
        ],
      }),
    },
  ],
  resources: [
    {
      uri: "hostile://page",
      name: `Page ${IMG}`,
      mimeType: "text/html",
      text: `<html><body>${SCRIPT}${IMG}</body></html>`,
    },
  ],
}).serveStdio();
