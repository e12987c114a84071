import assert from "node:assert/strict";
import { Client as SdkClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as SdkStdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client, HttpTransport, StdioTransport } from "../../mod.ts";
import { fakeServer } from "../_helpers.ts";

const CLI = new URL("../../cli.ts", import.meta.url).pathname;

function entry(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { command, args } = fakeServer(name);
  return { command, args, ...extra };
}

async function withConfig(
  servers: Record<string, unknown>,
  run: (file: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/mcp.json`;
  await Deno.writeTextFile(file, JSON.stringify({ mcpServers: servers }, null, 2));
  try {
    await run(file);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function proxyArgs(file: string, ...more: string[]): string[] {
  return ["run", "--allow-all", CLI, "proxy", "--config", file, ...more];
}

function textOf(result: { content: unknown }): string {
  return ((result.content as { text: string }[])[0]!).text;
}

Deno.test("mcp-inspect proxy serves a config file over stdio to this client, following edits", async () => {
  await withConfig(
    { fast: entry("fast.ts"), rich: entry("everything.ts", { deny: ["fail"] }) },
    async (file) => {
      await using client = await Client.connect(
        new StdioTransport({ command: Deno.execPath(), args: proxyArgs(file), name: "proxy" }),
      );
      const names = (await client.listTools()).map((tool) => tool.name);
      assert.ok(names.includes("mcp__fast__echo") && names.includes("mcp__rich__add"));
      assert.ok(!names.includes("mcp__rich__fail"));
      assert.equal(
        textOf(await client.callTool("mcp__fast__echo", { text: "via proxy" })),
        "via proxy",
      );

      const changed = new Promise<void>((resolve) => client.on("toolsListChanged", resolve));
      await Deno.writeTextFile(file, JSON.stringify({ mcpServers: { more: entry("fast.ts") } }));
      await changed;
      let tools = (await client.listTools({ bypassCache: true })).map((tool) => tool.name);
      for (let i = 0; i < 50 && !tools.includes("mcp__more__echo"); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        tools = (await client.listTools({ bypassCache: true })).map((tool) => tool.name);
      }
      assert.deepEqual(tools, ["mcp__more__echo"]);
    },
  );
});

Deno.test("mcp-inspect proxy serves the official SDK client over stdio", async () => {
  await withConfig({ fast: entry("fast.ts") }, async (file) => {
    const sdk = new SdkClient({ name: "sdk-test", version: "1.0.0" });
    await sdk.connect(
      new SdkStdioTransport({ command: Deno.execPath(), args: proxyArgs(file), stderr: "ignore" }),
    );
    try {
      const { tools } = await sdk.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), ["mcp__fast__echo"]);
      const result = await sdk.callTool({ name: "mcp__fast__echo", arguments: { text: "sdk" } });
      assert.equal(textOf(result), "sdk");
    } finally {
      await sdk.close();
    }
  });
});

Deno.test("mcp-inspect proxy --http prints its URL, serves, and stops on SIGTERM", async () => {
  await withConfig({ fast: entry("fast.ts") }, async (file) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: proxyArgs(file, "--http", "--port", "0", "--token", "t0ken-for-tests"),
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const { value } = await lines.read();
    const url = new URL(value!.trim());
    assert.equal(url.hostname, "127.0.0.1");
    {
      await using client = await Client.connect(
        new HttpTransport({ url, headers: { authorization: "Bearer t0ken-for-tests" } }),
      );
      assert.equal(textOf(await client.callTool("mcp__fast__echo", { text: "http" })), "http");
    }
    child.kill("SIGTERM");
    const status = await child.status;
    await lines.cancel();
    const stderr = new TextDecoder().decode(await new Response(child.stderr).arrayBuffer());
    assert.equal(status.code, 0, stderr);
    assert.match(stderr, /serving 1 tools at http:\/\/127\.0\.0\.1:/);
  });
});

Deno.test("mcp-inspect servers reports every server and exits 3 when one fails", async () => {
  await withConfig(
    { fast: entry("fast.ts"), broken: { command: "/nonexistent/server" } },
    async (file) => {
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", CLI, "servers", "--config", file, "--json"],
      }).output();
      assert.equal(output.code, 3);
      const report = JSON.parse(new TextDecoder().decode(output.stdout));
      assert.deepEqual(
        report.servers.map((s: { name: string; state: string }) => [s.name, s.state]),
        [
          ["fast", "ready"],
          ["broken", "failed"],
        ],
      );
      assert.match(report.servers[1].lastError, /\/nonexistent\/server/);
      assert.deepEqual(report.tools, [{ server: "fast", name: "mcp__fast__echo", tool: "echo" }]);

      const bad = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", CLI, "proxy", "--config", `${file}.missing`],
      }).output();
      assert.equal(bad.code, 2);
      assert.match(new TextDecoder().decode(bad.stderr), /^error: Cannot read config file/);
    },
  );
});
