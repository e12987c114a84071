import assert from "node:assert/strict";
import { LoopbackAuthorization, OAuthError } from "../../src/auth/mod.ts";
import { fakeTime } from "../_helpers.ts";

Deno.test("the loopback listener takes one callback on 127.0.0.1, then closes", async () => {
  const shown: URL[] = [];
  await using login = await LoopbackAuthorization.start({
    openBrowser: false,
    onUrl: (url) => shown.push(url),
  });
  assert.match(login.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  const waiting = login.openAuthorizationUrl(new URL("https://auth.example.com/authorize?x=1"));
  const other = await fetch(login.redirectUri.replace("/callback", "/other"));
  assert.equal(other.status, 404);
  await other.body?.cancel();
  const page = await fetch(`${login.redirectUri}?code=SECRET-CODE&state=s`);
  const html = await page.text();
  assert.doesNotMatch(html, /SECRET-CODE/, "the page repeats nothing from the response");
  const callback = await waiting;
  assert.equal(callback.searchParams.get("code"), "SECRET-CODE");
  assert.equal(shown[0]?.href, "https://auth.example.com/authorize?x=1");
  await assert.rejects(fetch(login.redirectUri), "the listener is closed after one use");
});

Deno.test("the loopback listener gives up after its timeout", async () => {
  await using login = await LoopbackAuthorization.start({ openBrowser: false, timeoutMs: 50 });
  using clock = fakeTime();
  const waiting = login.openAuthorizationUrl(new URL("https://auth.example.com/a")).catch((e) => e);
  await clock.tickAsync(50);
  const error = await waiting;
  assert.ok(error instanceof OAuthError);
  assert.match(error.message, /No authorization response within/);
});
