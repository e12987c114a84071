// Leave nothing behind: whatever stops the CLI (SIGTERM, SIGHUP, Ctrl-C), the server it started
// and everything in the server's process group stop with it, even a server that ignores SIGTERM
// and left a grandchild that ignores it too.

import assert from "node:assert/strict";
import { fixture } from "../_helpers.ts";
import { cliCommand, readUntil, SERVER } from "../_cli_run.ts";

const STUBBORN = [
  "--",
  Deno.execPath(),
  "run",
  "--allow-all",
  "--no-config",
  fixture("stubborn.ts"),
];

/** Whether any process still lives in process group `pgid` (Linux: /proc/<pid>/stat). */
function groupAlive(pgid: number): boolean {
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z" && Number(fields[2]) === pgid) return true;
    } catch {
      // the process ended while we looked
    }
  }
  return false;
}

function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Runs `args` against the stubborn server, waits for `ready` on stderr, then sends `signal`. */
async function stopWith(
  signal: Deno.Signal,
  args: string[],
  ready: RegExp,
): Promise<{ code: number; pids: number[] }> {
  const child = cliCommand([...args, "--verbose", "--grace", "100", ...STUBBORN], {
    stdin: "piped",
    signal: AbortSignal.timeout(30_000),
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const seen = await readUntil(stderr, new RegExp(`pids \\d+ \\d+[\\s\\S]*${ready.source}`));
    const [, server, grandchild] = /pids (\d+) (\d+)/.exec(seen)!;
    child.kill(signal);
    const { code } = await child.status;
    return { code, pids: [Number(server), Number(grandchild)] };
  } finally {
    await stderr.cancel();
    await child.stdout.cancel();
    await child.stdin.close().catch(() => {});
  }
}

for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129], ["SIGINT", 130]] as const) {
  Deno.test(`${signal} during a one-shot call stops the server's whole group; exit ${code}`, async () => {
    const run = await stopWith(signal, ["tools", "call", "hang"], /"method":"tools\/call"/);
    assert.equal(run.code, code);
    const [server, grandchild] = run.pids;
    assert.ok(!alive(server!), "the server is gone");
    assert.ok(!alive(grandchild!), "its grandchild is gone");
    assert.ok(!groupAlive(server!), "nothing is left in its process group");
  });
}

for (const [command, ready] of [[["logs"], /Streaming/], [["shell"], /tools\/list/]] as const) {
  Deno.test(`SIGTERM of ${command[0]} stops the server's whole group; exit 143`, async () => {
    const run = await stopWith("SIGTERM", [...command], ready);
    assert.equal(run.code, 143);
    assert.ok(!groupAlive(run.pids[0]!), "nothing is left in the server's process group");
  });
}

Deno.test("logs exits 130 on Ctrl-C", async () => {
  const run = await stopWith("SIGINT", ["logs"], /Streaming/);
  assert.equal(run.code, 130);
  assert.ok(!groupAlive(run.pids[0]!));
});

Deno.test("Ctrl-C in shell cancels the running call and returns to the prompt; at the prompt it exits 130", async () => {
  const child = cliCommand(["shell", "--verbose", ...SERVER], {
    stdin: "piped",
    signal: AbortSignal.timeout(30_000),
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stdin = child.stdin.getWriter();
  const write = (line: string) => stdin.write(new TextEncoder().encode(`${line}\n`));
  try {
    await readUntil(stderr, /tools\/list/); // connected and listed
    await write("tools call hang");
    await readUntil(stderr, /"method":"tools\/call"/);
    child.kill("SIGINT");
    // The server hears of the cancellation, and the shell takes the next line.
    await readUntil(stderr, /notifications\/cancelled/);
    await write("tools call echo text=still-here");
    assert.match(await readUntil(stdout, /still-here/), /still-here/);
    child.kill("SIGINT"); // at the prompt
    const { code } = await child.status;
    assert.equal(code, 130);
  } finally {
    await stdin.close().catch(() => {});
    await stderr.cancel();
    await stdout.cancel();
  }
});
