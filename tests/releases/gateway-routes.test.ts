import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startGatewayEnv, type GatewayEnv } from "./gateway-env.js";
import { rawExchange, type RawAnswer } from "./raw-exchange.js";

const publicBase = "http://downloads.example.test";
const json = "application/json; charset=utf-8";

interface Ctx {
  env: GatewayEnv;
}

type Rec = Record<string, unknown> & { release_id: string; component: string; downloads: Record<string, Array<Record<string, unknown>>>; artifacts: Record<string, string> };

const routes = suite<Ctx>("gateway release routes", { env: undefined as never });

routes.before(async (ctx) => {
  ctx.env = await startGatewayEnv();
});
routes.after(async (ctx) => {
  await ctx.env.close();
});

/** A GET with the path exactly as given, alone on its connection. */
async function rawGet(port: number, path: string): Promise<{ status: number; head: string; body: string }> {
  const [answer] = await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, new Set());
  if (!answer) throw new Error(`no answer to GET ${path}`);
  return { status: answer.status, head: answer.head, body: answer.body.toString("utf8") };
}

const local = (env: GatewayEnv, url: string): string => url.replace(publicBase, env.base);

routes("should list records newest first with absolute URLs and the contract's fields", async ({ env }) => {
  const res = await fetch(`${env.base}/api/releases/client`);
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), json);
  assert.is(res.headers.get("cache-control"), "public, max-age=300");
  assert.match(res.headers.get("etag") ?? "", /^"[0-9a-f]{64}(-br|-gz)?"$/);
  assert.ok(res.headers.get("last-modified"));
  assert.is(res.headers.get("access-control-allow-origin"), "*");
  const records = (await res.json()) as Rec[];
  assert.equal(records.map((r) => r.release_id), ["RELEASE.2026-11-18T09-15-00Z", "RELEASE.2026-10-07T12-00-00Z", "RELEASE.2026-09-02T08-30-00Z"]);
  const [first] = records;
  assert.ok(first);
  assert.equal(Object.keys(first), ["product", "component", "release_id", "release_date", "release_time", "status", "public_key_url", "artifacts", "downloads"]);
  assert.equal(Object.keys(first.downloads), ["linux", "macos", "windows", "docker"]);
  assert.is(first.release_time, "2026-11-18T09:15:00Z");
  assert.is(first.public_key_url, `${publicBase}/minisign.pub`);
  const linux = first.downloads.linux ?? [];
  assert.equal(linux.map((d) => d.arch), ["amd64", "arm64", "ppc64le"]);
  const win = first.downloads.windows?.[0];
  assert.is(win?.latest_url, `${publicBase}/client/mc/release/windows-amd64/mc.exe`);
  assert.is(win?.filename, "mc.RELEASE.2026-11-18T09-15-00Z");
  // The sha256 in the record is the hash of the bytes served.
  const bin = await fetch(local(env, String(linux[0]?.url)));
  assert.is(createHash("sha256").update(Buffer.from(await bin.arrayBuffer())).digest("hex"), linux[0]?.sha256);
});

routes("should filter, page with a next link and refuse bad parameters", async ({ env }) => {
  const page = await fetch(`${env.base}/api/releases/server?limit=2`);
  const link = page.headers.get("link") ?? "";
  assert.match(link, `<${publicBase}/api/releases/server?limit=2&after=RELEASE.2026-10-21T06-00-00Z>; rel="next"`);
  const next = (await (await fetch(`${env.base}/api/releases/server?limit=2&after=RELEASE.2026-10-21T06-00-00Z`)).json()) as Rec[];
  assert.equal(next.map((r) => r.release_id), ["RELEASE.2026-09-10T16-45-00Z"]);
  const arm = (await (await fetch(`${env.base}/api/releases/client?os=linux&arch=arm64`)).json()) as Rec[];
  assert.ok(arm.every((r) => r.downloads.linux?.length === 1 && r.downloads.windows?.length === 0));
  for (const [query, name] of [["limit=0", "limit"], ["limit=abc", "limit"], ["limit=101", "limit"], ["after=RELEASE.2026-13-40T25-00-00Z", "after"], ["after=nope", "after"], ["os=Linux%20x", "os"]]) {
    const bad = await fetch(`${env.base}/api/releases/client?${query}`);
    assert.is(bad.status, 400, query);
    assert.is(bad.headers.get("content-type"), json);
    assert.equal(await bad.json(), { code: 400, message: `invalid query parameter '${name}'` });
  }
  const unknown = await fetch(`${env.base}/api/releases/nope`);
  assert.is(unknown.status, 404);
  assert.equal(await unknown.json(), { code: 404, message: "product 'nope' not found" });
});

routes("should refuse a filter that is given empty, like every malformed one (the release service checks, the gateway passes on)", async ({ env }) => {
  for (const [route, name] of [["", "component"], ["", "os"], ["", "arch"], ["", "after"], ["", "limit"], ["/latest", "component"], ["/latest", "os"], ["/latest", "arch"]]) {
    const bad = await fetch(`${env.base}/api/releases/client${route}?${name}=`);
    assert.is(bad.status, 400, `${route} ${name}`);
    assert.equal(await bad.json(), { code: 400, message: `invalid query parameter '${name}'` });
  }
});

routes("should answer latest as a one-element array", async ({ env }) => {
  const latest = (await (await fetch(`${env.base}/api/releases/server/latest`)).json()) as Rec[];
  assert.equal(latest.map((r) => r.release_id), ["RELEASE.2026-11-19T14-30-00Z"]);
  const none = await fetch(`${env.base}/api/releases/client/latest?os=darwin`);
  assert.is(none.status, 404);
  assert.is((await fetch(`${env.base}/api/releases/nope/latest`)).status, 404);
});

routes("should answer HEAD with identical headers and 304 on validators", async ({ env }) => {
  const url = `${env.base}/api/releases/client`;
  const identity = { "accept-encoding": "identity" };
  const get = await fetch(url, { headers: identity });
  const body = await get.arrayBuffer();
  const head = await fetch(url, { method: "HEAD", headers: identity });
  assert.is(head.status, 200);
  for (const h of ["content-type", "content-length", "etag", "cache-control", "last-modified"]) assert.is(head.headers.get(h), get.headers.get(h), h);
  assert.is(Number(head.headers.get("content-length")), body.byteLength);
  const etag = get.headers.get("etag") ?? "";
  for (const inm of [etag, `W/${etag}`, `"other", ${etag}`]) {
    const cond = await fetch(url, { headers: { ...identity, "if-none-match": inm } });
    assert.is(cond.status, 304, inm);
    assert.is(cond.headers.get("etag"), etag);
    assert.is(cond.headers.get("cache-control"), "public, max-age=300");
  }
  assert.is((await fetch(url, { headers: { ...identity, "if-none-match": '"nope"' } })).status, 200);
  const ims = await fetch(url, { headers: { ...identity, "if-modified-since": get.headers.get("last-modified") ?? "" } });
  assert.is(ims.status, 304);
  const post = await fetch(url, { method: "POST" });
  assert.is(post.status, 405);
  assert.is(post.headers.get("allow"), "GET, HEAD");
  assert.equal(await post.json(), { code: 405, message: "method not allowed" });
});

routes("should answer cached requests alike however their headers are spelt, pipelined on one connection", async ({ env }) => {
  const path = "/api/releases/client/latest";
  const first = await fetch(`${env.base}${path}`, { headers: { "accept-encoding": "identity" } });
  const plain = Buffer.from(await first.arrayBuffer());
  const etag = first.headers.get("etag") ?? "";
  const get = (...headers: string[]): string => [`GET ${path} HTTP/1.1`, "Host: x", ...headers, "", ""].join("\r\n");
  const answers = await rawExchange(
    Number(new URL(env.base).port),
    [
      get("Accept-Encoding: identity"),
      get("accept-encoding: gzip"),
      get("ACCEPT-ENCODING: gzip"),
      get("Accept-Encoding: identity", "X-REQUEST-ID: trace-7.a"),
      get("Accept-Encoding: identity", `IF-NONE-MATCH: ${etag}`),
      // A GET with a body is read whole: the next request on the connection is still a request.
      get("Accept-Encoding: identity", "Content-Length: 5").replace(/\r\n\r\n$/, "\r\n\r\nhello"),
      `HEAD ${path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n`,
      // Sent twice, Node reads "identity, gzip": the answer is the one to that.
      get("Accept-Encoding: identity", "Accept-Encoding: gzip"),
      get("Accept-Encoding: identity, gzip"),
      get("Accept-Encoding: identity", "Connection: close"),
    ].join(""),
    new Set([6]),
  );
  assert.equal(answers.map((a) => a.status), [200, 200, 200, 200, 304, 200, 200, 200, 200, 200]);
  const [identity, gzip, gzipUpper, traced, notModified, withBody, head, twice, joined, last] = answers as [RawAnswer, RawAnswer, RawAnswer, RawAnswer, RawAnswer, RawAnswer, RawAnswer, RawAnswer, RawAnswer, RawAnswer];
  for (const a of [identity, traced, withBody, last]) {
    assert.ok(a.body.equals(plain), "an identity answer's body differs");
    assert.is(a.headers["etag"], etag);
    assert.is(a.headers["content-encoding"], undefined);
  }
  for (const a of [gzip, gzipUpper]) {
    assert.is(a.headers["content-encoding"], "gzip");
    assert.ok(gunzipSync(a.body).equals(plain));
  }
  assert.is(traced.headers["x-request-id"], "trace-7.a");
  assert.match(identity.headers["x-request-id"] ?? "", /^[0-9a-f-]{36}$/);
  assert.is.not(identity.headers["x-request-id"], last.headers["x-request-id"]);
  assert.is(notModified.headers["etag"], etag);
  assert.is(head.body.byteLength, 0);
  assert.is(head.headers["content-length"], String(plain.byteLength));
  assert.is(twice.headers["content-encoding"], joined.headers["content-encoding"]);
  assert.is(twice.headers["etag"], joined.headers["etag"]);
});

routes("should never answer a request without negotiation headers with a negotiated answer, nor the reverse, from the cache", async ({ env }) => {
  const port = Number(new URL(env.base).port);
  // Each request twice, so the second comes from the hot path; the negotiated ones first, while nothing is cached.
  const get = (path: string, headers: string[]): string => [`GET ${path} HTTP/1.1`, "Host: x", ...headers, "", ""].join("\r\n");
  // Nothing may follow a request that says Connection: close (Node answers 400 and drops the connection), so only the last says it.
  const twice = (path: string, ...headers: string[]): string => get(path, headers.filter((h) => h !== "Connection: close")) + get(path, headers);
  const api = "/api/releases/server/latest";
  const apiAnswers = await rawExchange(port, twice(api, "Accept-Encoding: gzip") + twice(api) + twice(api, "Accept-Encoding:") + twice(api, "Accept-Encoding: gzip", "Connection: close"), new Set());
  assert.equal(apiAnswers.map((a) => a.headers["content-encoding"] ?? "identity"), ["gzip", "gzip", "identity", "identity", "identity", "identity", "gzip", "gzip"]);
  const plain = apiAnswers[2]?.body ?? Buffer.alloc(0);
  assert.ok(gunzipSync(apiAnswers[1]?.body ?? Buffer.alloc(0)).equals(plain), "the gzip answer is the identity answer compressed");
  assert.equal(new Set(apiAnswers.map((a) => a.headers["x-request-id"])).size, 8, "a new id for each answer, cached or not");
  const notes = "/client/mc/release/notes/";
  const noteAnswers = await rawExchange(port, twice(notes, "Accept: application/json") + twice(notes) + twice(notes, "Accept: application/json", "Connection: close"), new Set());
  assert.equal(noteAnswers.map((a) => a.headers["content-type"]), [...Array(2).fill("application/json; charset=utf-8"), ...Array(2).fill("text/html; charset=utf-8"), ...Array(2).fill("application/json; charset=utf-8")]);
});

routes("should compress generated bodies when accepted, with their own ETag", async ({ env }) => {
  const url = `${env.base}/api/releases/client`;
  const plain = await fetch(url, { headers: { "accept-encoding": "identity" } });
  const plainBody = Buffer.from(await plain.arrayBuffer());
  const { request } = await import("node:http");
  const gz = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    request(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
  assert.is(gz.headers["content-encoding"], "gzip");
  assert.is(gz.headers.vary, "Accept-Encoding");
  assert.is(gz.headers.etag, `${(plain.headers.get("etag") ?? "").slice(0, -1)}-gz"`);
  assert.ok(gunzipSync(gz.body).equals(plainBody));
});

routes("should serve artifacts with their content types, cache classes and ranges", async ({ env }) => {
  const id = "RELEASE.2026-11-18T09-15-00Z";
  const dir = `${env.base}/client/mc/release/linux-amd64`;
  const archive = await fetch(`${dir}/archive/mc.${id}`);
  assert.is(archive.headers.get("content-type"), "application/octet-stream");
  assert.is(archive.headers.get("content-disposition"), `attachment; filename="mc.${id}"`);
  assert.is(archive.headers.get("cache-control"), "public, max-age=31536000, immutable");
  assert.is(archive.headers.get("accept-ranges"), "bytes");
  const bytes = Buffer.from(await archive.arrayBuffer());
  const alias = await fetch(`${dir}/mc`);
  assert.is(alias.headers.get("cache-control"), "public, max-age=300");
  assert.ok(Buffer.from(await alias.arrayBuffer()).equals(bytes));
  const sum = await fetch(`${dir}/mc.sha256sum`);
  assert.is(sum.headers.get("content-type"), "text/plain; charset=utf-8");
  assert.is(await sum.text(), `${createHash("sha256").update(bytes).digest("hex")} mc.${id}\n`);
  const range = await fetch(`${dir}/archive/mc.${id}`, { headers: { range: "bytes=10-19" } });
  assert.is(range.status, 206);
  assert.is(range.headers.get("content-range"), `bytes 10-19/${bytes.byteLength}`);
  assert.ok(Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(10, 20)));
  const suffix = await fetch(`${dir}/archive/mc.${id}`, { headers: { range: "bytes=-5" } });
  assert.ok(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(-5)));
  const beyond = await fetch(`${dir}/archive/mc.${id}`, { headers: { range: `bytes=${bytes.byteLength}-` } });
  assert.is(beyond.status, 416);
  assert.is(beyond.headers.get("content-range"), `bytes */${bytes.byteLength}`);
  const ifRange = await fetch(`${dir}/archive/mc.${id}`, { headers: { range: "bytes=0-1", "if-range": '"stale"' } });
  assert.is(ifRange.status, 200);
  const cond = await fetch(`${dir}/archive/mc.${id}`, { headers: { "if-none-match": archive.headers.get("etag") ?? "" } });
  assert.is(cond.status, 304);
  const types: Array<[string, string]> = [
    [`release-notes-${id}.md`, "text/markdown; charset=utf-8"],
    [`sbom-${id}.cyclonedx.json`, "application/vnd.cyclonedx+json"],
    [`sbom-${id}.spdx.json`, "application/spdx+json"],
    [`gomod-${id}.txt`, "text/plain; charset=utf-8"],
  ];
  for (const [file, type] of types) {
    const res = await fetch(`${env.base}/client/mc/release/notes/${file}`);
    assert.is(res.status, 200, file);
    assert.is(res.headers.get("content-type"), type, file);
    assert.is(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
  }
  const pub = await fetch(`${env.base}/minisign.pub`);
  assert.match(await pub.text(), /^untrusted comment: minisign public key [0-9A-F]{16}\n[A-Za-z0-9+/=]+\n$/);
  const missing = await fetch(`${dir}/archive/mc.RELEASE.2020-01-01T00-00-00Z`);
  assert.is(missing.status, 404);
  assert.equal(await missing.json(), { code: 404, message: "file not found" });
});

routes("should stream a multi-chunk artifact intact, whole and in ranges across chunk boundaries", async ({ env }) => {
  // Larger than two read buffers, with a tail: every buffer is reused while the socket drains.
  const big = Buffer.alloc(5 * 1024 * 1024 + 123);
  for (let i = 0; i + 4 <= big.length; i += 4) big.writeUInt32LE(i, i);
  const path = "client/mc/release/linux-amd64/archive/mc.RELEASE.2026-01-01T00-00-00Z";
  await env.store.write(path, big);
  const whole = Buffer.from(await (await fetch(`${env.base}/${path}`)).arrayBuffer());
  assert.is(createHash("sha256").update(whole).digest("hex"), createHash("sha256").update(big).digest("hex"));
  const start = 2 * 1024 * 1024 - 10;
  const end = 4 * 1024 * 1024 + 10;
  const part = await fetch(`${env.base}/${path}`, { headers: { range: `bytes=${start}-${end}` } });
  assert.is(part.status, 206);
  assert.ok(Buffer.from(await part.arrayBuffer()).equals(big.subarray(start, end + 1)));
  const concurrent = await Promise.all(Array.from({ length: 4 }, async () => Buffer.from(await (await fetch(`${env.base}/${path}`)).arrayBuffer())));
  assert.ok(concurrent.every((b) => b.equals(big)));
});

routes("should serve the notes index as HTML or JSON, and redirect the slashless form", async ({ env }) => {
  const html = await fetch(`${env.base}/client/mc/release/notes/`);
  assert.is(html.headers.get("content-type"), "text/html; charset=utf-8");
  assert.is(html.headers.get("vary"), "Accept, Accept-Encoding");
  const page = await html.text();
  for (const s of ["File Name", "File Size", "Parent directory/", "release-notes-RELEASE.2026-11-18T09-15-00Z.md", "KiB"]) assert.match(page, s);
  assert.ok(page.indexOf("2026-11-18") < page.indexOf("2026-10-07"), "newest first");
  const data = (await (await fetch(`${env.base}/client/mc/release/notes/`, { headers: { accept: "application/json" } })).json()) as { releases: Array<Record<string, string>> };
  assert.equal(Object.keys(data.releases[0] ?? {}), ["release_id", "release_date", "release_notes", "sbom_cyclonedx", "sbom_spdx", "go_modules"]);
  const redirect = await fetch(`${env.base}/client/mc/release/notes`, { redirect: "manual" });
  assert.is(redirect.status, 301);
  assert.is(redirect.headers.get("location"), `${publicBase}/client/mc/release/notes/`);
});

routes("should redirect only a valid component and never copy an invalid one into Location", async ({ env }) => {
  const url = new URL(env.base);
  // Raw request lines: fetch would normalise or refuse these paths before sending.
  for (const component of ["m%0d%0aX-Injected:%20y", "m%0aX", "m%e2%80%a8", "m%20c", "m%c3%a9", "MC", "m..", "%2e%2e"]) {
    const res = await rawGet(Number(url.port), `/client/${component}/release/notes`);
    assert.is(res.status, 404, `${component}: ${res.head}`);
    assert.not.match(res.head, /^location:/im, component);
    assert.not.match(res.head, /^x-injected/im, component);
    assert.equal(JSON.parse(res.body), { code: 404, message: "file not found" }, component);
  }
  const ok = await rawGet(Number(url.port), "/client/mc-2/release/notes");
  assert.is(ok.status, 301);
  assert.match(ok.head, new RegExp(`^location: ${publicBase}/client/mc-2/release/notes/\r?$`, "im"));
});

routes("should cache for 5 minutes, refresh after, and drop the cache on publish", async ({ env }) => {
  const url = `${env.base}/api/releases/client?component=mc`;
  await fetch(url);
  const afterFirst = env.serviceCalls();
  const second = await fetch(url);
  assert.is(env.serviceCalls(), afterFirst, "second request reached the service");
  assert.ok(Number(second.headers.get("age")) >= 0);
  env.advance(4 * 60 * 1000);
  await fetch(url);
  assert.is(env.serviceCalls(), afterFirst, "refreshed before 5 minutes");
  env.advance(61 * 1000);
  await fetch(url);
  assert.is(env.serviceCalls(), afterFirst + 1, "not refreshed after 5 minutes");
  await env.publish("mc", "RELEASE.2026-11-21T00-00-00Z");
  const fresh = (await (await fetch(url)).json()) as Rec[];
  assert.is(fresh[0]?.release_id, "RELEASE.2026-11-21T00-00-00Z", "publish did not invalidate");
  assert.is(env.serviceCalls(), afterFirst + 2);
});

routes("should make one service call for 1,000 concurrent misses", async ({ env }) => {
  env.gateway.cache.invalidate();
  const before = env.serviceCalls();
  const responses = await Promise.all(Array.from({ length: 1000 }, () => fetch(`${env.base}/api/releases/server/latest`).then((r) => r.status)));
  assert.ok(responses.every((s) => s === 200));
  assert.is(env.serviceCalls() - before, 1);
});

routes.run();
