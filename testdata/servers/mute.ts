// A fake MCP server that reads everything and answers nothing, not even the handshake: the
// client's whole command must still end at its --timeout.
// Usage: deno run --allow-all testdata/servers/mute.ts

for await (const _ of Deno.stdin.readable) {
  // read and ignore
}
