// The server of the HTTP benchmarks: testdata/http/fast_http.ts in a process of its own.

import { onCpus } from "./_cpus.ts";

const SERVER = new URL("../testdata/http/fast_http.ts", import.meta.url).pathname;

/** The benchmark server, listening: its URL, and how to stop it. */
export interface BenchServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the server process (on `cpus`, if given) and resolves with its URL once it listens. */
export async function startServer(
  mode: "json" | "sse",
  cpus: string | undefined,
): Promise<BenchServer> {
  const [command, args] = onCpus(cpus, Deno.execPath(), [
    "run",
    "--allow-net",
    "--allow-env",
    "--no-config",
    SERVER,
  ]);
  const child = new Deno.Command(command, {
    args,
    env: { FAST_HTTP_MODE: mode },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("The benchmark server exited before listening");
    text += value;
  }
  await reader.cancel(); // the port is all we needed from stdout
  return {
    url: `http://127.0.0.1:${text.trim()}/mcp`,
    async close() {
      try {
        child.kill("SIGTERM");
      } catch {
        // it exited already (it failed, and said why on stderr)
      }
      await child.status;
    },
  };
}
