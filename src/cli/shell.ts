// `mcp-inspect shell`: one connection, many commands. Line editing, history and tab completion
// come from node:readline; a line is split into words the way a POSIX shell would (shell-quote).

import { createInterface } from "node:readline";
import process from "node:process";
// @ts-types="@types/shell-quote"
import { parse } from "shell-quote";
import { parseCli, UsageError } from "./args.ts";
import type { Command, Context } from "./command.ts";
import { CancelledError } from "../errors.ts";
import { onStopSignals } from "./_signals.ts";

const BUILTINS = ["help", "exit", "quit"];

/** Splits a line into words, refusing shell operators (there is no shell behind this prompt). */
export function splitLine(line: string): string[] {
  const words: string[] = [];
  for (const token of parse(line)) {
    if (typeof token !== "string") {
      throw new UsageError("Operators such as | > & ; are not supported in the shell");
    }
    words.push(token);
  }
  return words;
}

export function shellCommand(
  commands: readonly Command[],
  report: (error: unknown) => number,
): Command {
  return {
    words: ["shell"],
    handlesInterrupt: true,
    async run(context: Context): Promise<number> {
      const { client, out } = context;
      const names = commands.map((c) => c.words.join(" "));
      const listed = client.serverCapabilities.tools
        ? await client.listTools({ signal: context.signal })
        : [];
      // Completion offers what `tools call` may call: not what the config's lists refuse.
      const tools = (context.policy?.allowed(listed) ?? listed).map((t) => t.name);
      const terminal = Deno.stdin.isTerminal();
      const rl = createInterface({
        input: process.stdin,
        output: process.stderr,
        terminal,
        historySize: 500,
        completer: (line: string): [string[], string] => {
          const candidates = /^tools call \S*$/.test(line)
            ? tools.map((t) => `tools call ${t}`)
            : [...names, ...BUILTINS];
          const hits = candidates.filter((c) => c.startsWith(line));
          return [hits.length > 0 ? hits : candidates, line];
        },
      });
      if (terminal) {
        out.stderr(
          `Connected to ${client.serverInfo.name} ${client.serverInfo.version}. Type help, or exit.`,
        );
      }
      rl.setPrompt("mcp> ");
      let last = 0;
      // Ctrl-C during a call cancels the call (notifications/cancelled) and comes back to the
      // prompt; at the prompt it ends the shell with 130. On a terminal readline turns it into an
      // event; with piped stdin it is a signal.
      let running: AbortController | undefined;
      let interrupted = false;
      const onInterrupt = () => {
        if (running) {
          running.abort(new CancelledError("command", "interrupted"));
          return;
        }
        interrupted = true;
        rl.close();
      };
      rl.on("SIGINT", onInterrupt);
      using _signals = onStopSignals(onInterrupt, ["SIGINT"]);
      // SIGTERM and SIGHUP abort the whole command: the loop ends with them.
      const onAbort = () => rl.close();
      context.signal.addEventListener("abort", onAbort, { once: true });
      try {
        for await (const line of lineIterator(rl, terminal)) {
          const trimmed = line.trim();
          if (trimmed === "" || trimmed.startsWith("#")) continue;
          if (trimmed === "exit" || trimmed === "quit") break;
          if (trimmed === "help") {
            out.stdout(`Commands: ${names.join(", ")}, exit`);
            continue;
          }
          running = new AbortController();
          const signal = AbortSignal.any([context.signal, running.signal]);
          try {
            last = await runLine(trimmed, commands, { ...context, signal }, report);
          } finally {
            running = undefined;
          }
          if (context.signal.aborted) break;
        }
      } finally {
        context.signal.removeEventListener("abort", onAbort);
        rl.close();
      }
      if (interrupted) return 130;
      return terminal ? 0 : last;
    },
  };
}

async function* lineIterator(
  rl: ReturnType<typeof createInterface>,
  terminal: boolean,
): AsyncGenerator<string> {
  if (terminal) rl.prompt();
  for await (const line of rl) {
    yield line;
    if (terminal) rl.prompt();
  }
}

/** Runs one line as a command on the shared connection; its exit code, as the CLI would give. */
async function runLine(
  line: string,
  commands: readonly Command[],
  context: Context,
  report: (error: unknown) => number,
): Promise<number> {
  try {
    const args = parseCli(splitLine(line));
    const command = commands.find((c) => c.words.every((w, i) => args.words[i] === w));
    if (!command) throw new UsageError(`Unknown command "${args.words.join(" ")}"; type help`);
    return await command.run({
      ...context,
      // Options given on the line (--json, --args) apply to it; the connection stays as it is.
      args: { ...context.args, json: args.json, args: args.args, call: args.call },
      positionals: args.words.slice(command.words.length),
    });
  } catch (error) {
    return report(error);
  }
}
