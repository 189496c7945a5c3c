import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createLocalStore } from "../storage/local/local-store.js";
import type { Location } from "../storage/location.js";
import type { Entry } from "../storage/types.js";
import { compareListings, mergeListings, objectsBelow, type Listed } from "./listing-merge.js";
import { readAhead } from "./read-ahead.js";

const entry = (key: string, size = 1): Entry => ({ key, size, lastModified: new Date(0), etag: "", isDir: false });
async function* listed(...rels: string[]): AsyncGenerator<Listed> {
  for (const rel of rels) yield { rel, entry: entry(rel) };
}
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const merge = suite("sorted merge of two listings (mirror, diff)");

merge("should pair keys in code point order, each side alone or both", async () => {
  const pairs = await collect(mergeListings(listed("a", "c", "\ue000", "😀"), listed("b", "c", "z", "\ue000")));
  assert.equal(
    pairs.map((p) => [p.rel, p.first ? 1 : 0, p.second ? 1 : 0]),
    [["a", 1, 0], ["b", 0, 1], ["c", 1, 1], ["z", 0, 1], ["\ue000", 1, 1], ["😀", 1, 0]],
  );
});

merge("should handle an empty side", async () => {
  assert.equal((await collect(mergeListings(listed(), listed("x")))).map((p) => p.rel), ["x"]);
  assert.equal((await collect(mergeListings(listed("x"), listed()))).map((p) => p.rel), ["x"]);
  assert.equal(await collect(mergeListings(listed(), listed())), []);
});

merge("should list a local tree in the order an S3 listing has (emoji before private use)", async () => {
  const dir = await mkdtemp(join(tmpdir(), "listing-merge-"));
  try {
    const names = ["a.txt", "a/b", "a-b", "😀", "\ue000", "z/y/x"];
    for (const n of names) {
      await mkdir(dirname(join(dir, "s", n)), { recursive: true });
      await writeFile(join(dir, "s", n), n);
    }
    await mkdir(join(dir, "t"));
    await writeFile(join(dir, "t", "a-b"), "other size");
    const loc = (sub: string): Location => ({ kind: "local", arg: join(dir, sub), store: createLocalStore(), key: `${join(dir, sub)}/` });
    const rels = (await collect(objectsBelow(loc("s")))).map((l) => l.rel);
    assert.equal(rels, ["a-b", "a.txt", "a/b", "z/y/x", "\ue000", "😀"]);
    const pairs = await collect(compareListings(loc("s"), loc("t")));
    assert.equal(pairs.filter((p) => p.second).map((p) => [p.rel, p.first?.size, p.second?.size]), [["a-b", 3, 10]]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

merge.run();

// ---

const ahead = suite("read-ahead of a listing");

ahead("should yield everything in order and stop at most `limit` ahead", async () => {
  let produced = 0;
  async function* source(): AsyncGenerator<number> {
    for (let i = 0; i < 10; i++) {
      produced = i + 1;
      yield i;
    }
  }
  const it = readAhead(source(), 3)[Symbol.asyncIterator]();
  assert.equal(await it.next(), { value: 0, done: false });
  await new Promise((resolve) => setTimeout(resolve, 10));
  // One taken, three queued, and the source paused at its next yield.
  assert.ok(produced <= 5, `produced ${produced}`);
  const rest: number[] = [];
  for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
  assert.equal(rest, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

ahead("should pass the source's error on after the items before it, and stop the source when the consumer stops", async () => {
  async function* failing(): AsyncGenerator<number> {
    yield 1;
    throw new Error("page 2 failed");
  }
  const got: number[] = [];
  try {
    for await (const n of readAhead(failing(), 10)) got.push(n);
    assert.unreachable("no error");
  } catch (err) {
    assert.is((err as Error).message, "page 2 failed");
  }
  assert.equal(got, [1]);
  let closed = false;
  async function* endless(): AsyncGenerator<number> {
    try {
      for (let i = 0; ; i++) yield i;
    } finally {
      closed = true;
    }
  }
  for await (const n of readAhead(endless(), 5)) if (n === 2) break;
  assert.ok(closed);
});

ahead.run();
