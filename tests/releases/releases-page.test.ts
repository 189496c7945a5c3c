import { mkdir } from "node:fs/promises";
import { chromium, type Browser, type Page } from "playwright-core";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startGatewayEnv, type GatewayEnv } from "./gateway-env.js";

const outputDir = new URL("../output/", import.meta.url);
const hostileId = "RELEASE.2026-11-20T00-00-00Z";
const hostileNotes = [
  "# Hostile notes",
  "",
  "Ordinary text before. <script>window.__pwned = 'script'</script>",
  "",
  '<img src="x" onerror="window.__pwned = \'onerror\'"> <a href="javascript:window.__pwned=\'link\'">click me</a>',
  "",
  "[markdown link](javascript:window.__pwned='md')",
  "",
].join("\n");

interface Ctx {
  env: GatewayEnv;
  browser: Browser;
}

const page = suite<Ctx>("release-notes page in Chromium", { env: undefined as never, browser: undefined as never });

page.before(async (ctx) => {
  ctx.env = await startGatewayEnv();
  await ctx.env.publish("warp", "RELEASE.2026-11-01T00-00-00Z");
  await ctx.env.publish("mc", hostileId, hostileNotes);
  ctx.browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  await mkdir(outputDir, { recursive: true });
});

page.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.env.close();
});

async function open(ctx: Ctx, options: { javaScriptEnabled?: boolean; width?: number; height?: number } = {}): Promise<{ p: Page; errors: string[] }> {
  const context = await ctx.browser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true, viewport: { width: options.width ?? 1280, height: options.height ?? 900 } });
  const p = await context.newPage();
  const errors: string[] = [];
  p.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  p.on("pageerror", (e) => errors.push(e.message));
  await p.goto(`${ctx.env.base}/client/releases`, { waitUntil: "networkidle" });
  return { p, errors };
}

const visibleIds = (p: Page): Promise<string[]> =>
  p.$$eval("article[data-release]", (els) => els.filter((e) => !(e as HTMLElement).hidden).map((e) => `${(e as HTMLElement).dataset.component}/${(e as HTMLElement).dataset.release}`));

async function apiOrder(env: GatewayEnv): Promise<string[]> {
  const records = (await (await fetch(`${env.base}/api/releases/client`)).json()) as Array<{ component: string; release_id: string }>;
  return records.map((r) => `${r.component}/${r.release_id}`);
}

page("should load without console errors and list every release in order", async (ctx) => {
  const { p, errors } = await open(ctx);
  assert.equal(errors, []);
  assert.equal(await visibleIds(p), await apiOrder(ctx.env));
  assert.is(await p.textContent("#status"), "5 releases");
  const feeds = await p.$$eval("link[rel=alternate]", (links) => links.map((l) => l.getAttribute("type")));
  assert.equal(feeds, ["application/feed+json", "application/rss+xml"]);
  await p.context().close();
});

page("should filter by component and search notes through Connect-Web, and restore when cleared", async (ctx) => {
  const { p, errors } = await open(ctx);
  const all = await visibleIds(p);
  const call = p.waitForRequest((r) => r.url().endsWith("/releases.v1.ReleaseService/ListReleases") && r.method() === "POST");
  await p.selectOption("#component", "warp");
  assert.match((await call).postData() ?? "", '"component":"warp"');
  await p.waitForFunction(() => document.querySelector("#status")?.textContent === "1 of 5 releases");
  assert.equal(await visibleIds(p), ["warp/RELEASE.2026-11-01T00-00-00Z"]);
  await p.selectOption("#component", "");
  await p.waitForFunction(() => document.querySelector("#status")?.textContent === "5 releases");
  assert.equal(await visibleIds(p), all);

  const search = p.waitForRequest((r) => r.url().endsWith("/ListReleases") && (r.postData() ?? "").includes("multipart"));
  await p.fill("#search", "multipart");
  await search;
  await p.waitForFunction(() => document.querySelector("#status")?.textContent === "1 of 5 releases");
  assert.equal(await visibleIds(p), ["mc/RELEASE.2026-10-07T12-00-00Z"]);
  await p.fill("#search", "");
  await p.waitForFunction(() => document.querySelector("#status")?.textContent === "5 releases");
  assert.equal(await visibleIds(p), all);
  assert.equal(errors, []);
  await p.context().close();
});

page("should render hostile notes inert :: script, onerror, javascript: links", async (ctx) => {
  const { p } = await open(ctx);
  const article = `article[data-release="${hostileId}"]`;
  assert.match((await p.textContent(article)) ?? "", "Ordinary text before.");
  await p.click(`${article} a:has-text("click me")`).catch(() => undefined);
  await p.click(`${article} a:has-text("markdown link")`).catch(() => undefined);
  assert.is(await p.evaluate(() => (window as unknown as { __pwned?: string }).__pwned), undefined);
  const notes = `${article} .notes`;
  assert.is(await p.$$eval(`${notes} script`, (s) => s.length), 0);
  assert.is(await p.$$eval(`${notes} [onerror], ${notes} [onclick], ${notes} [onload]`, (s) => s.length), 0);
  assert.is(await p.$$eval(`${notes} a[href^="javascript:" i]`, (s) => s.length), 0);
  await p.context().close();
});

page("should list every release without JavaScript", async (ctx) => {
  const { p } = await open(ctx, { javaScriptEnabled: false });
  assert.equal(await visibleIds(p), await apiOrder(ctx.env));
  assert.ok(await p.$eval("#filters", (f) => (f as HTMLElement).hidden), "the filter form needs JavaScript and stays hidden");
  assert.ok((await p.$$("td code.sha")).length >= 15);
  await p.context().close();
});

page("should support deep links, copy buttons and keyboard focus", async (ctx) => {
  const { p } = await open(ctx);
  await p.goto(`${ctx.env.base}/client/releases#RELEASE.2026-10-07T12-00-00Z`);
  assert.is(await p.evaluate(() => document.querySelector(":target")?.getAttribute("data-release")), "RELEASE.2026-10-07T12-00-00Z");
  await p.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const button = p.locator('article[data-release="RELEASE.2026-10-07T12-00-00Z"] button[data-copy]').first();
  const expected = await button.getAttribute("data-copy");
  await button.click();
  assert.is(await p.evaluate(() => navigator.clipboard.readText()), expected);
  await p.keyboard.press("Tab");
  const focused = await p.evaluate(() => document.activeElement?.tagName);
  assert.ok(["A", "INPUT", "SELECT", "BUTTON"].includes(focused ?? ""), `focus went to ${focused}`);
  await p.context().close();
});

page("should stay under 150 KiB transferred on first load, and write screenshots", async (ctx) => {
  const { p } = await open(ctx);
  const transferred = await p.evaluate(() => {
    const nav = performance.getEntriesByType("navigation") as PerformanceResourceTiming[];
    const res = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    return [...nav, ...res].reduce((sum, e) => sum + e.transferSize, 0);
  });
  assert.ok(transferred > 0 && transferred < 150 * 1024, `transferred ${transferred} bytes`);
  await p.screenshot({ path: new URL("releases-desktop.png", outputDir).pathname, fullPage: false });
  await p.context().close();
  const phone = await open(ctx, { width: 390, height: 844 });
  const overflow = await phone.p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than a phone screen`);
  await phone.p.screenshot({ path: new URL("releases-phone.png", outputDir).pathname, fullPage: false });
  await phone.p.context().close();
});

page.run();
