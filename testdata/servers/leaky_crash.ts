// A fake MCP server that prints its secret to stderr and crashes before answering anything, as a
// server that dumps its environment on a fatal error does.
// Usage: SECRET_TOKEN=… deno run --allow-env testdata/servers/leaky_crash.ts

const token = Deno.env.get("SECRET_TOKEN") ?? "(unset)";
console.error(`fatal: cannot log in with SECRET_TOKEN=${token}`);
console.error(`hint: token ${token} was refused`);
Deno.exit(3);
