import { mkdir } from "node:fs/promises";
import { chromium, type Browser, type Page } from "playwright-core";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startGatewayEnv, type GatewayEnv } from "./gateway-env.js";

// Issue 17, Found 7: on a phone and on a desktop, no table header breaks inside
// a word ("Platfor m", "Siz e"), judged on the boxes Chromium lays out; every
// page shows its table headers at both widths and is no wider than the screen.
// Screenshots go to tests/output/ (git-ignored) to be looked at.

const outputDir = new URL("../output/", import.meta.url);
const widths = [390, 1280] as const;
const pages: ReadonlyArray<{ name: string; path: string }> = [
  { name: "landing", path: "/" },
  { name: "product-index", path: "/client/" },
  { name: "component-index", path: "/client/mc/" },
  { name: "release-index", path: "/client/mc/release/" },
  { name: "platform-index", path: "/client/mc/release/windows-amd64/" },
  { name: "archive-index", path: "/client/mc/release/linux-amd64/archive/" },
  { name: "notes-index", path: "/client/mc/release/notes/" },
  { name: "releases", path: "/client/releases" },
];

interface Ctx {
  env: GatewayEnv;
  browser: Browser;
}
const layout = suite<Ctx>("pages laid out in Chromium", { env: undefined as never, browser: undefined as never });

layout.before(async (ctx) => {
  ctx.env = await startGatewayEnv();
  // A hotfix id makes the longest cells (file names, curl lines) of the download table.
  await ctx.env.publish("mc", "RELEASE.2026-11-20T00-00-00Z.hotfix.0123456789abcdef");
  ctx.browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  await mkdir(outputDir, { recursive: true });
});
layout.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.env.close();
});

interface HeaderReport {
  readonly visible: number;
  /** Header words laid out on more than one line box. */
  readonly broken: string[];
  readonly overflow: number;
}

/** Every word of every visible `th`, through a Range: one client rect per word means it was not broken. */
function headerReport(p: Page): Promise<HeaderReport> {
  return p.evaluate(() => {
    let visible = 0;
    const broken: string[] = [];
    for (const th of Array.from(document.querySelectorAll("th"))) {
      if (th.getClientRects().length === 0) continue;
      visible += 1;
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of (node.textContent ?? "").matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index ?? 0);
          range.setEnd(node, (m.index ?? 0) + m[0].length);
          const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(`${th.textContent ?? ""} -> '${m[0]}' on ${lines.size} lines`);
        }
      }
    }
    return { visible, broken, overflow: document.documentElement.scrollWidth - window.innerWidth };
  });
}

for (const page of pages) {
  layout(`should lay out ${page.name} (${page.path}) at ${widths.join(" and ")} px with no header broken inside a word`, async (ctx) => {
    for (const width of widths) {
      const context = await ctx.browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 } });
      const p = await context.newPage();
      const errors: string[] = [];
      p.on("pageerror", (e) => errors.push(e.message));
      const res = await p.goto(`${ctx.env.base}${page.path}`, { waitUntil: "networkidle" });
      assert.is(res?.status(), 200, `${page.path} at ${width}px`);
      const report = await headerReport(p);
      assert.equal(report.broken, [], `${page.path} at ${width}px`);
      assert.ok(report.visible >= 2, `${page.path} at ${width}px shows its headers (${report.visible})`);
      assert.ok(report.overflow <= 0, `${page.path} is ${report.overflow}px wider than ${width}px`);
      assert.equal(errors, []);
      // The first table in view, so the screenshot shows the headers being judged.
      await p.locator("table").first().scrollIntoViewIfNeeded();
      await p.screenshot({ path: new URL(`pages-${page.name}-${width}.png`, outputDir).pathname });
      await context.close();
    }
  });
}

layout.run();
