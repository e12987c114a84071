import assert from "node:assert/strict";
// The inspector's page in a real browser: headless Chromium (Debian's `chromium`, or the one
// CHROMIUM_PATH names) driven by puppeteer-core, against fixture servers on stdio.

import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { InspectorUi } from "../../src/ui/ui.ts";
import { fixture } from "../_helpers.ts";

// What the functions that run in the page touch. This file is checked without the DOM library
// (it would clash with Deno's), so the page's globals are declared here as far as they are used.
interface PageNode {
  textContent: string | null;
  value: string;
  dataset: Record<string, string>;
  href: string;
  src: string;
}
declare const document: {
  querySelectorAll(selector: string): Iterable<PageNode> & { length: number };
  scripts: Iterable<PageNode>;
};

const CHROMIUM = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

function server(name: string) {
  return { command: Deno.execPath(), args: ["run", "--allow-all", fixture(name)] };
}

async function launch(): Promise<Browser> {
  try {
    await Deno.stat(CHROMIUM);
  } catch {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install it (apt-get install -y chromium, as .ci/run does) ` +
        "or set CHROMIUM_PATH",
    );
  }
  return await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container has no user namespace for Chromium's sandbox.
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

/** Waits until `selector` matches an element whose text includes `text`. */
async function waitForText(page: Page, selector: string, text: string): Promise<string> {
  const handle = await page.waitForFunction(
    (selector: string, text: string) => {
      for (const element of document.querySelectorAll(selector)) {
        if (element.textContent?.includes(text)) return element.textContent;
      }
      return false;
    },
    { timeout: 20_000 },
    selector,
    text,
  );
  return await handle.jsonValue() as string;
}

async function click(page: Page, selector: string): Promise<void> {
  await page.waitForSelector(selector, { visible: true, timeout: 20_000 });
  await page.click(selector);
}

async function callTool(page: Page, tool: string): Promise<void> {
  await click(page, "#tab-tools");
  await click(page, `[data-tool="${tool}"]`);
  await page.waitForSelector(`[data-testid=tool-form][data-form="${tool}"]`);
}

Deno.test("ui in Chromium: tools, forms, elicitation, live notifications, the wire log, hostile markup", async (t) => {
  const downloads = await Deno.makeTempDir({ prefix: "mcp-inspect-ui-" });
  await using ui = InspectorUi.start({ servers: { everything: server("everything.ts") } });
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on("pageerror", (error) => failures.push(String(error)));
    page.on("console", (message) => {
      if (message.type() === "error") failures.push(message.text());
    });
    await page.goto(ui.url.href);

    await t.step("the token leaves the address bar, and the server connects", async () => {
      assert.equal(page.url(), `${ui.origin}/`);
      await page.waitForSelector('[data-server="everything"] .dot.connected', { timeout: 20_000 });
      await waitForText(page, ".facts", "fake-everything 1.0.0");
      await waitForText(page, ".facts", "2025-11-25");
      await waitForText(page, "#main pre", "A fake server for tests.");
    });

    await t.step("tools are listed, with their annotations", async () => {
      await click(page, "#tab-tools");
      await page.waitForSelector('[data-tool="echo"]');
      const names = await page.$$eval(
        "[data-tool]",
        (items) => items.map((item) => (item as unknown as PageNode).dataset.tool),
      );
      for (const name of ["echo", "add", "elicit", "log"]) assert.ok(names.includes(name), name);
      // A server without allow or deny lists hides nothing, and the page says nothing of them.
      assert.equal(await page.$eval("[data-testid=hidden-tools]", (note) => note.textContent), "");
    });

    await t.step("a form generated from the input schema is filled and submitted", async () => {
      await callTool(page, "echo");
      await page.type('[data-testid=tool-form] [name="text"]', "hello from the form");
      await click(page, "[data-testid=tool-form] button[type=submit]");
      await waitForText(page, "[data-testid=tool-result]", "hello from the form");

      await callTool(page, "add");
      await page.type('[data-testid=tool-form] input[name="a"]', "2");
      await page.type('[data-testid=tool-form] input[name="b"]', "3");
      await click(page, "[data-testid=tool-form] button[type=submit]");
      const result = await waitForText(
        page,
        "[data-testid=tool-result]",
        "matches the output schema",
      );
      assert.match(result, /"sum": 5/);
    });

    await t.step("a required field left empty is named, and nothing is sent", async () => {
      await callTool(page, "echo");
      await click(page, "[data-testid=tool-form] button[type=submit]");
      await waitForText(page, "[data-testid=tool-form] [role=alert]", "text is required");
    });

    await t.step("the copy button gives the equivalent command line", async () => {
      await callTool(page, "echo");
      await page.type('[data-testid=tool-form] [name="text"]', "hi");
      const buttons = await page.$$("[data-testid=tool-form] .actions button");
      await buttons[2]!.click();
      const copied = await waitForText(page, "[data-testid=copied]", "mcp-inspect tools call echo");
      assert.match(copied, /--args .*"text":"hi"/);
    });

    await t.step(
      "an elicitation opens a dialog generated from its schema; the answer reaches the server",
      async () => {
        await callTool(page, "elicit");
        await click(page, "[data-testid=tool-form] button[type=submit]");
        await page.waitForSelector("dialog[open] [data-testid=request-elicitation]", {
          timeout: 20_000,
        });
        const name = await page.$eval(
          'dialog input[name="name"]',
          (input) => (input as unknown as PageNode).value,
        );
        assert.equal(name, "Ada"); // the schema's default
        await page.$eval(
          'dialog input[name="name"]',
          (input) => (input as unknown as PageNode).value = "",
        );
        await page.type('dialog input[name="name"]', "Grace");
        await click(page, "dialog button[type=submit]");
        const result = await waitForText(page, "[data-testid=tool-result]", "Grace");
        assert.match(result, /"action": "accept"/);
        assert.equal(await page.$("dialog[open]"), null);
      },
    );

    await t.step("a notification arrives without reload", async () => {
      await click(page, "#tab-logs");
      await page.waitForSelector("#log-list");
      // The server logs because of a call made elsewhere (here, the API): only the live channel
      // can bring it to the page.
      const answer = await fetch(new URL("/api/tools/call", ui.origin), {
        method: "POST",
        headers: {
          authorization: `Bearer ${ui.url.searchParams.get("token")}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          server: "everything",
          name: "log",
          arguments: { level: "warning", data: "disk almost full" },
          callId: "from-test",
        }),
      });
      assert.equal(answer.status, 200, await answer.text());
      await waitForText(page, "#log-list", "disk almost full");
      await waitForText(page, "#log-list .level-warning", "warning");
    });

    await t.step(
      "the wire log shows both ways with timings, and exports a recording",
      async (t) => {
        await click(page, "#tab-wire");
        await waitForText(page, "#wire-rows", "tools/call");
        const took = await page.$$eval(
          "#wire-rows .took",
          (cells) => cells.map((cell) => (cell as unknown as PageNode).textContent).filter(Boolean),
        );
        assert.ok(took.length > 0 && took.every((cell) => /^\d+ ms$/.test(cell!)));
        await page.type(".wire-view .filter", "logging/setlevel");
        await page.waitForFunction(() =>
          document.querySelectorAll("#wire-rows tr.wire").length === 0
        );
        await page.$eval(
          ".wire-view .filter",
          (input) => (input as unknown as PageNode).value = "",
        );
        await page.type(".wire-view .filter", "tools/call");
        await page.waitForFunction(() =>
          document.querySelectorAll("#wire-rows tr.wire").length > 0
        );
        const cdp = await page.createCDPSession();
        await cdp.send("Browser.setDownloadBehavior", {
          behavior: "allow",
          downloadPath: downloads,
        });
        await click(page, "#export-wire");
        const file = `${downloads}/everything.jsonl`;
        let text = "";
        for (let attempt = 0; attempt < 200 && text === ""; attempt++) {
          text = await Deno.readTextFile(file).catch(() => "");
          if (text === "") await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await cdp.detach();
        const [header, ...lines] = text.trim().split("\n").map((line) => JSON.parse(line));
        assert.equal(header.format, "mcp-inspect-recording");
        assert.equal(header.protocolVersion, "2025-11-25");
        assert.ok(
          lines.some((line) => line.dir === "recv" && line.msg.method === "elicitation/create"),
        );

        await t.step("and a recording opens offline", async () => {
          const input = await page.$("#import");
          await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
          await page.waitForSelector('[data-server="recording:0"]');
          await page.$eval(
            ".wire-view .filter",
            (input) => (input as unknown as PageNode).value = "",
          );
          await page.type(".wire-view .filter", "elicitation");
          await waitForText(page, "#wire-rows", "elicitation/create");
        });
      },
    );

    await t.step(
      "a server is added from the page; its markup is shown as text and never runs",
      async () => {
        await click(page, "#add-server");
        await page.type("dialog [aria-label=Name]", "hostile");
        await page.type("dialog [aria-label=Command]", Deno.execPath());
        await page.type(
          "dialog [aria-label=Arguments]",
          `run\n--allow-all\n${fixture("hostile.ts")}`,
        );
        await click(page, "dialog button[type=submit]");
        await page.waitForSelector('[data-server="hostile"] .dot.connected', { timeout: 20_000 });
        await click(page, '[data-server="hostile"]');
        await waitForText(page, "#main pre", "Instructions <script>");
        await waitForText(page, ".facts", `hostile<img src=x onerror="window.__pwned='img'">`);
        await callTool(page, "markup");
        await waitForText(page, "[data-testid=tool-form]", "Description <img src=x");
        await click(page, "[data-testid=tool-form] button[type=submit]");
        await waitForText(page, "[data-testid=tool-result]", "Result <img src=x");
        await waitForText(page, "[data-testid=tool-result]", "image content with an invalid type");
        await click(page, "#tab-resources");
        await click(page, ".items .item");
        await waitForText(page, ".output", "<html><body><script>");
        const ran = await page.evaluate(() => ({
          pwned: (globalThis as { __pwned?: string }).__pwned ?? null,
          images: document.querySelectorAll('img[src="x"], svg').length,
          inline: [...document.scripts].filter((script) => !script.src).length,
          links: [...document.querySelectorAll("a")].filter((a) =>
            a.href.startsWith("javascript:")
          ).length,
        }));
        assert.deepEqual(ran, { pwned: null, images: 0, inline: 0, links: 0 });
      },
    );

    await t.step("the tools list says how many tools the server's lists hide", async () => {
      const token = ui.url.searchParams.get("token");
      const post = (operation: string, body: unknown) =>
        fetch(new URL(`/api/${operation}`, ui.origin), {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then((response) => response.json());
      const all = (await post("tools/list", { server: "everything" })).result.tools as {
        name: string;
      }[];
      const denied = all.filter((tool) => tool.name.startsWith("e")).length;
      assert.ok(denied > 1, "the fake has several tools starting with e");
      const added = await post("servers/add", {
        name: "listed",
        config: { ...server("everything.ts"), deny: ["e*"] },
      });
      assert.equal(added.error, undefined, JSON.stringify(added));
      await page.waitForSelector('[data-server="listed"] .dot.connected', { timeout: 20_000 });
      await click(page, '[data-server="listed"]');
      await click(page, "#tab-tools");
      await page.waitForSelector('[data-tool="add"]');
      const note = await waitForText(page, "[data-testid=hidden-tools]", "hidden");
      assert.equal(note, `${denied} tools hidden by this server's allow/deny lists`);
      const names = await page.$$eval(
        "[data-tool]",
        (items) => items.map((item) => (item as unknown as PageNode).dataset.tool),
      );
      assert.equal(names.length, all.length - denied);
      assert.ok(!names.some((name) => name?.startsWith("e")), names.join());
    });

    assert.deepEqual(failures, []);
  } finally {
    await browser.close();
    await Deno.remove(downloads, { recursive: true });
  }
});
