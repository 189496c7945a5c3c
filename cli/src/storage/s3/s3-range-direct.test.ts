import { Agent } from "node:http";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { RangeSink } from "../types.js";
import type { DirectTarget } from "./s3-direct.js";
import { directRangeReader, expectedHead } from "./s3-range-direct.js";

const direct = suite("a ranged GET read straight into buffers");

const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 13) % 256));

/** A server answering each request with `answer(request, socket)`; the raw requests are kept. */
async function serve(answer: (request: string, socket: Socket) => void): Promise<{ server: Server; port: number; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((socket) => {
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (!text.includes("\r\n\r\n")) return;
      requests.push(text);
      answer(text, socket);
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, requests };
}

const target = (port: number, extra: Partial<DirectTarget> = {}): DirectTarget => ({ useSSL: false, host: "127.0.0.1", port, pathStyle: true, accessKey: "ak", secretKey: "sk", region: "us-east-1", agent: new Agent(), headers: {}, enableSHA256: true, ...extra });

/** A sink collecting into memory in rooms of `room` bytes; `hold` makes every put ask the source to wait a tick. */
function memorySink(room: number, hold = false): RangeSink & { received(): Buffer; waits: number } {
  const parts: Buffer[] = [];
  let current = Buffer.alloc(room);
  const s = {
    waits: 0,
    room: () => current,
    put(n: number) {
      parts.push(Buffer.from(current.subarray(0, n)));
      current = Buffer.alloc(room);
      if (!hold) return undefined;
      s.waits++;
      return new Promise<void>((resolve) => setTimeout(resolve, 1));
    },
    received: () => Buffer.concat(parts),
  };
  return s;
}

/** The 206 a server sends for [from, from + length) of `bytes`. */
const partial = (from: number, length: number, extra = ""): string => `HTTP/1.1 206 Partial Content\r\nContent-Length: ${length}\r\nContent-Range: bytes ${from}-${from + length - 1}/${bytes.length}\r\nETag: "abc-3"\r\n${extra}Connection: close\r\n\r\n`;
const rangeOf = (request: string): [number, number] => {
  const m = /\r\nrange: bytes=(\d+)-(\d+)\r\n/.exec(request);
  return [Number(m?.[1]), Number(m?.[2]) - Number(m?.[1]) + 1];
};

direct("should send a signed GET for the range with If-Match, and take the body into the sink's rooms", async () => {
  const { server, port, requests } = await serve((request, socket) => {
    const [from, length] = rangeOf(request);
    socket.end(Buffer.concat([Buffer.from(partial(from, length)), bytes.subarray(from, from + length)]));
  });
  try {
    const key = "dir/a b+c%d é!'()*.bin";
    const read = directRangeReader(target(port), { bucket: "bucket", key, versionId: "v 1", ifMatch: "abc-3" });
    assert.ok(read);
    const sink = memorySink(7000, true);
    assert.is(await read(1000, 250_000, sink), 250_000);
    assert.ok(sink.received().equals(bytes.subarray(1000, 251_000)), "bytes differ");
    assert.ok(sink.waits > 10, "the sink's waits were not asked for");
    const request = requests[0] ?? "";
    assert.match(request, /^GET \/bucket\/dir\/a%20b%2Bc%25d%20%C3%A9%21%27%28%29%2A\.bin\?versionId=v%201 HTTP\/1\.1\r\n/);
    assert.match(request, /\r\nif-match: "abc-3"\r\n/);
    assert.match(request, /\r\nrange: bytes=1000-250999\r\n/);
    assert.match(request, /\r\nauthorization: AWS4-HMAC-SHA256 Credential=ak\/\d{8}\/us-east-1\/s3\/aws4_request, SignedHeaders=host;if-match;range;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}\r\n/);
  } finally {
    server.close();
  }
});

direct("should deliver nothing for an answer it does not expect, so the SDK path reads and reports it", async () => {
  const answers = [
    "HTTP/1.1 412 Precondition Failed\r\nContent-Length: 0\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789",
    `HTTP/1.1 206 Partial Content\r\nContent-Length: 10\r\nContent-Range: bytes 1-10/300000\r\n\r\n0123456789`,
    `HTTP/1.1 206 Partial Content\r\nTransfer-Encoding: chunked\r\nContent-Range: bytes 0-9/300000\r\n\r\na\r\n0123456789\r\n0\r\n\r\n`,
    `HTTP/1.1 206 Partial Content\r\nX-Big: ${"x".repeat(20_000)}\r\n\r\n`,
    "garbage\r\n\r\n",
  ];
  let next = 0;
  const { server, port } = await serve((_request, socket) => socket.end(answers[next++] ?? ""));
  try {
    const read = directRangeReader(target(port), { bucket: "bucket", key: "k" });
    for (const answer of answers) {
      const sink = memorySink(4096);
      assert.is(await read?.(0, 10, sink), 0, answer.slice(0, 40));
      assert.is(sink.received().length, 0);
    }
  } finally {
    server.close();
  }
});

direct("should stop with what arrived when the connection breaks mid-body, or is refused", async () => {
  const { server, port } = await serve((request, socket) => {
    const [from, length] = rangeOf(request);
    socket.write(partial(from, length));
    socket.write(bytes.subarray(from, from + 12_345), () => socket.destroy());
  });
  try {
    const sink = memorySink(5000);
    assert.is(await directRangeReader(target(port), { bucket: "bucket", key: "k" })?.(0, 100_000, sink), 12_345);
    assert.ok(sink.received().equals(bytes.subarray(0, 12_345)));
  } finally {
    server.close();
  }
  const closed = await serve(() => undefined);
  closed.server.close();
  assert.is(await directRangeReader(target(closed.port), { bucket: "bucket", key: "k" })?.(0, 10, memorySink(10)), 0);
});

direct("should reject with the abort reason when the copy is interrupted", async () => {
  const { server, port } = await serve((request, socket) => socket.write(partial(...rangeOf(request))));
  try {
    const controller = new AbortController();
    const pending = directRangeReader(target(port), { bucket: "bucket", key: "k" })?.(0, 100, memorySink(10), controller.signal);
    setTimeout(() => controller.abort(new Error("interrupted")), 50);
    let failed = "";
    await pending?.catch((err: unknown) => (failed = String(err)));
    assert.is(failed, "Error: interrupted");
  } finally {
    server.close();
  }
});

direct("should leave TLS, virtual hosts and header injection to the SDK", () => {
  assert.is(directRangeReader(target(1, { useSSL: true }), { bucket: "bucket", key: "k" }), undefined);
  assert.is(directRangeReader(target(1, { pathStyle: false }), { bucket: "bucket", key: "k" }), undefined);
  assert.is(directRangeReader(target(1, { headers: { "x-a": "1\r\nx-b: 2" } }), { bucket: "bucket", key: "k" }), undefined);
  assert.is(directRangeReader(target(1), { bucket: "Bad_Bucket", key: "k" }), undefined);
  assert.is(directRangeReader(undefined, { bucket: "bucket", key: "k" }), undefined);
});

direct("should accept only the 206 of exactly the range and ETag asked for", () => {
  const head = (extra: string, status = "206 Partial Content"): string => `HTTP/1.1 ${status}\r\nContent-Length: 10\r\nContent-Range: bytes 5-14/100\r\n${extra}`.replace(/\r\n$/, "");
  assert.ok(expectedHead(head('ETag: "e-2"'), 5, 10, "e-2"));
  assert.ok(expectedHead(head(""), 5, 10, "e-2"), "no ETag in the answer: If-Match was the server's to check");
  assert.not.ok(expectedHead(head('ETag: "other"'), 5, 10, "e-2"));
  assert.not.ok(expectedHead(head("Content-Length: 10"), 5, 10));
  assert.not.ok(expectedHead(head(""), 5, 11));
  assert.not.ok(expectedHead(head(""), 4, 10));
  assert.not.ok(expectedHead(head("", "200 OK"), 5, 10));
  assert.not.ok(expectedHead(head("no colon here"), 5, 10));
  assert.ok(expectedHead("HTTP/1.0 206\r\ncontent-length: 10\r\ncontent-range: bytes 5-14/*", 5, 10));
});

direct.run();
