// The raw lane's head reader against Node's own parser: every head the lane
// would answer must be one node:http accepts, read to the same method, URL,
// cache key and request id. Heads are mutated from real clients' heads with
// the seeded generator of the consensus simulation (reproducible; the seed
// is in each failure's message).
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { createPrng } from "@mc/consensus";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { readHotRequest } from "../../gateway/src/http/hot-request.js";
import { readRawHead } from "../../gateway/src/http/raw-request-head.js";

interface Ctx {
  server: Server;
  port: number;
}

const fuzz = suite<Ctx>("raw head against node:http", { server: undefined as never, port: 0 });

fuzz.before(async (ctx) => {
  // What Node read, as the gateway's hot path reads it from Node's request (in a header: HEAD has no body).
  ctx.server = createServer((req, res) => {
    const read = JSON.stringify({ method: req.method, url: req.url, hot: readHotRequest(req) ?? null });
    res.setHeader("x-read", Buffer.from(read).toString("base64"));
    res.end();
  });
  await new Promise<void>((resolve) => ctx.server.listen(0, "127.0.0.1", resolve));
  ctx.port = (ctx.server.address() as AddressInfo).port;
});
fuzz.after((ctx) => {
  ctx.server.closeAllConnections();
  ctx.server.close();
});

/** Node's answer to one head, alone on its connection: the status and what it read. */
function ask(port: number, head: string): Promise<{ status: number; read: string }> {
  return new Promise((resolve, reject) => {
    let out = "";
    const s = connect(port, "127.0.0.1", () => s.end(Buffer.from(`${head}\r\n\r\n`, "latin1")));
    s.on("data", (c: Buffer) => (out += c.toString("latin1")));
    s.on("error", reject);
    s.on("close", () => resolve({ status: Number(out.slice(9, 12)), read: Buffer.from(/^x-read: (.*)$/m.exec(out)?.[1] ?? "", "base64").toString() }));
  });
}

const seeds = [
  "GET /api/releases/client/latest HTTP/1.1\r\nHost: 127.0.0.1:8080",
  "HEAD /api/feeds/client.json?x=1 HTTP/1.1\r\nHost: d.example\r\nUser-Agent: curl/8.5.0\r\nAccept: */*",
  "GET /client/releases HTTP/1.1\r\nHost: d.example\r\nConnection: keep-alive\r\nAccept: text/html\r\nAccept-Encoding: gzip, br\r\nX-Request-ID: abc-1",
];
const alphabet = ["\0", "\t", "\r", "\n", "\r\n", " ", ":", "\x7f", "\x80", "\xa0", "\xff", "a", "A", "/", "?", "%", ",", ";", '"', "(", "@", "{", "é"];

/** One mutation of `head`: a character inserted, deleted, replaced or case-flipped, or a line repeated. */
function mutate(head: string, next: () => number): string {
  const at = Math.floor(next() * (head.length + 1));
  const pick = alphabet[Math.floor(next() * alphabet.length)] as string;
  switch (Math.floor(next() * 5)) {
    case 0:
      return head.slice(0, at) + pick + head.slice(at);
    case 1:
      return head.slice(0, at) + head.slice(at + 1);
    case 2:
      return head.slice(0, at) + pick + head.slice(at + 1);
    case 3: {
      const c = head.charAt(at);
      return head.slice(0, at) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + head.slice(at + 1);
    }
    default: {
      const lines = head.split("\r\n");
      const i = Math.floor(next() * lines.length);
      lines.splice(i + 1, 0, lines[i] as string);
      return lines.join("\r\n");
    }
  }
}

fuzz("should answer only heads Node accepts, read as Node reads them", async ({ port }) => {
  let accepted = 0;
  for (let seed = 1; seed <= 600; seed++) {
    const next = createPrng(seed);
    let head = seeds[seed % seeds.length] as string;
    for (let k = 1 + Math.floor(next() * 3); k > 0; k--) head = mutate(head, next);
    // The lane reads a head up to the first blank line: a mutation that made one ends the head there.
    const blank = head.indexOf("\r\n\r\n");
    if (blank >= 0) head = head.slice(0, blank);
    const lane = readRawHead(head);
    if (!lane) continue;
    accepted++;
    const node = await ask(port, head);
    const why = `seed ${seed}: ${JSON.stringify(head)}`;
    assert.is(node.status, 200, why);
    const read = JSON.parse(node.read) as { method: string; url: string; hot: { key: string; requestId?: string } | null };
    assert.is(read.method, lane.method, why);
    assert.is(read.url, lane.url, why);
    assert.ok(read.hot, `${why}: the hot path refuses it`);
    assert.equal({ key: read.hot.key, requestId: read.hot.requestId }, { key: lane.key, requestId: lane.requestId }, why);
  }
  // The mutations must leave enough heads the lane answers for the comparison to mean something.
  assert.ok(accepted >= 100, `only ${accepted} heads accepted`);
});

fuzz.run();
