// Helpers of the key-name torture test: the corpus's bytes, local trees and
// what a listing must show, all computed without mc.
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as assert from "uvu/assert";
import { keyNames, type KeyName } from "../fixtures/key-names.js";
import type { S3Witness } from "./s3-witness.js";

export const corpus = keyNames;
/** Names a local filesystem can hold as they are. */
export const localNames = corpus.filter((k) => k.local === undefined);
/** Names that can sit under a prefix (all but the one that fills S3's key limit). */
export const prefixable = corpus.filter((k) => !k.fillsKeyLimit);

const index = new Map(corpus.map((k, i) => [k.name, i]));

/** Distinct bytes (and sizes) per name, so a copy under the wrong key cannot pass. */
export function bodyOf(name: string, version = 1): Buffer {
  const i = index.get(name) ?? -1;
  return Buffer.from(`first line ${i} v${version}\n${"x".repeat(i + 1)} ${name}\n`);
}

export const md5 = (b: Buffer): string => createHash("md5").update(b).digest("hex");

/** S3's order: code points (UTF-8 bytes), not UTF-16 units. */
export function byKey(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Runs `fn` over the items, `limit` at a time, results in order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Writes each name as a file below `dir`. */
export async function writeTree(dir: string, names: readonly KeyName[], version = 1): Promise<void> {
  for (const k of names) {
    await mkdir(dirname(join(dir, k.name)), { recursive: true });
    await writeFile(join(dir, k.name), bodyOf(k.name, version));
  }
}

/** Every file below `dir` by relative path (the file system as the witness). */
export async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (rel: string): Promise<void> => {
    for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
      const path = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(path);
      else out.set(path, await readFile(join(dir, path)));
    }
  };
  await walk("");
  return out;
}

/** The tree holds exactly these names with their bytes. */
export async function assertTree(dir: string, names: readonly KeyName[], version = 1): Promise<void> {
  const tree = await readTree(dir);
  assert.equal([...tree.keys()].sort(byKey), names.map((k) => k.name).sort(byKey));
  for (const k of names) assert.ok(tree.get(k.name)?.equals(bodyOf(k.name, version)), `bytes of ${JSON.stringify(k.name)}`);
}

/** The bucket (below `prefix`) holds exactly these names, each with its bytes' MD5 as ETag; a failure lists what differs. */
export async function assertBucket(w: S3Witness, bucket: string, prefix: string, names: readonly KeyName[], version = 1): Promise<void> {
  const listed = new Map((await w.list(bucket, prefix)).map((o) => [o.key, o.etag]));
  const expected = new Map(names.map((k) => [prefix + k.name, md5(bodyOf(k.name, version))]));
  const missing = [...expected.keys()].filter((k) => !listed.has(k));
  const extra = [...listed.keys()].filter((k) => !expected.has(k));
  const wrong = [...expected].filter(([k, etag]) => listed.has(k) && listed.get(k) !== etag).map(([k]) => k);
  const problems = [...missing.map((k) => `missing ${JSON.stringify(k)}`), ...extra.map((k) => `extra ${JSON.stringify(k)}`), ...wrong.map((k) => `wrong bytes ${JSON.stringify(k)}`)];
  assert.ok(problems.length === 0, `${bucket}/${prefix}: ${problems.join(", ")}`);
}

/**
 * What `ls PATH` lists when PATH is an object: every key and folder starting
 * with it, one level deep, named relative to PATH's folder.
 */
export function expectedLs(keys: readonly string[], path: string): string[] {
  const base = path.slice(0, path.lastIndexOf("/") + 1);
  const shown = new Set<string>();
  for (const key of keys) {
    if (!key.startsWith(path)) continue;
    const slash = key.indexOf("/", path.length);
    shown.add(slash < 0 ? key : key.slice(0, slash + 1));
  }
  return [...shown].sort(byKey).map((k) => k.slice(base.length));
}

/** Paths rebuilt from `tree -f` text (the argument line first, then `├─ `/`└─ ` branches). */
export function treePaths(text: string): string[] {
  const paths: string[] = [];
  const stack: string[] = [];
  for (const line of text.split("\n").slice(1)) {
    const m = /^((?:│ {2}| {3})*)(?:├─|└─) (.*)$/su.exec(line);
    if (!m) continue;
    const depth = [...(m[1] ?? "")].length / 3;
    stack.length = depth;
    stack.push(m[2] ?? "");
    paths.push(stack.join("/"));
  }
  return paths;
}
