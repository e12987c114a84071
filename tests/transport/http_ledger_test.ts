// The ledger of Streamable HTTP requests in flight: every way a request ends leaves nothing behind,
// re-issues included, and the session always hears of a request under the id it knows.

import assert from "node:assert/strict";
import type { JsonRpcRequest } from "../../mod.ts";
import { RequestLedger } from "../../src/transport/_http_ledger.ts";

const call = (id: number): JsonRpcRequest => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "echo" },
});

Deno.test("an answered request, re-issued or not, is forgotten with its aliases", () => {
  const ledger = new RequestLedger();
  ledger.add(call(1), true);
  ledger.add(call(2), true);
  const again = ledger.reissue(2, 5)!;
  const third = ledger.reissue(again.id, 5)!;
  assert.equal(ledger.settle(1)?.message.id, 1);
  assert.equal(ledger.restore(1), 1);
  assert.equal(ledger.settle(third.id)?.reissues, 2);
  assert.equal(ledger.restore(third.id), 2);
  assert.equal(ledger.size, 0);
});

Deno.test("a lost re-issued request is reported under its first id and leaves nothing behind", () => {
  const ledger = new RequestLedger();
  ledger.add(call(7), true);
  const again = ledger.reissue(7, 5)!;
  assert.equal(ledger.drop(again.id), 7);
  assert.equal(ledger.drop(again.id), undefined); // given up once only
  assert.equal(ledger.size, 0);
});

Deno.test("a cancelled request is not reported when lost, and its alias goes too", () => {
  const ledger = new RequestLedger();
  ledger.add(call(3), true);
  const again = ledger.reissue(3, 5)!;
  // The session cancels by the id it knows; the server knows only the re-issue's.
  assert.equal(ledger.cancel(3), again.id);
  assert.equal(ledger.isWaiting(again.id), false);
  assert.equal(ledger.drop(again.id), undefined);
  assert.equal(ledger.size, 0);
});

Deno.test("a request whose POST failed is forgotten under the id the session knows", () => {
  const ledger = new RequestLedger();
  ledger.add(call(4), true);
  const again = ledger.reissue(4, 5)!;
  assert.equal(ledger.forget(again.id), 4);
  assert.equal(ledger.size, 0);
});

Deno.test("a request is re-issued at most the given number of times", () => {
  const ledger = new RequestLedger();
  ledger.add(call(5), true);
  const again = ledger.reissue(5, 1)!;
  assert.equal(ledger.reissue(again.id, 1), undefined);
  assert.equal(ledger.isModern(again.id), true);
  assert.equal(ledger.forget(again.id), 5);
  assert.equal(ledger.size, 0);
});

Deno.test("a request given up on is forgotten at once, even if its answer never comes", () => {
  // A request answered 202 waits for an answer on the GET stream that may never come; the
  // session's cancellation (on a timeout, say) is the last the ledger hears of it.
  const ledger = new RequestLedger();
  ledger.add(call(6), false);
  assert.equal(ledger.cancel(6), 6);
  assert.equal(ledger.isWaiting(6), false);
  assert.equal(ledger.size, 0);
});

Deno.test("a cancellation of a re-issued request names it by the id the server knows", () => {
  const ledger = new RequestLedger();
  ledger.add(call(4), true);
  const again = ledger.reissue(4, 5)!;
  const cancel = {
    jsonrpc: "2.0" as const,
    method: "notifications/cancelled",
    params: { requestId: 4, reason: "user" },
  };
  assert.deepEqual(ledger.outgoing(cancel), {
    ...cancel,
    params: { ...cancel.params, requestId: again.id },
  });
  assert.equal(ledger.isWaiting(again.id), false);
  // a request never re-issued is cancelled as it is, the same object
  ledger.add(call(5), true);
  const plain = { ...cancel, params: { requestId: 5 } };
  assert.equal(ledger.outgoing(plain), plain);
  assert.equal(ledger.isWaiting(5), false);
});

Deno.test("the server's requests are served until answered or cancelled by the server", () => {
  const ledger = new RequestLedger();
  assert.equal(ledger.serving, false);
  ledger.received({ jsonrpc: "2.0", id: "s1", method: "sampling/createMessage", params: {} });
  ledger.received({ jsonrpc: "2.0", id: "s2", method: "roots/list" });
  ledger.received({ jsonrpc: "2.0", method: "notifications/progress", params: {} });
  assert.equal(ledger.serving, true);
  ledger.outgoing({ jsonrpc: "2.0", id: "s1", result: {} });
  assert.equal(ledger.serving, true);
  ledger.received({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: "s2" },
  });
  assert.equal(ledger.serving, false);
});
