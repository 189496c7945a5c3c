import { readFile } from "node:fs/promises";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import Parser from "rss-parser";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startGatewayEnv, type GatewayEnv } from "./gateway-env.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

interface Ctx {
  env: GatewayEnv;
}

const feeds = suite<Ctx>("feeds", { env: undefined as never });

feeds.before(async (ctx) => {
  ctx.env = await startGatewayEnv();
});
feeds.after(async (ctx) => {
  await ctx.env.close();
});

feeds("should serve a JSON Feed 1.1 that validates and lists the API's releases in order", async ({ env }) => {
  const res = await fetch(`${env.base}/api/feeds/client.json`);
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "application/feed+json");
  const feed = (await res.json()) as { items: Array<{ title: string; content_html: string; _release: { release_id: string } }> };
  const schema = JSON.parse(await readFile(new URL("../fixtures/jsonfeed-1.1.schema.json", import.meta.url), "utf8")) as object;
  const ajv = new Ajv({ allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  assert.ok(validate(feed), JSON.stringify(validate.errors));
  const api = (await (await fetch(`${env.base}/api/releases/client`)).json()) as Array<{ release_id: string }>;
  assert.equal(feed.items.map((i) => i._release.release_id), api.map((r) => r.release_id));
  assert.match(feed.items[0]?.content_html ?? "", "<h1>");
});

feeds("should serve RSS 2.0 that an independent parser reads, with RFC 822 dates", async ({ env }) => {
  const res = await fetch(`${env.base}/feed-server.rss`);
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "application/rss+xml; charset=utf-8");
  const xml = await res.text();
  const parsed = await new Parser().parseString(xml);
  assert.is(parsed.title, "server releases");
  const api = (await (await fetch(`${env.base}/api/releases/server`)).json()) as Array<{ release_id: string; release_date: string }>;
  assert.equal(parsed.items.map((i) => i.title), api.map((r) => `server minio ${r.release_id}`));
  for (const [i, item] of parsed.items.entries()) {
    assert.match(item.pubDate ?? "", /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    assert.is(new Date(item.pubDate ?? "").toISOString().replace(".000Z", "Z"), api[i]?.release_date);
    assert.is(item.guid, `server/minio/${api[i]?.release_id}`);
  }
  assert.match(xml, '<guid isPermaLink="false">');
  assert.match(xml, '<atom:link rel="self" type="application/rss+xml" href="http://downloads.example.test/feed-server.rss"/>');
  assert.match(xml, "<ttl>5</ttl>");
  assert.is((await fetch(`${env.base}/feed-nope.rss`)).status, 404);
  assert.is((await fetch(`${env.base}/api/feeds/nope.json`)).status, 404);
});

feeds.run();
