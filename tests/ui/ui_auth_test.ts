import assert from "node:assert/strict";
// The page's OAuth login against a fake authorization server: every request and answer of
// discovery, registration and the token exchange arrives on the live channel, with no secret in
// it, and the server connects once authorized.

import { MemoryTokenStore } from "../../src/auth/mod.ts";
import { InspectorUi } from "../../src/ui/ui.ts";
import { setup } from "../auth/_setup.ts";

const CANARY = "c4n4ry-ui-secret";

Deno.test("ui auth: a step-by-step login shows each request and answer, hides secrets, then connects", async () => {
  await using env = setup({
    as: { accessToken: (n) => `${CANARY}-access-${n}`, secrets: true },
  });
  await using ui = InspectorUi.start({
    servers: { remote: { url: env.url } },
    tokenStore: new MemoryTokenStore(),
  });
  const token = ui.url.searchParams.get("token")!;
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const events = await fetch(new URL("/api/events", ui.origin), { headers });
  const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
  const seen: { type: string; [key: string]: unknown }[] = [];
  let buffer = "";
  /** Reads events until one matches. */
  const next = async (match: (event: (typeof seen)[number]) => boolean) => {
    while (true) {
      for (const event of seen) if (match(event)) return event;
      const { value, done } = await reader.read();
      if (done) throw new Error("the live channel ended");
      buffer += value;
      const blocks = buffer.split("\n\n");
      buffer = blocks.pop()!;
      for (const block of blocks) {
        if (block.startsWith("data: ")) seen.push(JSON.parse(block.slice(6)));
      }
    }
  };
  const status = (state: string) => (event: (typeof seen)[number]) =>
    (event.servers as { status: string }[] | undefined)?.[0]?.status === state;
  try {
    const failed = await next(status("failed"));
    assert.match(JSON.stringify(failed), /auth/i);

    const login = fetch(new URL("/api/auth/login", ui.origin), {
      method: "POST",
      headers,
      body: JSON.stringify({ server: "remote" }),
    });
    const authorize = await next((event) =>
      event.type === "auth" && (event.step as { phase: string }).phase === "authorize"
    );
    // The user's browser: the authorization server redirects to the inspector's callback.
    const url = (authorize.step as { detail: { url: string } }).detail.url;
    const redirect = await fetch(url, { redirect: "manual" });
    await redirect.body?.cancel();
    const callback = await fetch(redirect.headers.get("location")!);
    assert.match(await callback.text(), /Authorization finished/);
    const answer = await (await login).json();
    assert.equal(answer.result.authorized, true, JSON.stringify(answer));
    await next((event) =>
      event.type === "auth" && (event.step as { phase: string }).phase === "done"
    );

    const steps = seen.filter((event) => event.type === "auth").map((event) =>
      event.step as { phase: string; label: string }
    );
    const requests = steps.filter((step) => step.phase === "request").map((step) => step.label);
    for (
      const path of [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-authorization-server",
        "/register",
        "/token",
      ]
    ) {
      assert.ok(
        requests.some((label) => label.includes(path)),
        `no request to ${path}: ${requests.join("\n")}`,
      );
    }
    assert.ok(steps.some((step) => step.phase === "response" && /^200 /.test(step.label)));
    assert.doesNotMatch(JSON.stringify(seen), new RegExp(CANARY), "a token reached the page");

    const reconnect = await fetch(new URL("/api/servers/reconnect", ui.origin), {
      method: "POST",
      headers,
      body: JSON.stringify({ server: "remote" }),
    });
    await reconnect.body?.cancel();
    seen.length = 0;
    await next(status("connected"));
    const stored = await fetch(new URL("/api/auth/status", ui.origin), {
      method: "POST",
      headers,
      body: JSON.stringify({ server: "remote" }),
    });
    const { result } = await stored.json();
    assert.equal(result.authorized, true);
    assert.doesNotMatch(JSON.stringify(result), new RegExp(CANARY));
  } finally {
    await reader.cancel();
  }
});
