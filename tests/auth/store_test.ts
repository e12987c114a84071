import assert from "node:assert/strict";
import { type AuthRecord, FileTokenStore, MemoryTokenStore } from "../../src/auth/mod.ts";

const record = (token: string): AuthRecord => ({
  issuer: "https://auth.example.com",
  issuers: {
    "https://auth.example.com": {
      client: { clientId: "abc", source: "dynamic" },
      tokens: { accessToken: token, tokenType: "bearer", resource: "https://mcp.example.com/mcp" },
    },
  },
});

Deno.test("the file store writes a 0600 file in a 0700 directory and reads it back", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new FileTokenStore(`${dir}/nested/credentials.json`);
    assert.equal(await store.get("https://mcp.example.com/mcp"), undefined);
    await store.set("https://mcp.example.com/mcp", record("t1"));
    await store.set("https://other.example.com/mcp", record("t2"));
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(store.path)).mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(`${dir}/nested`)).mode! & 0o777, 0o700);
    }
    const again = new FileTokenStore(store.path);
    assert.deepEqual(await again.get("https://mcp.example.com/mcp"), record("t1"));
    assert.deepEqual((await again.list()).sort(), [
      "https://mcp.example.com/mcp",
      "https://other.example.com/mcp",
    ]);
    assert.equal(await again.delete("https://mcp.example.com/mcp"), true);
    assert.equal(await again.delete("https://mcp.example.com/mcp"), false);
    assert.deepEqual(await again.list(), ["https://other.example.com/mcp"]);
    const leftovers = [...Deno.readDirSync(`${dir}/nested`)].map((e) => e.name);
    assert.deepEqual(leftovers, ["credentials.json"], "no temporary file is left behind");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the file store tightens a credentials file others can read", {
  ignore: Deno.build.os === "windows",
}, async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/credentials.json`;
    await Deno.writeTextFile(path, JSON.stringify({ version: 1, servers: {} }), { mode: 0o644 });
    await Deno.chmod(path, 0o644);
    await new FileTokenStore(path).list();
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a damaged credentials file is reported without its content", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/credentials.json`;
    await Deno.writeTextFile(path, "{ SECRET-CONTENT", { mode: 0o600 });
    const error = await new FileTokenStore(path).list().catch((e) => e);
    assert.match(error.message, /is damaged/);
    assert.doesNotMatch(error.message, /SECRET-CONTENT/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the memory store hands out copies", async () => {
  const store = new MemoryTokenStore();
  const original = record("t1");
  await store.set("s", original);
  original.issuer = "changed";
  const copy = (await store.get("s"))!;
  copy.issuers = {};
  assert.deepEqual(await store.get("s"), record("t1"));
});
