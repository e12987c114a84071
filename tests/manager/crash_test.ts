// A server that crashes on every call is restarted with backoff, not on every call: its attempts
// in a row only start over once a connection has lasted, so it gives up after the limit. Its last
// stderr lines are shown once, with the crash, not repeated by every refused call after it.

import assert from "node:assert/strict";
import { ConnectionClosedError } from "../../mod.ts";
import { type ServerConfig, ServerManager, ServerUnavailableError } from "../../src/manager/mod.ts";
import { fakeServer } from "../_helpers.ts";

function crashing(): ServerConfig {
  const { command, args } = fakeServer("misbehaving.ts", ["crash"]);
  return { command, args: [...args!] } as ServerConfig;
}

Deno.test("a server that crashes on every call backs off and gives up, instead of restarting per call", async () => {
  await using manager = new ServerManager({
    healthIntervalMs: 0,
    reconnect: { initialDelayMs: 10, multiplier: 2, jitter: 0, stableAfterMs: 60_000 },
    maxReconnectAttempts: 3,
  });
  await manager.setServers({ broken: crashing() });
  const errors: Error[] = [];
  for (let call = 0; call < 12; call++) {
    const error = await manager.callTool("broken", "echo", { text: "x" }).then(
      () => assert.fail("the call should fail"),
      (e: Error) => e,
    );
    errors.push(error);
    if (/gave up reconnecting/.test(error.message)) break;
  }
  const crashes = errors.filter((e) => e instanceof ConnectionClosedError);
  const last = errors.at(-1)!;
  assert.ok(last instanceof ServerUnavailableError, errors.map((e) => e.message).join("\n"));
  assert.match(last.message, /gave up reconnecting/);
  // The first connection and 3 reconnections, each crashing once: never a 5th start.
  assert.ok(crashes.length <= 4, `${crashes.length} crashes: ${errors.map((e) => e.message)}`);
  // Each crash shows the server's stderr once; nothing after repeats it.
  for (const crash of crashes) assert.match(crash.message, /fatal: line 3/);
  for (const refused of errors.filter((e) => e instanceof ServerUnavailableError)) {
    assert.doesNotMatch(refused.message, /fatal: line/, refused.message);
    assert.match(refused.message, /exited \(exit code 3\)/);
  }
});

Deno.test("a connection that lasted stableAfterMs starts the backoff over", async () => {
  await using manager = new ServerManager({
    healthIntervalMs: 0,
    reconnect: { initialDelayMs: 10, multiplier: 2, jitter: 0, stableAfterMs: 0 },
    maxReconnectAttempts: 1,
  });
  await manager.setServers({ broken: crashing() });
  // stableAfterMs 0: a connection counts as stable as soon as the crash takes longer than a
  // zero-delay timer, so one attempt at a time never runs out.
  for (let call = 0; call < 4; call++) {
    const error = await manager.callTool("broken", "echo", { text: "x" }).then(
      () => assert.fail("the call should fail"),
      (e: Error) => e,
    );
    assert.ok(error instanceof ConnectionClosedError, error.message);
  }
});
