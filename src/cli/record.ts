// `--record <file>`, `mcp-inspect verify <recording>` and `mcp-inspect replay <recording>`:
// regression testing from recorded sessions.

import { redactUrl } from "../../mod.ts";
import { StdioServerTransport } from "../server/mod.ts";
import {
  parseRecording,
  Recorder,
  type Recording,
  serveReplay,
  serveReplayHttp,
  verifyRecording,
} from "../testing/testing.ts";
import { type CliArgs, commandUsage, type Lines, parseCommand, UsageError } from "./args.ts";
import type { Command } from "./command.ts";

/** A recorder for the session the command is about to open; secrets never reach the file. */
export function openRecorder(args: CliArgs, server: readonly string[]): Promise<Recorder> {
  return Recorder.open(args.record!, {
    server: args.url !== undefined ? redactUrl(args.url) : server.join(" "),
    secrets: Object.values(args.env),
    headers: args.headers,
  }).catch((error) => {
    throw new UsageError(`Cannot write --record "${args.record}": ${(error as Error).message}`);
  });
}

/** A recording from a file, with a usage error naming the file and line when it is not one. */
export async function readRecording(file: string): Promise<Recording> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    throw new UsageError(`Cannot read "${file}": ${(error as Error).message}`);
  }
  try {
    return parseRecording(text, `"${file}"`);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export const verify: Command = {
  words: ["verify"],
  // verify sends the recorded calls again: a tool the config's lists refuse is not one of them.
  async toolsToCall([file]) {
    if (file === undefined) return [];
    return (await readRecording(file)).messages.flatMap(({ dir, msg }) => {
      if (dir !== "send" || !("method" in msg) || msg.method !== "tools/call") return [];
      const name = msg.params?.name;
      return typeof name === "string" ? [name] : [];
    });
  },
  async run(context) {
    const [file] = context.positionals;
    if (file === undefined) throw new UsageError("Usage: verify <recording> -- <server command>");
    const recording = await readRecording(file);
    const { checked, mismatches } = await verifyRecording(context.client, recording, {
      signal: context.signal,
      ignore: context.args.ignore,
      timeoutMs: context.args.timeoutMs,
    });
    if (context.args.json) {
      context.out.stdout(
        JSON.stringify({ checked, matched: checked - mismatches.length, mismatches }, null, 2),
      );
    } else {
      const { red, green } = context.out.style;
      for (const m of mismatches) {
        context.out.stdout(
          `${red("✗")} ${m.method} ${JSON.stringify(m.params)}: at "${m.path}" recorded ` +
            `${JSON.stringify(m.expected)}, now ${JSON.stringify(m.actual)}`,
        );
      }
      const mark = mismatches.length === 0 ? green("✓") : red("✗");
      context.out.stdout(`${mark} ${checked - mismatches.length} of ${checked} answer(s) match`);
    }
    return mismatches.length === 0 ? 0 : 1;
  },
};

export const REPLAY_HELP =
  `Usage: mcp-inspect replay <recording> [--http [--port <n>] [--token <t>]]

Serves a recording made with --record as an MCP server on stdio (or Streamable HTTP at
http://127.0.0.1:<port>/mcp with --http, Host and Origin checked as the proxy does): each request gets the recorded
answer of the request with the same method and params (_meta aside; in recorded order when it was
recorded several times), with the notifications recorded around it. A request the recording never
saw gets a JSON-RPC error at once naming the nearest recorded request. initialize and
server/discover are answered whatever the client's details.

Options:
  --http         serve Streamable HTTP on 127.0.0.1 instead of stdio; the URL is printed on stdout
  --port <n>     the port with --http (default 0: a free one)
  --token <t>    with --http, require "Authorization: Bearer <t>"

Exit codes: 0 the client closed stdin (or SIGINT/SIGTERM with --http); 2 usage error or a file
that is not a recording; 3 the port cannot be bound.`;

/** Runs `replay` until stdin ends; returns the exit code. */
export async function replayCommand(argv: readonly string[], out: Lines): Promise<number> {
  const parsed = parseCommand(
    {
      name: "replay",
      help: REPLAY_HELP,
      positionals: true,
      options: {
        http: { type: "boolean" },
        port: { type: "string" },
        token: { type: "string" },
      },
    },
    argv,
    out,
  );
  if (typeof parsed === "number") return parsed;
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    return commandUsage(out, "replay", "Usage: replay <recording>");
  }
  let recording: Recording;
  try {
    recording = await readRecording(file);
  } catch (error) {
    return commandUsage(out, "replay", (error as Error).message);
  }
  const { http, port: portText, token } = parsed.values;
  if (!http) {
    if (portText !== undefined || token !== undefined) {
      return commandUsage(out, "replay", "--port and --token need --http");
    }
    await serveReplay(recording, new StdioServerTransport());
    return 0;
  }
  const port = Number(portText ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return commandUsage(out, "replay", `Invalid --port "${portText}"`);
  }
  let server;
  try {
    server = serveReplayHttp(recording, { port, token });
  } catch (error) {
    out.stderr(
      error instanceof Deno.errors.AddrInUse
        ? `error: port ${port} is in use; pick another with --port`
        : `error: cannot serve on port ${port}: ${(error as Error).message}`,
    );
    return 3;
  }
  out.stdout(server.url.href);
  const stop = Promise.withResolvers<void>();
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const signal of signals) Deno.addSignalListener(signal, stop.resolve);
  try {
    await stop.promise;
  } finally {
    for (const signal of signals) Deno.removeSignalListener(signal, stop.resolve);
    await server.close();
  }
  return 0;
}
