import assert from "node:assert/strict";
import { OAuthError, OAuthProvider, openBrowser } from "../../src/auth/mod.ts";
import { checkTarget, hostKind } from "../../src/auth/_safety.ts";
import { headless, setup } from "./_setup.ts";

Deno.test("addresses are classified by what forging a request to them could reach", () => {
  const table: [string, string | undefined][] = [
    ["127.0.0.1", "loopback"],
    ["localhost", "loopback"],
    ["app.localhost", "loopback"],
    ["[::1]", "loopback"],
    ["10.1.2.3", "private"],
    ["172.20.0.1", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["0.0.0.0", "private"],
    ["[fd12::1]", "private"],
    ["169.254.1.1", "link-local"],
    ["[fe80::1]", "link-local"],
    ["169.254.169.254", "metadata"],
    ["metadata.google.internal", "metadata"],
    ["[fd00:ec2::254]", "metadata"],
    ["[::ffff:169.254.169.254]", "metadata"],
    ["[::ffff:7f00:1]", "loopback"],
    ["8.8.8.8", "public"],
    ["[2001:db8::1]", "public"],
    ["example.com", undefined],
  ];
  for (const [host, kind] of table) {
    assert.equal(hostKind(host.replace(/^\[|\]$/g, "")), kind, host);
  }
  // The URL parser normalizes odd IPv4 spellings before we see them.
  assert.equal(hostKind(new URL("http://0x7f.1/").hostname), "loopback");
  assert.equal(hostKind(new URL("http://2852039166/").hostname), "metadata");
});

Deno.test("metadata services are refused always, private addresses unless the server is local", async () => {
  const resolve = (host: string) =>
    Promise.resolve(host === "internal.example.test" ? ["10.9.8.7"] : ["93.184.216.34"]);
  const remote = { allowLocal: false, resolve };
  const local = { allowLocal: true, resolve };
  const refused = async (url: string, policy: typeof remote) =>
    await checkTarget(url, "URL", policy).then(() => false, (e) => e instanceof OAuthError);
  assert.ok(await refused("http://169.254.169.254/latest/meta-data/", local));
  assert.ok(await refused("https://metadata.google.internal/computeMetadata/v1/", local));
  assert.ok(await refused("https://10.0.0.5/prm", remote));
  assert.ok(await refused("https://internal.example.test/prm", remote));
  assert.ok(!(await refused("https://10.0.0.5/prm", local)));
  assert.ok(!(await refused("https://auth.example.com/", remote)));
  for (
    const url of ["javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "ftp://x/"]
  ) {
    assert.ok(await refused(url, local), url);
  }
  assert.ok(await refused("http://auth.example.com/", remote), "plain http only to loopback");
});

/** A fetch that serves https://mcp.example.test from a local fake and records every URL. */
function remoteLooking(local: string, seen: string[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push(url.href);
    if (url.hostname !== "mcp.example.test") throw new TypeError(`unexpected fetch of ${url.href}`);
    return fetch(`${local}${url.pathname}${url.search}`, init);
  };
}

Deno.test("an SSRF attempt through resource_metadata is refused without a request", async () => {
  for (const target of ["http://169.254.169.254/latest/meta-data/iam/", "https://10.0.0.5/prm"]) {
    await using env = setup({ mcp: { resourceMetadataUrl: () => target } });
    const seen: string[] = [];
    const provider = new OAuthProvider({
      serverUrl: "https://mcp.example.test/mcp",
      interaction: headless(),
      fetch: remoteLooking(env.origin, seen),
      resolveHost: () => Promise.resolve(["93.184.216.34"]),
    });
    const response = await provider.fetch("https://mcp.example.test/mcp", {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    }).catch((e) => e);
    assert.ok(response instanceof OAuthError, target);
    assert.equal(response.kind, "unsafe-url");
    assert.deepEqual(
      seen,
      ["https://mcp.example.test/mcp"],
      "nothing but the MCP request was sent",
    );
  }
});

Deno.test("a server on plain http that is not local gets no token", async () => {
  await using env = setup();
  const seen: string[] = [];
  const provider = new OAuthProvider({
    serverUrl: "http://mcp.example.test/mcp",
    interaction: headless(),
    fetch: (input, init) => {
      seen.push(String(input));
      return fetch(`${env.origin}/mcp`, init);
    },
  });
  const error = await provider.fetch("http://mcp.example.test/mcp", {
    method: "POST",
    body: "{}",
  }).catch((e) => e);
  assert.ok(error instanceof OAuthError);
  assert.match(error.message, /plain http/);
  assert.equal(seen.length, 1);
});

Deno.test("javascript:, data: and file: authorization endpoints are never opened", async () => {
  for (
    const endpoint of ["javascript:alert(1)//", "data:text/html,<script>", "file:///etc/passwd"]
  ) {
    await using env = setup({ as: { authorizationEndpoint: endpoint } });
    let opened = false;
    const provider = new OAuthProvider({
      serverUrl: env.url,
      interaction: {
        redirectUri: "http://127.0.0.1:8976/callback",
        openAuthorizationUrl: () => {
          opened = true;
          return Promise.resolve("http://127.0.0.1:8976/callback");
        },
      },
    });
    const error = await provider.authorize().catch((e) => e);
    assert.ok(error instanceof OAuthError, endpoint);
    assert.equal(error.kind, "unsafe-url");
    assert.equal(opened, false);
  }
});

Deno.test("openBrowser refuses anything but https: and loopback http:", async () => {
  for (const url of ["javascript:alert(1)", "file:///etc/passwd", "http://example.com/", "-a"]) {
    const error = await openBrowser(url).catch((e) => e);
    assert.ok(error instanceof OAuthError, url);
  }
});
