// `deno task bench`, HTTP leg: tools/call over Streamable HTTP against one local server (JSON
// answers, then SSE answers), this client beside the official SDK v2 client's
// StreamableHTTPClientTransport and a bare fetch loop (no client at all: what fetch itself gets
// from the server: the limit), in the same run. Targets: ≥ 0.9× the bare loop sequentially with
// JSON answers, and ≥ 1.5× the SDK in every mode.

import { Client as SdkV2Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client, StreamableHttpTransport } from "../mod.ts";
import { callRunner, formatTable, median, rate, ratio, type Runner } from "./_bench_util.ts";

const SERVER = new URL("../testdata/http/fast_http.ts", import.meta.url).pathname;
const CLIENT_INFO = { name: "bench", version: "1.0.0" };
const TARGET = 1.5;
/** Sequential JSON calls, as a fraction of the bare fetch loop. */
const LIMIT_TARGET = 0.9;

interface Options {
  calls: number;
  rounds: number;
  json: boolean;
}

function parseOptions(args: readonly string[]): Options {
  const options: Options = { calls: 2000, rounds: 3, json: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--json") options.json = true;
    else if (arg === "--calls" || arg === "--rounds") {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 1) {
        console.error(
          `${arg} needs a positive whole number\nUsage: bench/http.ts [--calls N] [--rounds N] [--json]`,
        );
        Deno.exit(2);
      }
      options[arg === "--calls" ? "calls" : "rounds"] = value;
    } else {
      console.error(
        `Unknown argument ${
          JSON.stringify(arg)
        }\nUsage: bench/http.ts [--calls N] [--rounds N] [--json]`,
      );
      Deno.exit(2);
    }
  }
  return options;
}

/** Starts the server process and resolves with its URL once it listens. */
async function startServer(mode: "json" | "sse") {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--allow-env", "--no-config", SERVER],
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
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** One POST per call with nothing around it: the body read as text and parsed, SSE or not. */
function bareFetch(url: string): Promise<Runner> {
  let id = 0;
  const headers = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-11-25",
  };
  const call = async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: ++id,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hi" } },
    });
    const response = await fetch(url, { method: "POST", headers, body });
    const text = await response.text();
    return JSON.parse(text.startsWith("{") ? text : text.slice(text.indexOf("{")));
  };
  return Promise.resolve(callRunner(call, () => Promise.resolve()));
}

const CONTENDERS: { name: string; connect(url: string): Promise<Runner> }[] = [
  { name: "bare fetch", connect: bareFetch },
  {
    name: "mcp-inspect",
    async connect(url) {
      const client = await Client.connect(new StreamableHttpTransport({ url }), {
        clientInfo: CLIENT_INFO,
      });
      return callRunner(() => client.callTool("echo", { text: "hi" }), () => client.close());
    },
  },
  {
    name: "sdk v2 2.4.0",
    async connect(url) {
      const client = new SdkV2Client(CLIENT_INFO);
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return callRunner(
        () => client.callTool({ name: "echo", arguments: { text: "hi" } }),
        () => client.close(),
      );
    },
  },
];

async function measure(mode: "json" | "sse", options: Options) {
  const server = await startServer(mode);
  const runners: Runner[] = [];
  try {
    for (const contender of CONTENDERS) {
      const runner = await contender.connect(server.url);
      runners.push(runner);
      await runner.sequential(100);
      await runner.concurrent(100);
    }
    const samples = CONTENDERS.map(() => ({
      sequential: [] as number[],
      concurrent: [] as number[],
    }));
    for (let round = 1; round <= options.rounds; round++) {
      for (const kind of ["sequential", "concurrent"] as const) {
        for (const [i, runner] of runners.entries()) {
          const perSecond = await rate(options.calls, (n) => runner[kind](n));
          samples[i]![kind].push(perSecond);
          console.error(
            `${mode} round ${round} ${kind} ${CONTENDERS[i]!.name}: ${
              Math.round(perSecond)
            } calls/s`,
          );
        }
      }
    }
    return CONTENDERS.map((c, i) => ({
      name: c.name,
      sequential: median(samples[i]!.sequential),
      concurrent: median(samples[i]!.concurrent),
    }));
  } finally {
    for (const runner of runners) await runner.close();
    await server.close();
  }
}

if (import.meta.main) {
  const options = parseOptions(Deno.args);
  const report: Record<string, unknown> = {
    calls: options.calls,
    rounds: options.rounds,
    target: TARGET,
  };
  const rows = [[
    "mode",
    "contender",
    "sequential/s",
    "× limit",
    "concurrent/s",
    "× limit",
  ]];
  const verdicts: string[] = [];
  for (const mode of ["json", "sse"] as const) {
    const results = await measure(mode, options);
    report[mode] = results;
    const limit = results[0]!;
    for (const r of results) {
      rows.push([
        mode,
        r.name,
        Math.round(r.sequential).toLocaleString("en"),
        ratio(r.sequential, limit.sequential).toFixed(2),
        Math.round(r.concurrent).toLocaleString("en"),
        ratio(r.concurrent, limit.concurrent).toFixed(2),
      ]);
    }
    const [bare, ours, sdk] = results as [typeof results[0], typeof results[0], typeof results[0]];
    const seq = ratio(ours.sequential, sdk.sequential);
    const conc = ratio(ours.concurrent, sdk.concurrent);
    const limitSeq = ratio(ours.sequential, bare.sequential);
    const limitConc = ratio(ours.concurrent, bare.concurrent);
    report[`${mode}VsLimit`] = { sequential: limitSeq, concurrent: limitConc };
    report[`${mode}VsSdk`] = { sequential: seq, concurrent: conc };
    const limitVerdict = mode === "json"
      ? ` (${limitSeq >= LIMIT_TARGET ? "ok" : "below"} target ≥ ${LIMIT_TARGET})`
      : "";
    verdicts.push(
      `${mode}: mcp-inspect / bare fetch (the limit): sequential ${limitSeq}×${limitVerdict}, ` +
        `concurrent ${limitConc}×; mcp-inspect / sdk v2: sequential ${seq}× (${
          seq >= TARGET ? "ok" : "below"
        } target ≥ ${TARGET}), concurrent ${conc}× (${conc >= TARGET ? "ok" : "below"})`,
    );
  }
  if (options.json) console.log(JSON.stringify(report, null, 2));
  else {
    console.log(
      `\n${options.calls} calls of tools/call "echo" over Streamable HTTP, median of ${options.rounds} round(s)\n`,
    );
    console.log(formatTable(rows));
    console.log(`\n${verdicts.join("\n")}`);
  }
}
