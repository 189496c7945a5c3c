// The bare-socket ranged GETs of big downloads (cli/src/storage/s3/range-connection.ts),
// against a loopback server that answers as RGW does or as a broken server
// would: a range either arrives whole, byte for byte, or is declined with
// nothing written (and fetched the SDK's way), or fails in one clear error.
import type { ServerResponse } from "node:http";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer as createTcpServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createLocalStore } from "../../cli/src/storage/local/local-store.js";
import { createS3Client } from "../../cli/src/storage/s3/s3-client.js";
import { createS3Store } from "../../cli/src/storage/s3/s3-store.js";
import type { RangeConnection } from "../../cli/src/storage/types.js";
import { copyOne } from "../../cli/src/transfer/copy.js";
import { startRangeServer, type RangeServer } from "./range-server.js";

const MiB = 1024 * 1024;
const bytes = Buffer.alloc(6 * MiB);
for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE((i * 2654435761) >>> 0, i);

const ranges = suite("range connections: ranged GETs on a bare socket");
let server: RangeServer;

ranges.before(async () => {
  server = await startRangeServer(bytes);
});
ranges.before.each(() => {
  server.misbehave = () => false;
  server.connections = 0;
  server.gets = 0;
  server.rawGets = 0;
  server.sdkGets = 0;
});
ranges.after(() => server.close());

function connectTo(target: string, options: { idleMs?: number; ifMatch?: string; signal?: AbortSignal } = {}): RangeConnection {
  const client = createS3Client(
    { name: "r", url: target, accessKey: "ak", secretKey: "sk", sessionToken: "", api: "s3v4", path: "auto", src: "test" },
    { certsDir: "/nonexistent", insecure: false, ...(options.idleMs ? { idleMs: options.idleMs } : {}) },
  );
  const store = createS3Store(client, "r", "bucket", { partSize: 16 * MiB, parallel: 4 });
  const connect = store.rangeConnector?.("big.bin", { ifMatch: options.ifMatch ?? server.etag });
  assert.ok(connect, "no range connection for a plain-HTTP, path-style alias");
  return connect(options.signal);
}

/** Reads one range into a fresh buffer; `takes` counts the calls of take. */
async function readRange(line: RangeConnection, offset: number, length: number): Promise<{ whole: boolean; got: Buffer; takes: number }> {
  const got = Buffer.alloc(length);
  let takes = 0;
  const whole = await line.read(offset, length, (chunk, position) => {
    takes++;
    chunk.copy(got, position - offset);
  });
  return { whole, got, takes };
}

const failureOf = async (p: Promise<unknown>): Promise<NodeJS.ErrnoException> => {
  try {
    await p;
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
  throw new Error("expected a failure");
};

ranges("should read ranges byte for byte over one kept-alive connection", async () => {
  const line = connectTo(server.endpoint);
  try {
    for (const [offset, length] of [[0, MiB], [MiB, 2 * MiB + 17], [3 * MiB + 17, 1], [4 * MiB, 2 * MiB]] as const) {
      const r = await readRange(line, offset, length);
      assert.ok(r.whole, `range at ${offset}`);
      assert.ok(r.got.equals(bytes.subarray(offset, offset + length)), `bytes of the range at ${offset}`);
    }
    assert.is(server.connections, 1);
    assert.is(server.rawGets, 4);
  } finally {
    line.close();
  }
});

ranges("should decline every answer that is not the range, giving nothing to take, and read the next range afresh", async () => {
  const odd: Record<string, (res: ServerResponse, start: number, end: number) => void> = {
    "the whole object (200)": (res) => res.writeHead(200, { "content-length": String(bytes.length) }).end(bytes),
    "a chunked 206": (res, start, end) => {
      res.writeHead(206, { "content-range": `bytes ${start}-${end}/${bytes.length}` });
      res.end(bytes.subarray(start, end + 1));
    },
    "another range": (res, start, end) => server.answer(res, start + 1, end + 1),
    "a 503": (res) => res.writeHead(503, { "content-type": "application/xml" }).end("<Error><Code>SlowDown</Code></Error>"),
    "a 20 KB head": (res, start, end) => {
      res.setHeader("x-padding", "p".repeat(20_000));
      server.answer(res, start, end);
    },
    "a closed connection before any answer": (res) => res.socket?.destroy(),
  };
  for (const [what, answer] of Object.entries(odd)) {
    server.misbehave = (asked, _req, res) => {
      if (asked.start !== MiB) return false;
      answer(res, asked.start, asked.end);
      return true;
    };
    const line = connectTo(server.endpoint);
    try {
      assert.ok((await readRange(line, 0, MiB)).whole, what);
      const r = await readRange(line, MiB, MiB);
      assert.is(r.whole, false, what);
      assert.is(r.takes, 0, `${what}: bytes went to take`);
      const after = await readRange(line, 2 * MiB, MiB);
      assert.ok(after.whole && after.got.equals(bytes.subarray(2 * MiB, 3 * MiB)), `${what}: the range after`);
    } finally {
      line.close();
    }
  }
});

ranges("should decline a range of an object that changed (If-Match, 412) and a server that refuses connections", async () => {
  const line = connectTo(server.endpoint, { ifMatch: "ffffffffffffffffffffffffffffffff-9" });
  try {
    assert.is((await readRange(line, 0, MiB)).whole, false);
  } finally {
    line.close();
  }
  const closed = createTcpServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const nowhere = connectTo(`http://127.0.0.1:${port}`);
  try {
    assert.is((await readRange(nowhere, 0, MiB)).whole, false);
  } finally {
    nowhere.close();
  }
});

ranges("should fail a body cut short, saying how much of the range came", async () => {
  server.misbehave = (asked, _req, res) => {
    res.writeHead(206, { "content-length": String(asked.end - asked.start + 1), "content-range": `bytes ${asked.start}-${asked.end}/${bytes.length}` });
    res.write(bytes.subarray(asked.start, asked.start + 300_000), () => res.socket?.destroy());
    return true;
  };
  const line = connectTo(server.endpoint);
  try {
    const err = await failureOf(readRange(line, 0, MiB));
    assert.match(err.message, /^The server closed the connection after \d+ of 1048576 bytes of a range\.$/);
  } finally {
    line.close();
  }
});

ranges("should not reuse a connection after bytes beyond the answer or Connection: close", async () => {
  server.misbehave = (asked, _req, res) => {
    if (asked.n === 1) {
      server.answer(res, asked.start, asked.end);
      res.socket?.write("HTTP/1.1 200 OK\r\n\r\nnot asked for");
      return true;
    }
    if (asked.n === 2) {
      res.setHeader("connection", "close");
      server.answer(res, asked.start, asked.end);
      return true;
    }
    return false;
  };
  const line = connectTo(server.endpoint);
  try {
    for (let i = 0; i < 3; i++) {
      const r = await readRange(line, i * MiB, MiB);
      assert.ok(r.whole && r.got.equals(bytes.subarray(i * MiB, (i + 1) * MiB)), `range ${i}`);
    }
    assert.is(server.connections, 3);
  } finally {
    line.close();
  }
});

ranges("should fail an answer that stalls, after the idle deadline (--conn-read-deadline)", async () => {
  server.misbehave = () => true;
  const line = connectTo(server.endpoint, { idleMs: 300 });
  try {
    const err = await failureOf(readRange(line, 0, MiB));
    assert.is(err.code, "ETIMEDOUT");
    assert.match(err.message, /^No data to or from 127\.0\.0\.1:\d+ for 0\.3 s \(--conn-read-deadline, --conn-write-deadline\)$/);
  } finally {
    line.close();
  }
});

ranges("should stop at once on abort and when writing fails, closing the connection", async () => {
  let cut = 0;
  server.misbehave = (asked, req, res) => {
    req.socket.once("close", () => cut++);
    res.writeHead(206, { "content-length": String(asked.end - asked.start + 1), "content-range": `bytes ${asked.start}-${asked.end}/${bytes.length}` });
    res.write(bytes.subarray(asked.start, asked.start + 600_000));
    return true;
  };
  const controller = new AbortController();
  const line = connectTo(server.endpoint, { signal: controller.signal });
  const reading = failureOf(line.read(0, MiB, () => controller.abort(new Error("interrupted"))));
  assert.is((await reading).message, "interrupted");
  line.close();
  const full = connectTo(server.endpoint);
  const err = await failureOf(
    full.read(0, MiB, () => {
      throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
    }),
  );
  full.close();
  assert.is(err.code, "ENOSPC");
  for (let i = 0; i < 50 && cut < 2; i++) await new Promise((r) => setTimeout(r, 20));
  assert.is(cut, 2, "the server's connections were not closed");
});

ranges("should cut a download into sixteen ranges (whole MiB) of one to four times the range size :: copyOne", async () => {
  const dir = await mkdtemp(join(tmpdir(), "range-split-"));
  const client = createS3Client({ name: "r", url: server.endpoint, accessKey: "ak", secretKey: "sk", sessionToken: "", api: "s3v4", path: "auto", src: "test" }, { certsDir: "/nonexistent", insecure: false });
  const src = createS3Store(client, "r", "bucket", { partSize: 16 * MiB, parallel: 4 });
  try {
    const copy = async (rangeSize: number): Promise<number> => {
      server.rawGets = 0;
      const target = join(dir, `split-${rangeSize}.bin`);
      await copyOne({ src, srcKey: "big.bin", dst: createLocalStore(), dstKey: target, size: bytes.length, etag: server.etag }, new AbortController().signal, undefined, rangeSize);
      assert.ok((await readFile(target)).equals(bytes));
      return server.rawGets;
    };
    // 6 MiB in sixteen ranges is 384 KiB each, rounded up to whole MiB: 1 MiB. Never below the
    // range size (1.5 MiB: 4 GETs), never above four times it (64 KiB: 256 KiB each, 24 GETs).
    assert.is(await copy(1.5 * MiB), 4);
    assert.is(await copy(64 * 1024), 24);
    assert.is(await copy(512 * 1024), 6);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

ranges.run();
