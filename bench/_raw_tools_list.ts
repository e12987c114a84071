// The physical limit of `mcp-inspect tools list` for bench/cli.ts: what a user's tiny script does
// with no library. It spawns the server given after it, initializes, lists the tools, prints their
// names and descriptions, and ends the server (stdin closed, then SIGTERM) before exiting.
//
// With --exit-time first, it instead closes the server's stdin and waits up to 5 s for the server
// to exit by itself, and prints how long that took (`exit-after-eof-ms <n>`, or `never`) to stderr:
// what a client honouring the spec's shutdown ladder waits before it may send SIGTERM.
//
// Usage: deno run -A bench/_raw_tools_list.ts [--exit-time] <command> [args...]

const exitTime = Deno.args[0] === "--exit-time";
const [command, ...args] = exitTime ? Deno.args.slice(1) : Deno.args;
if (command === undefined) {
  throw new Error("Usage: _raw_tools_list.ts [--exit-time] <command> [args...]");
}
const child = new Deno.Command(command, {
  args,
  stdin: "piped",
  stdout: "piped",
  stderr: "null",
}).spawn();
const writer = child.stdin.getWriter();
const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
const encoder = new TextEncoder();
let buffered = "";

const send = (message: object) => writer.write(encoder.encode(`${JSON.stringify(message)}\n`));

async function answer(id: number): Promise<{ result: Record<string, unknown> }> {
  while (true) {
    const end = buffered.indexOf("\n");
    if (end !== -1) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const message = JSON.parse(line);
      if (message.id === id) return message;
      continue;
    }
    const { value, done } = await lines.read();
    if (done) throw new Error("The server closed stdout");
    buffered += value;
  }
}

await send({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
});
await answer(1);
await send({ jsonrpc: "2.0", method: "notifications/initialized" });
await send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
const { tools } = (await answer(2)).result as { tools: { name: string; description?: string }[] };
console.log(tools.map((tool) => `${tool.name}\t${tool.description ?? ""}`).join("\n"));
const closed = performance.now();
await writer.close();
if (exitTime) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const exited = await Promise.race([
    child.status.then(() => true),
    new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), 5_000)),
  ]);
  clearTimeout(timer);
  console.error(`exit-after-eof-ms ${exited ? Math.round(performance.now() - closed) : "never"}`);
  if (!exited) child.kill("SIGTERM");
} else {
  child.kill("SIGTERM");
}
await child.status;
await lines.cancel();
