// `mcp-inspect demo`: a short tour of the fake server shipped in testdata/, for a first look
// at what the inspector shows. It needs a source checkout, where that server exists.

import { UsageError } from "./args.ts";
import type { Command, Context } from "./command.ts";
import { COMMANDS } from "./commands.ts";

function demoServer(): string[] {
  const url = new URL("../../testdata/servers/everything.ts", import.meta.url);
  if (url.protocol !== "file:") {
    throw new UsageError("demo needs a source checkout of mcp-inspect (its testdata/ server)");
  }
  return [Deno.execPath(), "run", "--allow-all", "--no-config", url.pathname];
}

const STEPS: readonly { title: string; words: string[]; positionals: string[] }[] = [
  { title: "Who is the server?", words: ["info"], positionals: [] },
  { title: "Which tools does it offer?", words: ["tools", "list"], positionals: [] },
  {
    title: "Calling a tool: echo text=hello",
    words: ["tools", "call"],
    positionals: ["echo", "text=hello"],
  },
  {
    title: "A tool with structured output: add a=2 b=3",
    words: ["tools", "call"],
    positionals: ["add", "a=2", "b=3"],
  },
  { title: "Resources", words: ["resources", "list"], positionals: [] },
  {
    title: "Reading one: fake://docs/readme",
    words: ["resources", "read"],
    positionals: ["fake://docs/readme"],
  },
  { title: "Prompts", words: ["prompts", "list"], positionals: [] },
];

export const demo: Command = {
  words: ["demo"],
  demoServer,
  async run(context: Context) {
    const { out } = context;
    const results: Record<string, unknown> = {};
    for (const step of STEPS) {
      const command = COMMANDS.find((c) => c.words.join(" ") === step.words.join(" "))!;
      if (!context.args.json) out.stdout(`\n${out.style.bold(`▸ ${step.title}`)}`);
      const captured: string[] = [];
      const code = await command.run({
        ...context,
        positionals: step.positionals,
        out: context.args.json ? { ...out, stdout: (text) => captured.push(text) } : out,
      });
      if (context.args.json) {
        results[[...step.words, ...step.positionals].join(" ")] = JSON.parse(captured.join("\n"));
      }
      if (code !== 0) return code;
    }
    if (context.args.json) out.stdout(JSON.stringify(results, null, 2));
    else out.stdout(`\nTry it on any server: mcp-inspect tools list -- <server command>`);
    return 0;
  },
};
