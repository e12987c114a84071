// One-shot commands against their physical limit: the wall time of `mcp-inspect tools list` beside
// a tiny script with no library doing the same work (spawn, initialize, list, print, end the
// server), against server-everything (Node) and the fast fixture over stdio; and the time to load
// the CLI (`--version`) or the root module beside an empty script. Every command is a fresh
// `deno run` from the repository root, so both sides pay the same start-up and config loading.
//
// Usage: deno task bench:cli [--runs N] [--json]
// Progress goes to stderr; the table (or JSON with --json) to stdout.

import { readArgs } from "./_args.ts";
import { NPM_SERVERS } from "../tests/_npm_servers.ts";
import { median } from "./_stats.ts";
import { formatTable } from "./_table.ts";
import { CLI_GRACE_MS } from "../src/cli/connect.ts";

const ROOT = decodeURIComponent(new URL("..", import.meta.url).pathname);
const USAGE = "Usage: deno task bench:cli [--runs N] [--json]";

interface Case {
  name: string;
  /** What the limit is. */
  limit: string;
  ours: string[];
  raw: string[];
  /** The most `ours` may take over `raw`, in milliseconds. */
  targetMs: number;
}

/** How long a server takes to exit once its stdin closes (see {@link exitAfterEof}). */
interface ExitTime {
  server: string;
  exitMs: number | undefined;
}

interface Result {
  name: string;
  limit: string;
  oursMs: number;
  limitMs: number;
  overMs: number;
  targetMs: number;
  ok: boolean;
  samples: { ours: number[]; limit: number[] };
}

/**
 * Installs server-everything into a temporary node_modules, so that Node runs it as a user would
 * (`node <path> stdio`); Deno's own npm cache has no layout Node can resolve.
 */
async function installEverything(dir: string): Promise<string> {
  const [name, version] = [
    NPM_SERVERS.everything.replace(/@[^@]*$/, ""),
    NPM_SERVERS.everything.replace(/^.*@/, ""),
  ];
  await Deno.writeTextFile(
    `${dir}/package.json`,
    JSON.stringify({ private: true, dependencies: { [name]: version } }),
  );
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["install", "--quiet"],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(
      `Cannot install ${NPM_SERVERS.everything}: ${new TextDecoder().decode(stderr)}`,
    );
  }
  return `${dir}/node_modules/${name}/dist/index.js`;
}

const FAST = ["deno", "run", "-A", "--no-config", `${ROOT}testdata/servers/fast.ts`];
const everythingServer = (path: string) => ["node", path, "stdio"];

function cases(everything: string | undefined): Case[] {
  const fast = FAST;
  const list = (server: string[], flags: string[] = []) => ({
    ours: ["run", "-A", "cli.ts", "tools", "list", ...flags, "--", ...server],
    raw: ["run", "-A", "bench/_raw_tools_list.ts", ...server],
  });
  return [
    ...(everything === undefined ? [] : [{
      name: "tools list, server-everything (node, stdio)",
      limit: "raw script",
      ...list(everythingServer(everything)),
      targetMs: 150,
    }, {
      // Where the time goes: the same without the ladder's wait for the server to exit.
      name: "tools list --grace 0, server-everything",
      limit: "raw script",
      ...list(everythingServer(everything), ["--grace", "0"]),
      targetMs: 150,
    }]),
    { name: "tools list, fast fixture (stdio)", limit: "raw script", ...list(fast), targetMs: 150 },
    {
      name: "cli.ts --version",
      limit: "empty script",
      ours: ["run", "-A", "cli.ts", "--version"],
      raw: ["run", "-A", "bench/_empty.ts"],
      targetMs: 25,
    },
    {
      name: 'import "./mod.ts"',
      limit: "empty script",
      ours: ["run", "-A", "bench/_import_root.ts"],
      raw: ["run", "-A", "bench/_empty.ts"],
      targetMs: 25,
    },
  ];
}

/** Wall time of one `deno <args>` from spawn to exit, in milliseconds. */
async function time(args: string[]): Promise<number> {
  const started = performance.now();
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  const elapsed = performance.now() - started;
  if (code !== 0) {
    throw new Error(
      `deno ${args.join(" ")} exited with ${code}: ${new TextDecoder().decode(stderr)}`,
    );
  }
  return elapsed;
}

/**
 * How long a server takes to exit by itself once its stdin closes (after initialize and
 * tools/list), median of `runs`: what a client keeping the spec's shutdown ladder waits, up to
 * its grace, before it may send SIGTERM. `undefined` when the server never exits within 5 s.
 */
async function exitAfterEof(server: string[], runs: number): Promise<number | undefined> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "bench/_raw_tools_list.ts", "--exit-time", ...server],
      cwd: ROOT,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(stderr);
    const found = /exit-after-eof-ms (\d+|never)/.exec(text);
    if (code !== 0 || !found) {
      throw new Error(`Cannot time the exit of ${server.join(" ")}: ${text}`);
    }
    if (found[1] === "never") return undefined;
    samples.push(Number(found[1]));
  }
  return median(samples);
}

async function measure(theCase: Case, runs: number): Promise<Result> {
  // One run each first: Deno's caches (type stripping, npm resolution) must not count.
  await time(theCase.ours);
  await time(theCase.raw);
  const samples = { ours: [] as number[], limit: [] as number[] };
  // Interleaved, so that drift in machine load hits both sides alike.
  for (let run = 0; run < runs; run++) {
    samples.ours.push(await time(theCase.ours));
    samples.limit.push(await time(theCase.raw));
  }
  const oursMs = median(samples.ours);
  const limitMs = median(samples.limit);
  console.error(
    `${theCase.name}: ours ${Math.round(oursMs)} ms, ${theCase.limit} ${Math.round(limitMs)} ms`,
  );
  return {
    name: theCase.name,
    limit: theCase.limit,
    oursMs,
    limitMs,
    overMs: oursMs - limitMs,
    targetMs: theCase.targetMs,
    ok: oursMs - limitMs <= theCase.targetMs,
    samples,
  };
}

if (import.meta.main) {
  const { counts, json } = readArgs(Deno.args, { usage: USAGE, counts: { runs: { default: 10 } } });
  const runs = counts.runs;
  const dir = await Deno.makeTempDir({ prefix: "mcp-inspect-bench-" });
  const results: Result[] = [];
  const exits: ExitTime[] = [];
  try {
    let everything: string | undefined;
    try {
      everything = await installEverything(dir);
    } catch (error) {
      console.error(`Skipping server-everything: ${(error as Error).message}`);
    }
    for (const theCase of cases(everything)) results.push(await measure(theCase, runs));
    const servers: [string, string[]][] = [
      ...(everything === undefined ? [] : [["server-everything", everythingServer(everything)]] as [
        string,
        string[],
      ][]),
      ["fast fixture", FAST],
    ];
    for (const [server, command] of servers) {
      exits.push({ server, exitMs: await exitAfterEof(command, runs) });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  if (json) {
    console.log(JSON.stringify({ runs, deno: Deno.version.deno, results, exits }, null, 2));
  } else {
    const ms = (n: number): string => `${Math.round(n)} ms`;
    console.log(
      `\nWall time of one command, median of ${runs} run(s), Deno ${Deno.version.deno}\n`,
    );
    console.log(formatTable([
      ["command", "ours", "limit", "limit is", "ours − limit", "target", "verdict"],
      ...results.map((r) => [
        r.name,
        ms(r.oursMs),
        ms(r.limitMs),
        r.limit,
        `${r.overMs >= 0 ? "+" : ""}${ms(r.overMs)}`,
        `≤ +${r.targetMs} ms`,
        r.ok ? "ok" : "ABOVE",
      ]),
    ]));
    console.log(
      `\nWhere the time goes: a one-shot command closes the server's stdin and waits up to --grace ` +
        `(${CLI_GRACE_MS} ms) for it to exit before SIGTERM (the spec's shutdown ladder); the raw ` +
        `script sends SIGTERM at once.`,
    );
    for (const { server, exitMs } of exits) {
      console.log(
        `  ${server} exits ${
          exitMs === undefined ? "never (within 5 s)" : `${Math.round(exitMs)} ms`
        } after its stdin closes: the ladder costs ${
          Math.round(Math.min(exitMs ?? Infinity, CLI_GRACE_MS))
        } ms`,
      );
    }
  }
}
