// The README's screenshots of `mcp-inspect ui`: the page against the everything fake server, in
// headless Chromium. Run with `deno task screenshots`; writes docs/ui-*.png.

import puppeteer from "puppeteer-core";
import { InspectorUi } from "../../src/ui/ui.ts";
import { fixture } from "../_helpers.ts";

const out = new URL("../../docs/", import.meta.url).pathname;
await using ui = InspectorUi.start({
  servers: {
    everything: {
      command: Deno.execPath(),
      args: ["run", "--allow-all", fixture("everything.ts")],
    },
  },
});
const browser = await puppeteer.launch({
  executablePath: Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 760 });
  await page.goto(ui.url.href);
  await page.waitForSelector('[data-server="everything"] .dot.connected');
  await page.screenshot({ path: `${out}ui-overview.png` });

  await page.click("#tab-tools");
  await page.waitForSelector('[data-tool="add"]');
  await page.click('[data-tool="add"]');
  await page.type('[name="a"]', "2");
  await page.type('[name="b"]', "40");
  await page.click("[data-testid=tool-form] button[type=submit]");
  await page.waitForSelector("[data-testid=tool-result]");
  await page.screenshot({ path: `${out}ui-tools.png` });

  await page.click('[data-tool="elicit"]');
  await page.waitForSelector('[data-testid=tool-form][data-form="elicit"]');
  await page.click("[data-testid=tool-form] button[type=submit]");
  await page.waitForSelector("dialog[open]");
  await page.screenshot({ path: `${out}ui-elicitation.png` });
  await page.click("dialog button[type=submit]");
  await page.waitForSelector("[data-testid=tool-result]");

  await page.click("#tab-wire");
  await page.waitForSelector("#wire-rows tr");
  await page.type(".wire-view .filter", "elicit");
  await page.click("#wire-rows tr.wire:nth-of-type(3)");
  await page.keyboard.press("t"); // the dark theme
  await page.screenshot({ path: `${out}ui-wire-dark.png` });
  console.log(`Wrote ${out}ui-{overview,tools,elicitation,wire-dark}.png`);
} finally {
  await browser.close();
}
