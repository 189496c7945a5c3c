import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startGatewayEnv, type GatewayEnv } from "./gateway-env.js";

// Issue 17, Found 7: the download site is findable from `/`, its indexes exist
// and every link on them resolves; feed items point at the release on the page.

interface Ctx {
  env: GatewayEnv;
}
const pages = suite<Ctx>("discoverable pages", { env: undefined as never });

pages.before(async (ctx) => {
  ctx.env = await startGatewayEnv();
});
pages.after(async (ctx) => {
  await ctx.env.close();
});

const html = { accept: "text/html,application/xhtml+xml" };
const json = { accept: "application/json" };

/** Every href of a page, resolved against the page's URL. */
function links(page: string, url: string): string[] {
  return [...page.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((m) => new URL((m[1] ?? "").replace(/&#38;/g, "&"), url).href);
}

pages("should list every product on / with its page, feeds and the public key", async ({ env }) => {
  const res = await fetch(`${env.base}/`, { headers: html });
  assert.is(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", "text/html");
  const found = links(await res.text(), `${env.base}/`);
  for (const product of ["client", "server"]) {
    assert.ok(found.includes(`${env.base}/${product}/releases`), `${product} page linked`);
    assert.ok(found.includes(`${env.base}/api/feeds/${product}.json`), `${product} JSON Feed linked`);
    assert.ok(found.includes(`${env.base}/feed-${product}.rss`), `${product} RSS linked`);
  }
  assert.ok(found.includes(`${env.base}/minisign.pub`));
  assert.ok(found.includes(`${env.base}/client/mc/release/`), "the component's download index is linked");
});

pages("should answer / in JSON on request", async ({ env }) => {
  const res = await fetch(`${env.base}/`, { headers: json });
  assert.is(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", "application/json");
  assert.match(res.headers.get("vary") ?? "", "Accept");
  const body = (await res.json()) as { public_key_url: string; products: Array<{ name: string; page_url: string; components: Array<{ name: string; url: string }> }> };
  assert.is(body.public_key_url, "http://downloads.example.test/minisign.pub");
  assert.equal(body.products.map((p) => p.name), ["client", "server"]);
  assert.is(body.products[0]?.page_url, "http://downloads.example.test/client/releases");
  assert.equal(body.products[0]?.components, [{ name: "mc", url: "http://downloads.example.test/client/mc/release/" }]);
});

pages("should serve the component and platform indexes in HTML and JSON, 301 without the slash", async ({ env }) => {
  for (const path of ["/client/mc/release/", "/client/mc/release/linux-amd64/", "/client/mc/release/windows-amd64/archive/"]) {
    const page = await fetch(`${env.base}${path}`, { headers: html });
    assert.is(page.status, 200, path);
    assert.match(page.headers.get("content-type") ?? "", "text/html");
    assert.match(await page.text(), `Index of ${path}`);
    const data = await fetch(`${env.base}${path}`, { headers: json });
    assert.is(data.status, 200, path);
    const body = (await data.json()) as { path: string; entries: Array<{ name: string; url: string }> };
    assert.is(body.path, path);
    assert.ok(body.entries.length > 0);
    assert.ok(body.entries.every((e) => e.url.startsWith("http://downloads.example.test/")));
    const bare = await fetch(`${env.base}${path.slice(0, -1)}`, { redirect: "manual" });
    assert.is(bare.status, 301, `${path} without the slash`);
    assert.is(bare.headers.get("location"), `http://downloads.example.test${path}`);
  }
  const platform = (await (await fetch(`${env.base}/client/mc/release/windows-amd64/`, { headers: json })).json()) as { entries: Array<{ name: string }> };
  assert.equal(platform.entries.map((e) => e.name), ["archive/", "mc.exe", "mc.exe.minisig", "mc.exe.sha256sum"]);
  assert.is((await fetch(`${env.base}/client/mc/release/plan9-amd64/`)).status, 404);
  assert.is((await fetch(`${env.base}/client/nope/release/`)).status, 404);
  assert.is((await fetch(`${env.base}/nope/mc/release/`)).status, 404);
});

pages("should resolve every link on / and on every index, the notes index's parent included", async ({ env }) => {
  const queue = [`${env.base}/`];
  const seen = new Set(queue);
  const checked: string[] = [];
  while (queue.length > 0) {
    const url = queue.shift() ?? "";
    const res = await fetch(url, { headers: html });
    assert.is(res.status, 200, `${url} answered ${res.status}`);
    checked.push(url);
    // Indexes (and the landing page) are crawled; files and the releases page are only fetched.
    if (!url.endsWith("/")) {
      await res.arrayBuffer();
      continue;
    }
    for (const link of links(await res.text(), url)) {
      if (!link.startsWith(env.base) || seen.has(link)) continue;
      seen.add(link);
      queue.push(link);
    }
  }
  for (const must of ["/client/mc/release/notes/", "/client/mc/release/linux-amd64/", "/client/mc/release/linux-amd64/archive/", "/server/minio/release/", "/client/releases"]) {
    assert.ok(checked.includes(`${env.base}${must}`), `${must} reached from /`);
  }
  const notes = await (await fetch(`${env.base}/client/mc/release/notes/`, { headers: html })).text();
  const parent = /<a href="([^"]*)">Parent directory\/<\/a>/.exec(notes)?.[1] ?? "";
  assert.is((await fetch(new URL(parent, `${env.base}/client/mc/release/notes/`))).status, 200, "the notes index's parent directory");
});

pages("should link feed items to the release on the page, the Markdown staying an attachment", async ({ env }) => {
  const feed = (await (await fetch(`${env.base}/api/feeds/client.json`)).json()) as {
    items: Array<{ id: string; url: string; attachments: Array<{ url: string; mime_type: string }>; _release: { release_id: string } }>;
  };
  const page = await (await fetch(`${env.base}/client/releases`)).text();
  for (const item of feed.items) {
    const id = item._release.release_id;
    assert.match(item.url, /^http:\/\/downloads\.example\.test\/client\/releases#/);
    const anchor = decodeURIComponent(item.url.split("#")[1] ?? "");
    assert.match(page, `<article id="${anchor}" data-release="${id}"`);
    assert.is(item.id, `http://downloads.example.test/client/mc/release/notes/release-notes-${id}.md`, "ids never change");
    assert.ok(item.attachments.some((a) => a.url === item.id && a.mime_type === "text/markdown"), "the notes stay an attachment");
  }
  const rss = await (await fetch(`${env.base}/feed-client.rss`)).text();
  const rssLinks = [...rss.matchAll(/<link>([^<]*)<\/link>/g)].map((m) => m[1]).slice(1);
  assert.equal(rssLinks, feed.items.map((i) => i.url));
});

pages.run();
