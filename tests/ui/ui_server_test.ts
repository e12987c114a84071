import assert from "node:assert/strict";
// The inspector's web server without a browser: the token on every request, Host and Origin,
// the security headers, the static files, the API's errors, and the live channel.

import { CONTENT_SECURITY_POLICY, InspectorUi } from "../../src/ui/ui.ts";
import { recordingHeader } from "../../src/record/record.ts";
import { parseConfig } from "../../src/config/config.ts";
import { fixture, RECORDING_HEADER_KEYS } from "../_helpers.ts";
import { rawRequest } from "../security/_http.ts";
// @ts-types="@types/shell-quote"
import { parse } from "shell-quote";

const EVERYTHING = {
  command: Deno.execPath(),
  args: ["run", "--allow-all", fixture("everything.ts")],
};

function tokenOf(ui: InspectorUi): string {
  return ui.url.searchParams.get("token")!;
}

async function request(ui: InspectorUi, path: string, init: RequestInit = {}) {
  const response = await fetch(new URL(path, ui.origin), { redirect: "manual", ...init });
  const text = await response.text();
  return { response, text };
}

async function api(ui: InspectorUi, operation: string, body: unknown) {
  const { response, text } = await request(ui, `/api/${operation}`, {
    method: "POST",
    headers: { authorization: `Bearer ${tokenOf(ui)}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: JSON.parse(text) };
}

/** Waits for the server to reach a status, reading the live channel. */
async function waitFor(ui: InspectorUi, name: string, status: string): Promise<void> {
  const response = await fetch(new URL("/api/events", ui.origin), {
    headers: { authorization: `Bearer ${tokenOf(ui)}` },
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the live channel ended");
      buffer += value;
      for (const line of buffer.split("\n")) {
        if (!line.startsWith("data: ")) continue;
        const event = JSON.parse(line.slice(6));
        const servers = event.servers as { name: string; status: string; error?: string }[];
        const server = servers?.find((item) => item.name === name);
        if (server?.status === status) return;
        if (server?.status === "failed") throw new Error(`${name} failed: ${server.error}`);
      }
      buffer = buffer.slice(buffer.lastIndexOf("\n") + 1);
    }
  } finally {
    await reader.cancel();
  }
}

Deno.test("ui: the token is required, once as ?token=, then as an HttpOnly SameSite cookie", async () => {
  await using ui = InspectorUi.start();
  assert.equal(ui.url.hostname, "127.0.0.1");
  const bare = await request(ui, "/");
  assert.equal(bare.response.status, 401);
  assert.match(bare.text, /token/);
  assert.equal((await request(ui, "/?token=wrong")).response.status, 401);
  assert.equal((await request(ui, "/app.js")).response.status, 401);
  assert.equal((await request(ui, "/api/state")).response.status, 401);

  const first = await request(ui, ui.url.pathname + ui.url.search);
  assert.equal(first.response.status, 303);
  assert.equal(first.response.headers.get("location"), "/");
  const cookie = first.response.headers.get("set-cookie")!;
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  const pair = cookie.split(";")[0]!;

  const page = await request(ui, "/", { headers: { cookie: pair } });
  assert.equal(page.response.status, 200);
  assert.match(page.text, /<script type="module" src="\/app.js">/);
  assert.doesNotMatch(page.text, /<script>|onclick=|style=/); // nothing inline: CSP forbids it
  assert.equal(page.response.headers.get("content-security-policy"), CONTENT_SECURITY_POLICY);
  assert.match(CONTENT_SECURITY_POLICY, /script-src 'self'(;|$)/);
  assert.equal(page.response.headers.get("x-frame-options"), "DENY");
  assert.equal(page.response.headers.get("x-content-type-options"), "nosniff");
  const script = await request(ui, "/app.js", { headers: { cookie: pair } });
  assert.equal(script.response.status, 200);
  assert.match(script.response.headers.get("content-type")!, /javascript/);
  // Another port's cookie (another inspector) is not this one's.
  const foreign = pair.replace(/_(\d+)=/, (_, port) => `_${Number(port) + 1}=`);
  assert.equal((await request(ui, "/", { headers: { cookie: foreign } })).response.status, 401);
});

Deno.test("ui: a foreign Host or Origin is refused, and a POST with only the cookie needs our Origin", async () => {
  await using ui = InspectorUi.start();
  const token = tokenOf(ui);
  const bearer = { authorization: `Bearer ${token}` };
  const rebinding = await rawRequest(
    new URL("/api/state", ui.origin),
    {
      ...bearer,
      Host: "attacker.example",
    },
    "",
    "GET",
  );
  assert.match(rebinding.text, /Host/);
  const cors = await request(ui, "/api/state", {
    headers: { ...bearer, origin: "https://attacker.example" },
  });
  assert.equal(cors.response.status, 403);
  assert.match(cors.text, /Origin/);
  // Another page on this machine (another port) is a different origin.
  const port = Number(new URL(ui.origin).port);
  const local = await request(ui, "/api/state", {
    headers: { ...bearer, origin: `http://127.0.0.1:${port + 1}` },
  });
  assert.equal(local.response.status, 403);

  const cookie = `mcp_inspect_ui_${port}=${token}`;
  const json = { "content-type": "application/json" };
  const post = (headers: Record<string, string>) =>
    request(ui, "/api/servers/add", {
      method: "POST",
      headers: { ...json, ...headers },
      body: JSON.stringify({ name: "x", config: { command: "true" } }),
    });
  const noOrigin = await post({ cookie });
  assert.equal(noOrigin.response.status, 403);
  assert.match(noOrigin.text, /Origin/);
  const ours = await post({ cookie, origin: ui.origin });
  assert.equal(ours.response.status, 200, ours.text);
  const wrongType = await request(ui, "/api/ping", {
    method: "POST",
    headers: { ...bearer, "content-type": "text/plain" },
    body: "{}",
  });
  assert.equal(wrongType.response.status, 415);
  const put = await request(ui, "/api/state", { method: "PUT", headers: bearer });
  assert.equal(put.response.status, 405);
});

Deno.test("ui: only the page's own files are served", async () => {
  await using ui = InspectorUi.start();
  const headers = { authorization: `Bearer ${tokenOf(ui)}` };
  for (const path of ["/ui.ts", "/_hub.ts", "/assets/app.js", "/%2e%2e/ui.ts", "/..%2fui.ts"]) {
    assert.equal((await request(ui, path, { headers })).response.status, 404, path);
  }
  // Every file of the folder is served: a module left out of ui.ts's list breaks the page.
  const paths = ["/"];
  for await (const entry of Deno.readDir(new URL("../../src/ui/assets/", import.meta.url))) {
    paths.push(`/${entry.name}`);
  }
  for (const path of paths) {
    assert.equal((await request(ui, path, { headers })).response.status, 200, path);
  }
});

Deno.test("ui: API errors name what was wrong", async () => {
  await using ui = InspectorUi.start();
  const unknown = await api(ui, "nonsense", {});
  assert.equal(unknown.status, 404);
  assert.match(unknown.body.error.message, /Unknown operation "nonsense"/);
  const noServer = await api(ui, "tools/list", { server: "ghost" });
  assert.equal(noServer.status, 404);
  assert.match(noServer.body.error.message, /No server named "ghost"/);
  const badName = await api(ui, "servers/add", { name: "../x", config: { command: "true" } });
  assert.match(badName.body.error.message, /Invalid server name/);
  const badConfig = await api(ui, "servers/add", { name: "x", config: { url: "file:///etc" } });
  assert.match(badConfig.body.error.message, /only http: and https:/);
  const noArgs = await api(ui, "servers/add", { name: "x", config: { command: "a", args: [1] } });
  assert.match(noArgs.body.error.message, /"args" must be an array of strings/);
  const missing = await api(ui, "tools/call", { server: "x" });
  assert.match(missing.body.error.message, /"name" must be a string/);
  const { response, text } = await request(ui, "/api/ping", {
    method: "POST",
    headers: { authorization: `Bearer ${tokenOf(ui)}`, "content-type": "application/json" },
    body: "{not json",
  });
  assert.equal(response.status, 400);
  assert.match(JSON.parse(text).error.message, /not JSON/);
  const big = await request(ui, "/api/ping", {
    method: "POST",
    headers: { authorization: `Bearer ${tokenOf(ui)}`, "content-type": "application/json" },
    body: JSON.stringify({ padding: "x".repeat(5 * 1024 * 1024) }),
  });
  assert.equal(big.response.status, 413);
});

Deno.test("ui: a server's tools are called through the API, with the output check and a command line", async () => {
  await using ui = InspectorUi.start({ servers: { everything: EVERYTHING } });
  await waitFor(ui, "everything", "connected");
  const tools = await api(ui, "tools/list", { server: "everything" });
  assert.ok(tools.body.result.tools.some((tool: { name: string }) => tool.name === "echo"));
  assert.equal(tools.body.result.hidden, 0, "a server without lists hides nothing");
  const add = await api(ui, "tools/call", {
    server: "everything",
    name: "add",
    arguments: { a: 2, b: 3 },
    callId: "c1",
  });
  assert.deepEqual(add.body.result.result.structuredContent, { sum: 5 });
  assert.deepEqual(add.body.result.outputIssues, []);
  const bad = await api(ui, "tools/call", {
    server: "everything",
    name: "bad_structured",
    arguments: {},
    callId: "c2",
  });
  assert.match(bad.body.result.outputIssues.join("\n"), /\/sum must be number/);
  const error = await api(ui, "tools/call", {
    server: "everything",
    name: "error",
    arguments: {},
    callId: "c3",
  });
  assert.equal(error.status, 502);
  assert.equal(error.body.error.code, -32001);
  const copy = await api(ui, "copy", {
    server: "everything",
    words: ["tools", "call", "echo"],
    arguments: { text: "it's" },
  });
  // The command line is one a POSIX shell splits back into the same words.
  assert.deepEqual(parse(copy.body.result.command), [
    "mcp-inspect",
    "tools",
    "call",
    "echo",
    "--args",
    `{"text":"it's"}`,
    "--",
    Deno.execPath(),
    "run",
    "--allow-all",
    fixture("everything.ts"),
  ]);
  const vscode = JSON.parse(copy.body.result.configs.vscode);
  assert.deepEqual(vscode.servers.everything, { type: "stdio", ...EVERYTHING });
  const recording = await api(ui, "wire/export", { server: "everything" });
  const [header, ...lines] = (recording.body.result as string).trim().split("\n").map((line) =>
    JSON.parse(line)
  );
  assert.equal(header.format, "mcp-inspect-recording");
  // The header --record writes (recordingHeader), key for key and in the same order.
  assert.deepEqual(Object.keys(header), RECORDING_HEADER_KEYS);
  assert.deepEqual(
    { ...header, started: undefined },
    {
      ...recordingHeader(header.server, new Date(), {
        protocolVersion: "2025-11-25",
        era: "legacy",
      }),
      started: undefined,
    },
  );
  assert.ok(lines.some((line) => line.dir === "send" && line.msg.method === "tools/call"));
});

Deno.test("ui: a running call is cancelled, and closing ends the live channel and the servers", async () => {
  const ui = InspectorUi.start({ servers: { everything: EVERYTHING } });
  await waitFor(ui, "everything", "connected");
  const events = await fetch(new URL("/api/events", ui.origin), {
    headers: { authorization: `Bearer ${tokenOf(ui)}` },
  });
  const hang = api(ui, "tools/call", {
    server: "everything",
    name: "hang",
    arguments: {},
    callId: "h1",
  });
  let cancelled = false;
  for (let attempt = 0; attempt < 200 && !cancelled; attempt++) {
    cancelled = (await api(ui, "cancel", { callId: "h1" })).body.result === true;
    if (!cancelled) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(cancelled, "the call never started");
  const answer = await hang;
  assert.match(answer.body.error.message, /[Cc]ancel/);
  await ui.close();
  // The live channel ends with the server instead of holding it open.
  assert.ok(await events.text());
});

/** A tools/list answer: the names of the tools listed, and how many the lists hid. */
function listing(answer: { body: { result: { tools: { name: string }[]; hidden: number } } }) {
  return {
    names: answer.body.result.tools.map((tool) => tool.name),
    hidden: answer.body.result.hidden,
  };
}

/** How many tools the everything fake has. */
const EVERYTHING_TOOLS = 19;

Deno.test("ui: a server's allow and deny lists hide its tools, and a call of one is refused with 403, unsent", async () => {
  const lists = { allow: ["e*", "add"], deny: ["elicit*", "env"] };
  await using ui = InspectorUi.start({ servers: { listed: { ...EVERYTHING, ...lists } } });
  await waitFor(ui, "listed", "connected");
  assert.deepEqual(listing(await api(ui, "tools/list", { server: "listed" })), {
    names: ["echo", "add", "error"],
    hidden: EVERYTHING_TOOLS - 3,
  });
  const call = (name: string, callId: string) =>
    api(ui, "tools/call", { server: "listed", name, arguments: {}, callId });
  const denied = await call("env", "d1");
  assert.equal(denied.status, 403);
  assert.equal(
    denied.body.error.message,
    `Tool "env" of server "listed" is refused: it matches the deny list ("env")`,
  );
  const unlisted = await call("whoami", "d2");
  assert.equal(unlisted.status, 403);
  assert.match(unlisted.body.error.message, /"whoami" .* refused: it is not in the allow list$/);
  const wire = await api(ui, "wire", { server: "listed" });
  const calls = (wire.body.result as { msg: { method?: string } }[])
    .filter((entry) => entry.msg.method === "tools/call");
  assert.deepEqual(calls, [], "a refused call reached the server");
  const echo = await api(ui, "tools/call", {
    server: "listed",
    name: "echo",
    arguments: { text: "hi" },
    callId: "a1",
  });
  assert.equal(echo.status, 200, JSON.stringify(echo.body));
});

Deno.test("ui: a server added from the page keeps the allow and deny lists it is given, checked like args", async () => {
  await using ui = InspectorUi.start();
  const add = (config: Record<string, unknown>) =>
    api(ui, "servers/add", { name: "added", config: { ...EVERYTHING, ...config } });
  const text = await add({ deny: "env" });
  assert.equal(text.status, 400);
  assert.match(text.body.error.message, /"deny" must be an array of strings/);
  const numbers = await add({ allow: ["echo", 1] });
  assert.match(numbers.body.error.message, /"allow" must be an array of strings/);
  assert.equal((await add({ allow: ["add", "echo"], deny: ["e*"] })).status, 200);
  await waitFor(ui, "added", "connected");
  assert.deepEqual(listing(await api(ui, "tools/list", { server: "added" })), {
    names: ["add"],
    hidden: EVERYTHING_TOOLS - 1,
  });
  const denied = await api(ui, "tools/call", {
    server: "added",
    name: "echo",
    arguments: { text: "hi" },
    callId: "d1",
  });
  assert.equal(denied.status, 403);
  assert.match(denied.body.error.message, /matches the deny list \("e\*"\)/);
  const remote = await api(ui, "servers/add", {
    name: "remote",
    config: { url: "http://127.0.0.1:1/mcp", deny: [{}] },
  });
  assert.match(remote.body.error.message, /"deny" must be an array of strings/);
});

Deno.test("ui: a copied config entry keeps the server's allow and deny lists, and loads back with them", async () => {
  const lists = { allow: ["e*", "add"], deny: ["elicit*"] };
  await using ui = InspectorUi.start({
    servers: {
      local: { ...EVERYTHING, ...lists },
      remote: { url: "http://127.0.0.1:1/mcp", type: "sse", deny: ["delete_*"] },
    },
  });
  const configs = async (server: string) => {
    const copy = await api(ui, "copy", { server, words: ["info"] });
    assert.equal(copy.status, 200, JSON.stringify(copy.body));
    return copy.body.result.configs as Record<"claudeDesktop" | "vscode" | "claudeCode", string>;
  };
  const local = await configs("local");
  const remote = await configs("remote");
  for (const [shape, file] of [["claudeDesktop", "claude.json"], ["vscode", "mcp.json"]] as const) {
    const loaded = parseConfig(local[shape], { file });
    assert.deepEqual(loaded.warnings, [], shape);
    assert.deepEqual(loaded.servers.local?.allow, lists.allow, shape);
    assert.deepEqual(loaded.servers.local?.deny, lists.deny, shape);
    const far = parseConfig(remote[shape], { file });
    assert.deepEqual(far.servers.remote?.deny, ["delete_*"], shape);
    assert.equal(far.servers.remote?.allow, undefined, shape);
  }
  assert.deepEqual(JSON.parse(local.claudeCode).mcpServers.local, {
    type: "stdio",
    ...EVERYTHING,
    ...lists,
  });
  assert.deepEqual(JSON.parse(remote.claudeCode).mcpServers.remote, {
    type: "sse",
    url: "http://127.0.0.1:1/mcp",
    deny: ["delete_*"],
  });
  // An entry without lists gets none: nothing the config file did not say.
  await api(ui, "servers/add", { name: "plain", config: EVERYTHING });
  const plain = JSON.parse((await configs("plain")).vscode).servers.plain;
  assert.deepEqual(plain, { type: "stdio", ...EVERYTHING });
});

Deno.test('ui: a server added with "disabled": true is refused with 400 naming the field, and never started', async () => {
  await using ui = InspectorUi.start();
  const add = (name: string, config: Record<string, unknown>) =>
    api(ui, "servers/add", { name, config: { ...EVERYTHING, ...config } });
  const disabled = await add("off", { disabled: true });
  assert.equal(disabled.status, 400);
  assert.equal(
    disabled.body.error.message,
    `Cannot add server "off": its config says "disabled": true; remove that to connect it`,
  );
  const unenabled = await add("off", { enabled: false });
  assert.equal(unenabled.status, 400);
  assert.match(unenabled.body.error.message, /its config says "enabled": false/);
  const word = await add("off", { disabled: "yes" });
  assert.equal(word.status, 400);
  assert.match(word.body.error.message, /"disabled" must be true or false/);
  const state = await request(ui, "/api/state", {
    headers: { authorization: `Bearer ${tokenOf(ui)}` },
  });
  assert.deepEqual(JSON.parse(state.text).servers, [], "a refused server was added");
  assert.equal((await add("on", { disabled: false })).status, 200);
  await waitFor(ui, "on", "connected");
});

Deno.test("ui: starting with a disabled server throws before the port is bound", () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = probe.addr.port;
  probe.close();
  assert.throws(
    () => InspectorUi.start({ port, servers: { off: { ...EVERYTHING, disabled: true } } }),
    /Cannot add server "off": its config says "disabled": true/,
  );
  // Nothing was left listening on the port (this would throw AddrInUse).
  Deno.listen({ hostname: "127.0.0.1", port }).close();
});
