import assert from "node:assert/strict";
import { type UserRequestEvent, UserRequests } from "../../src/ui/_user_requests.ts";

/** A signal that counts the abort listeners on it. */
function countedSignal(): { controller: AbortController; listeners: () => number } {
  const controller = new AbortController();
  const signal = controller.signal;
  let count = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<AbortSignal["addEventListener"]>) => {
    count++;
    add(...args);
  };
  signal.removeEventListener = (...args: Parameters<AbortSignal["removeEventListener"]>) => {
    count--;
    remove(...args);
  };
  return { controller, listeners: () => count };
}

Deno.test("an answered request leaves no abort listener on the server's signal", async () => {
  const events: UserRequestEvent[] = [];
  const requests = new UserRequests((event) => events.push(event));
  const { controller, listeners } = countedSignal();
  const asked = requests.ask("files", "roots", {}, controller.signal);
  assert.equal(listeners(), 1);
  requests.answer(requests.list()[0]!.id, { result: [] });
  assert.deepEqual(await asked, []);
  assert.equal(listeners(), 0);
  assert.deepEqual(events.map((event) => event.type), ["request", "request-done"]);
});

Deno.test("a refused or dropped request removes its abort listener too", async () => {
  const requests = new UserRequests(() => {});
  const { controller, listeners } = countedSignal();
  const refused = requests.ask("files", "sampling", {}, controller.signal);
  const dropped = requests.ask("files", "elicitation", {}, controller.signal);
  assert.equal(listeners(), 2);
  requests.answer(requests.list()[0]!.id, { error: "No" });
  await assert.rejects(refused, /No/);
  requests.drop("files");
  await assert.rejects(dropped, /Server "files" disconnected/);
  assert.equal(listeners(), 0);
  assert.deepEqual(requests.list(), []);
});

Deno.test("a request the server cancels is taken down and rejects with the signal's reason", async () => {
  const events: UserRequestEvent[] = [];
  const requests = new UserRequests((event) => events.push(event));
  const controller = new AbortController();
  const asked = requests.ask("files", "elicitation", { message: "Name?" }, controller.signal);
  const id = requests.list()[0]!.id;
  controller.abort(new Error("cancelled by the server"));
  await assert.rejects(asked, /cancelled by the server/);
  assert.deepEqual(requests.list(), []);
  assert.deepEqual(events.at(-1), { type: "request-done", id });
  assert.throws(() => requests.answer(id, { result: {} }), /No pending request/);
});
