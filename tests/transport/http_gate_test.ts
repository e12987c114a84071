// The gate behind maxConcurrentRequests, on its own: slots, first-come first-served order, the
// limit's checks, and what closing does to the requests still in line.

import assert from "node:assert/strict";
import { TransportError } from "../../mod.ts";
import { concurrencyLimit, RequestGate } from "../../src/transport/_http_gate.ts";

Deno.test("the gate hands freed slots to the waiting requests in the order they came", async () => {
  const gate = new RequestGate(2, new AbortController().signal);
  assert.equal(gate.enter(), undefined);
  assert.equal(gate.enter(), undefined);
  const order: number[] = [];
  const waiting = Array.from({ length: 3000 }, (_, i) => gate.enter()!.then(() => order.push(i)));
  for (let i = 0; i < 3000; i++) {
    gate.leave();
    await waiting[i];
  }
  assert.deepStrictEqual(order, Array.from({ length: 3000 }, (_, i) => i));
  gate.leave();
  gate.leave();
  // Both slots are free again.
  assert.equal(gate.enter(), undefined);
  assert.equal(gate.enter(), undefined);
});

Deno.test("closing rejects the requests still waiting for a slot, with the reason", async () => {
  const abort = new AbortController();
  const gate = new RequestGate(1, abort.signal);
  assert.equal(gate.enter(), undefined);
  const waiting = [gate.enter()!, gate.enter()!];
  const reason = new Error("Transport closed");
  abort.abort(reason);
  for (const entry of waiting) await assert.rejects(entry, (error) => error === reason);
});

Deno.test("the limit is a whole number of at least 1, or Infinity", () => {
  assert.equal(concurrencyLimit(undefined, 32), 32);
  assert.equal(concurrencyLimit(Infinity, 32), Infinity);
  assert.equal(concurrencyLimit(1, 32), 1);
  for (const bad of [0, -3, 2.5, NaN]) {
    assert.throws(() => concurrencyLimit(bad, 32), TransportError);
  }
  const gate = new RequestGate(Infinity, new AbortController().signal);
  for (let i = 0; i < 1000; i++) assert.equal(gate.enter(), undefined);
});

Deno.test("tryEnter takes a free slot but never joins the line", async () => {
  const gate = new RequestGate(1, new AbortController().signal);
  assert.equal(gate.tryEnter(), true);
  assert.equal(gate.tryEnter(), false);
  const waiting = gate.enter()!; // in line behind the first
  gate.leave(); // the slot goes to the one in line, not back to tryEnter
  await waiting;
  assert.equal(gate.tryEnter(), false);
  gate.leave();
  assert.equal(gate.tryEnter(), true);
});
