// The gateway's raw lane (gateway/src/http/raw-lane.ts) against node:http on
// the same gateway: a request asked first on a new connection meets the lane;
// asked after a request the lane never answers (/healthz), it meets node:http.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { connect } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { gunzipSync } from "node:zlib";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startGatewayEnv, type GatewayEnv } from "./gateway-env.js";
import { rawAnswers, rawTalk, type RawAnswer, type TalkOptions } from "./raw-exchange.js";

interface Ctx {
  env: GatewayEnv;
  port: number;
}

const lane = suite<Ctx>("gateway raw lane", { env: undefined as never, port: 0 });
const latest = "/api/releases/client/latest";
const get = (path: string, ...headers: string[]): string => [`GET ${path} HTTP/1.1`, "Host: x", ...headers, "", ""].join("\r\n");
/** A request the lane leaves to node:http: the rest of its connection goes there too. */
const toNode = get("/healthz");

lane.before(async (ctx) => {
  ctx.env = await startGatewayEnv();
  ctx.port = Number(new URL(ctx.env.base).port);
});
lane.after(async (ctx) => {
  await ctx.env.close();
});

/** The head without what differs between two answers to one request: the date, the new request id and the age (a second may pass). */
const comparable = (a: RawAnswer): string =>
  a.head
    .replace(/^Date: .*$/m, "Date: -")
    .replace(/^x-request-id: .*$/m, "x-request-id: -")
    .replace(/^age: \d+$/m, "age: -");

/**
 * Fills the hot path for a request (a first answer comes from the full path)
 * and waits until the lane answers it: the sample catalog's first version
 * events may drop the first answers kept.
 */
async function warm(ctx: Ctx, request: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const before = ctx.env.gateway.lane.answered;
    const { socket } = await rawAnswers(ctx.port, [request], 1, { bodiless: new Set(request.startsWith("HEAD") ? [0] : []) });
    socket.destroy();
    if (ctx.env.gateway.lane.answered > before) return;
    await delay(20);
  }
  throw new Error(`the lane never answered ${JSON.stringify(request)}`);
}

lane("should answer a cached request byte for byte as node:http does, the date and the new id aside", async (ctx) => {
  const variants = [get(latest), get(latest, "Accept-Encoding: gzip"), get(latest, "accept: application/json", "X-Request-ID: caller-7"), get("/api/feeds/client.json"), get("/client/releases", "Accept: text/html")];
  for (const request of variants) {
    await warm(ctx, request);
    const before = { ...ctx.env.gateway.lane };
    const { answers: [viaLane], socket: a } = await rawAnswers(ctx.port, [request], 1);
    const { answers: [, viaNode], socket: b } = await rawAnswers(ctx.port, [toNode + request], 2);
    a.destroy();
    b.destroy();
    assert.ok(viaLane && viaNode);
    assert.is(ctx.env.gateway.lane.answered, before.answered + 1, "the lane answered the first");
    assert.is(viaLane.status, 200);
    assert.is(comparable(viaLane), comparable(viaNode), request);
    assert.ok(viaLane.body.equals(viaNode.body), request);
    assert.match(viaLane.head, /^Date: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/m);
    if (request.includes("X-Request-ID")) assert.is(viaLane.headers["x-request-id"], "caller-7");
    else assert.is.not(viaLane.headers["x-request-id"], viaNode.headers["x-request-id"]);
  }
  // HEAD: the same head, no body, and the connection goes on.
  await warm(ctx, `HEAD ${latest} HTTP/1.1\r\nHost: x\r\n\r\n`);
  const head = await rawAnswers(ctx.port, [`HEAD ${latest} HTTP/1.1\r\nHost: x\r\n\r\n${get(latest)}`], 2, { bodiless: new Set([0]) });
  head.socket.destroy();
  assert.is(head.answers[0]?.headers["content-length"], head.answers[1]?.headers["content-length"]);
  assert.is(head.answers[1]?.body.length, Number(head.answers[1]?.headers["content-length"]));
});

lane("should answer curl's requests on one kept-alive connection, plain and compressed", async (ctx) => {
  const url = `${ctx.env.base}${latest}`;
  // Two URLs in one curl: the second rides the first one's connection (num_connects 0). Options
  // apply to every URL of a command line, so `--next` starts the compressed one's own. Asked
  // until the lane answers both (the first asks fill the cache with curl's own headers).
  // Not spawnSync: the gateway answers from this process's event loop.
  for (let i = 0; i < 50; i++) {
    const before = ctx.env.gateway.lane.answered;
    const write = ["-sS", "--fail", "-w", "\n%{http_code} %{num_connects} %{size_download}\n"];
    const curl = await promisify(execFile)("curl", [...write, url, "--next", ...write, "--compressed", url], { encoding: "utf8" });
    const [plain = "", plainStatus = "", compressed = "", compressedStatus = ""] = curl.stdout.split("\n");
    const [plainCode, plainConnects, plainBytes] = plainStatus.split(" ");
    const [compressedCode, compressedConnects, compressedBytes] = compressedStatus.split(" ");
    assert.equal([plainCode, plainConnects, compressedCode, compressedConnects], ["200", "1", "200", "0"]);
    // Bytes on the wire: the first answer plain (its body), the second gzip (fewer).
    assert.is(Number(plainBytes), Buffer.byteLength(plain));
    assert.ok(Number(compressedBytes) < Number(plainBytes), `${compressedBytes} compressed bytes against ${plainBytes}`);
    assert.is(compressed, plain);
    assert.ok(JSON.parse(plain) as unknown);
    if (ctx.env.gateway.lane.answered === before + 2) return;
    await delay(20);
  }
  assert.unreachable("the lane never answered curl");
});

lane("should answer pipelined requests in order, handing the rest to node:http at the first it does not answer", async (ctx) => {
  await warm(ctx, get(latest, "Accept-Encoding: gzip"));
  const before = { ...ctx.env.gateway.lane };
  const requests = [get(latest), get(latest, "Accept-Encoding: gzip", "X-Request-ID: mine-1"), get("/api/releases/client/nope"), get(latest), toNode];
  const { answers, socket } = await rawAnswers(ctx.port, [requests.join("")], 5);
  socket.destroy();
  assert.equal(answers.map((a) => a.status), [200, 200, 404, 200, 200]);
  assert.is(ctx.env.gateway.lane.answered, before.answered + 2);
  assert.is(ctx.env.gateway.lane.handedOff, before.handedOff + 1);
  assert.is(answers[1]?.headers["x-request-id"], "mine-1");
  assert.is(gunzipSync(answers[1]?.body ?? Buffer.alloc(0)).toString(), answers[0]?.body.toString());
  assert.is(new Set(answers.map((a) => a.headers["x-request-id"])).size, 5);
  assert.match(answers[4]?.body.toString() ?? "", '"status":"ok"');
});

/**
 * The answers to `writes` met first by the lane, and the answers to the same
 * writes once node:http has the connection (after a /healthz answered
 * first): each list as the client reads it within `waitMs` or until closed.
 */
async function bothWays(ctx: Ctx, writes: string[], options: TalkOptions = {}, waitMs = 500): Promise<{ lane: RawAnswer[]; node: RawAnswer[] }> {
  const first = await rawTalk(ctx.port, writes, Infinity, waitMs, options);
  first.socket.destroy();
  const after = await rawTalk(ctx.port, [toNode, ...writes], Infinity, waitMs, { gapMs: 100, ...options });
  after.socket.destroy();
  assert.is(after.answers[0]?.status, 200, "/healthz first");
  return { lane: first.answers, node: after.answers.slice(1) };
}

lane("should hand over a head split across reads, and one cut short by the client's end", async (ctx) => {
  await warm(ctx, get(latest));
  const before = { ...ctx.env.gateway.lane };
  const whole = get(latest);
  const split = await rawAnswers(ctx.port, [whole.slice(0, 20), whole.slice(20)], 1, { gapMs: 50 });
  split.socket.destroy();
  assert.is(split.answers[0]?.status, 200);
  assert.is(ctx.env.gateway.lane.answered, before.answered);
  // A whole request, then half of one and the client's end: what node:http does with the half.
  const cut = await bothWays(ctx, [whole + whole.slice(0, 25)], { end: true });
  assert.equal(cut.lane.map(comparable), cut.node.map(comparable));
  assert.is(cut.lane[0]?.status, 200);
});

lane("should give odd and hostile requests node:http's own answer, on a new connection as after another request", async (ctx) => {
  await warm(ctx, get(latest));
  const odd = [
    `GET ${latest} HTTP/1.0\r\nHost: x\r\n\r\n`,
    `GET ${latest} HTTP/1.1\r\n\r\n`,
    `GET ${latest} HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n`,
    get(latest, "Connection: close"),
    get(latest, "Expect: 100-continue"),
    get(latest, "Accept : x"),
    get(latest, "X-Odd: a\0b"),
    get(latest, "X-Odd: a", " folded"),
    `GET ${latest} HTTP/1.1\nHost: x\n\n`,
    get(latest, `X-Big: ${"a".repeat(20_000)}`),
    get(latest, "Transfer-Encoding: chunked") + "0\r\n\r\n",
    `\r\n${get(latest)}`,
  ];
  for (const request of odd) {
    const why = JSON.stringify(request.slice(0, 70));
    const before = ctx.env.gateway.lane.answered;
    const both = await bothWays(ctx, [request]);
    assert.is(ctx.env.gateway.lane.answered, before, why);
    assert.ok(both.lane.length > 0, why);
    assert.equal(both.lane.map(comparable), both.node.map(comparable), why);
  }
});

lane("should hand a client that does not read its answers to node:http, and lose none of them", async (ctx) => {
  await warm(ctx, get(latest));
  // More than the kernel's socket buffers on loopback hold (several MiB), written at once and
  // read only after a pause: the server's writes queue up meanwhile. First all for the lane, then
  // behind a request it leaves to node:http (which pauses while its answers wait).
  const n = 5000;
  for (const [first, lanes] of [["", true], [toNode, false]] as const) {
    const before = { ...ctx.env.gateway.lane };
    const { answers, socket } = await rawAnswers(ctx.port, [first + get(latest).repeat(n)], n + (first ? 1 : 0), { holdMs: 300 });
    socket.destroy();
    const hot = answers.slice(first ? 1 : 0);
    assert.is(hot.length, n);
    assert.ok(hot.every((a) => a.status === 200 && a.body.length === Number(a.headers["content-length"]) && a.body.equals(hot[0]?.body ?? Buffer.alloc(0))));
    assert.is(new Set(answers.map((a) => a.headers["x-request-id"])).size, answers.length);
    const answered = ctx.env.gateway.lane.answered - before.answered;
    assert.ok(lanes ? answered > 0 && answered < n : answered === 0, `the lane answered ${answered}`);
    assert.is(ctx.env.gateway.lane.handedOff, before.handedOff + 1);
  }
});

lane("should answer the newest catalog right after a publish, never the cached one", async (ctx) => {
  await warm(ctx, get(latest));
  const mcOf = (a: RawAnswer | undefined): string | undefined => (JSON.parse(a?.body.toString() ?? "[]") as Array<{ component: string; release_id: string }>).find((r) => r.component === "mc")?.release_id;
  const first = await rawAnswers(ctx.port, [get(latest)], 1);
  first.socket.destroy();
  const old = mcOf(first.answers[0]);
  assert.is(old, "RELEASE.2026-11-18T09-15-00Z");
  await ctx.env.publish("mc", "RELEASE.2026-12-01T00-00-00Z");
  // The catalog event reaches the cache at once on the in-process bus; the next answer names the new release.
  for (let i = 0; i < 50; i++) {
    const { answers, socket } = await rawAnswers(ctx.port, [get(latest)], 1);
    socket.destroy();
    const now = mcOf(answers[0]);
    if (now !== old) return assert.is(now, "RELEASE.2026-12-01T00-00-00Z");
    await delay(20);
  }
  assert.unreachable("the lane kept answering the release before the publish");
});

lane("should count its answers in /metrics", async (ctx) => {
  await warm(ctx, get(latest));
  const count = async (): Promise<number> => Number(/http_request\{method="GET",route="api",code="200"\} (\d+)/.exec(await (await fetch(`${ctx.env.base}/metrics`)).text())?.[1] ?? 0);
  const before = await count();
  const { socket } = await rawAnswers(ctx.port, [get(latest).repeat(5)], 5);
  socket.destroy();
  assert.is((await count()) - before, 5);
});

lane("should close an idle connection as node:http does: 408 before any request, silently after answers", async (ctx) => {
  const server = ctx.env.gateway.server;
  const saved = { request: server.requestTimeout, keepAlive: server.keepAliveTimeout };
  server.requestTimeout = 300;
  server.keepAliveTimeout = 100;
  try {
    const idle = await new Promise<{ out: string; ms: number }>((resolve) => {
      const started = Date.now();
      const s = connect(ctx.port, "127.0.0.1");
      let out = "";
      s.on("data", (c: Buffer) => (out += c.toString()));
      s.on("close", () => resolve({ out, ms: Date.now() - started }));
    });
    assert.is(idle.out, "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
    assert.ok(idle.ms < 3000, `${idle.ms} ms`);
    await warm(ctx, get(latest));
    const { answers, socket } = await rawAnswers(ctx.port, [get(latest)], 1);
    assert.match(answers[0]?.head ?? "", "Keep-Alive: timeout=0");
    const closedAfter = await new Promise<number>((resolve) => {
      const started = Date.now();
      socket.on("close", () => resolve(Date.now() - started));
    });
    // Node's keep-alive timeout plus its 1 s allowance.
    assert.ok(closedAfter >= 900 && closedAfter < 3000, `${closedAfter} ms`);
  } finally {
    server.requestTimeout = saved.request;
    server.keepAliveTimeout = saved.keepAlive;
  }
});

lane("should close its idle connections when the server closes, so the close completes", async (ctx) => {
  await warm(ctx, get(latest));
  const { socket } = await rawAnswers(ctx.port, [get(latest)], 1);
  const socketClosed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  const started = Date.now();
  await new Promise<void>((resolve, reject) => ctx.env.gateway.server.close((err) => (err ? reject(err) : resolve())));
  await socketClosed;
  assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
});

lane.run();
