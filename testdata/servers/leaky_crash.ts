// A fake MCP server that leaks its secret, as servers that dump their environment on a fatal
// error do. Usage: SECRET_TOKEN=… deno run --allow-env testdata/servers/leaky_crash.ts [answer]
// Without an argument it prints the secret to stderr and exits 3 before answering anything; with
// `answer` it answers initialize with a JSON-RPC error quoting the secret, then waits for stdin to
// end.

const token = Deno.env.get("SECRET_TOKEN") ?? "(unset)";
if (Deno.args[0] !== "answer") {
  console.error(`fatal: cannot log in with SECRET_TOKEN=${token}`);
  console.error(`hint: token ${token} was refused`);
  Deno.exit(3);
}
const encoder = new TextEncoder();
let buffer = "";
for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf("\n")) !== -1) {
    const message = JSON.parse(buffer.slice(0, newline));
    buffer = buffer.slice(newline + 1);
    if (message.id === undefined) continue;
    const error = { code: -32603, message: `cannot log in with token ${token}` };
    const answer = JSON.stringify({ jsonrpc: "2.0", id: message.id, error });
    await Deno.stdout.write(encoder.encode(`${answer}\n`));
  }
}
