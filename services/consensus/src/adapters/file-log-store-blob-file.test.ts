import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initCrypto } from "@mc/wasm";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { encodeBlob, readBlob } from "./file-log-store-blob.js";
import { sealChunkedBlobStream } from "./file-log-store-blob-chunked.js";
import { readChunkedBlobFile } from "./file-log-store-blob-file.js";
import { damageOf } from "./file-log-store-damage.js";

const stream = suite("chunked blobs streamed in and out (issue 26)");
const key = new Uint8Array(32).fill(3);
const storeId = new Uint8Array(16).fill(4);
const header = { tag: "kms-snap", storeId, index: 42 };
const expect = { tag: "kms-snap", storeId, key };
const bodyOf = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) % 251);

async function sealed(body: Uint8Array, pieces: number[], chunkBytes = 64, announced = body.length): Promise<Uint8Array> {
  async function* parts(): AsyncGenerator<Uint8Array> {
    let at = 0;
    for (let i = 0; at < body.length; i++) {
      const n = pieces[i % pieces.length] ?? 1;
      yield body.subarray(at, at + n);
      at += n;
    }
  }
  const out: Uint8Array[] = [];
  for await (const p of sealChunkedBlobStream(key, header, announced, parts(), { chunkBytes })) out.push(p);
  return new Uint8Array(Buffer.concat(out));
}

async function withFile<T>(bytes: Uint8Array, work: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "blob-file-"));
  try {
    await writeFile(join(dir, "snapshot.bin"), bytes);
    return await work(join(dir, "snapshot.bin"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const readChunks = (path: string) => {
  const chunks: Uint8Array[] = [];
  return readChunkedBlobFile(path, "snapshot.bin", expect, (c) => chunks.push(new Uint8Array(c))).then((r) => ({ r, chunks }));
};

stream("a body streamed in pieces of any size seals into chunks that read back, whole or a chunk at a time", async () => {
  await initCrypto();
  for (const [length, pieces] of [[0, [1]], [1, [1]], [64, [64]], [65, [1, 2, 3]], [1000, [7, 130, 1]], [640, [1000]]] as const) {
    const body = bodyOf(length);
    const file = await sealed(body, [...pieces]);
    assert.equal(readBlob(file, "snapshot.bin", expect), { index: 42, body });
    const { r, chunks } = await withFile(file, readChunks);
    assert.equal(r, { index: 42 });
    assert.ok(chunks.every((c) => c.length <= 64));
    assert.equal(new Uint8Array(Buffer.concat(chunks)), body, `${length} bytes in pieces of ${pieces.join(",")}`);
  }
});

stream("a body of another length than announced is refused before its last chunk", async () => {
  await initCrypto();
  await sealed(bodyOf(100), [10], 64, 99).then(() => assert.unreachable(), (e: unknown) => assert.match(String(e), /longer than the 99 bytes announced/));
  await sealed(bodyOf(100), [10], 64, 101).then(() => assert.unreachable(), (e: unknown) => assert.match(String(e), /is 100 bytes, 101 were announced/));
});

stream("read a chunk at a time, every damage is the damage a whole read reports", async () => {
  await initCrypto();
  const good = await sealed(bodyOf(500), [33]);
  const chunk = 64 + 40 + 4;
  const variants: Uint8Array[] = [];
  for (const at of [0, 9, 17, 33, 41, 49, 61, 64, 64 + 30, 64 + chunk, 64 + chunk + 70, good.length - 1]) {
    const b = Buffer.from(good);
    b[at] = (b[at] ?? 0) ^ 0x08;
    variants.push(b);
  }
  for (const cut of [good.length - 1, 64 + chunk, 70, 30]) variants.push(good.subarray(0, cut));
  variants.push(Buffer.concat([good, Buffer.alloc(3)]));
  for (const [i, v] of variants.entries()) {
    let whole: unknown;
    try {
      readBlob(v, "snapshot.bin", expect);
    } catch (e) {
      whole = damageOf(e);
    }
    assert.ok(whole, `variant ${i} reads whole`);
    const streamed = await withFile(v, readChunks).then(({ r }) => r, (e: unknown) => damageOf(e) ?? e);
    // Without the chunked magic (a flip in it, or a file cut inside it) the caller reads the file whole instead.
    if (streamed === undefined) assert.match((whole as { what: string }).what, /wrong magic|shorter than its header/, `variant ${i}`);
    else assert.equal(streamed, whole, `variant ${i}`);
  }
  // A one-seal (version 2) blob is left to `readBlob`.
  assert.is((await withFile(encodeBlob(key, header, bodyOf(10)), readChunks)).r, undefined);
});

stream.run();
