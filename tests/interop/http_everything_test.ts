// Interop with the real server-everything over HTTP: Streamable HTTP (with a session) and the
// legacy HTTP+SSE transport, through the same client features as over stdio.

import assert from "node:assert/strict";
import {
  HttpTransport,
  type LogMessage,
  type Progress,
  StreamableHttpTransport,
} from "../../mod.ts";
import { connectChecked } from "../_helpers.ts";
import { everythingOverHttp } from "../_npm_servers.ts";

function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((c) => c.text ?? "").join("");
}

for (const mode of ["streamableHttp", "sse"] as const) {
  Deno.test(`server-everything over ${mode}: tools, resources, progress, logs and server requests`, async () => {
    await using server = await everythingOverHttp(mode);
    const transport = mode === "sse"
      ? new HttpTransport({ url: `${server.base}/sse` })
      : new StreamableHttpTransport({ url: `${server.base}/mcp` });
    const sampled: string[] = [];
    await using fx = await connectChecked(transport, {
      roots: [{ uri: "file:///srv/alpha", name: "alpha" }],
      onSampling: (request) => {
        sampled.push(JSON.stringify(request.messages[0]?.content));
        return { role: "assistant", content: { type: "text", text: "Bonjour" }, model: "interop" };
      },
      onElicitation: () => ({ action: "accept", content: {} }),
    });
    const { client } = fx;
    assert.equal(client.era, "legacy");
    if (mode === "sse") assert.equal((transport as HttpTransport).kind, "sse");
    else assert.ok((transport as StreamableHttpTransport).sessionId);

    const tools = (await client.listTools()).map((t) => t.name);
    assert.ok(
      tools.includes("echo") && tools.includes("trigger-sampling-request"),
      tools.join(", "),
    );
    assert.match(
      textOf(await client.callTool("echo", { message: "over the wire" })),
      /over the wire/,
    );

    const resources = await client.listResources();
    assert.ok(resources.length > 0);
    const read = await client.readResource(resources[0]!.uri);
    assert.equal(read.contents[0]?.uri, resources[0]!.uri);

    const updates: Progress[] = [];
    await client.callTool("trigger-long-running-operation", { duration: 0.3, steps: 3 }, {
      onProgress: (p) => updates.push(p),
      timeoutMs: 10_000,
    });
    assert.deepStrictEqual(updates.map((u) => u.progress), [1, 2, 3]);

    // Over HTTP the log may come on the GET stream, after the answer it belongs to: wait for it.
    const logged = new Promise<LogMessage>((resolve) => {
      const off = client.on("log", (m) => {
        if (/Unsubscribe/.test(String(m.data))) {
          off();
          resolve(m);
        }
      });
    });
    await client.setLoggingLevel("info");
    await client.unsubscribeResource(resources[0]!.uri);
    assert.equal((await logged).level, "info");

    const sample = await client.callTool("trigger-sampling-request", {
      prompt: "Say hi",
      maxTokens: 5,
    });
    assert.match(textOf(sample), /Bonjour/);
    assert.match(sampled[0] ?? "", /Say hi/);
    assert.match(textOf(await client.callTool("get-roots-list")), /file:\/\/\/srv\/alpha/);
  });
}
