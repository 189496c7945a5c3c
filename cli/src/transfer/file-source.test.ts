import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createFileSource } from "./file-source.js";

const source = suite("local file source");
let dir = "";
const data = Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 5 }, (_, i) => i % 253));
const failure = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => "",
    (err: unknown) => String(err),
  );
const openFds = async (): Promise<number> => (await readdir("/proc/self/fd")).length;

source.before(async () => {
  dir = await mkdtemp(join(tmpdir(), "file-source-"));
  await writeFile(join(dir, "f.bin"), data);
});
source.after(() => rm(dir, { recursive: true, force: true }));

source("should read into the caller's buffers, count the bytes live and close at the end", async () => {
  const before = await openFds();
  const file = createFileSource(join(dir, "f.bin"));
  const into = Buffer.alloc(data.length + 10);
  let at = 0;
  for (let n = -1; n !== 0; at += n) n = await file.readInto(into, at, Math.min(1024 * 1024, into.length - at));
  assert.is(file.bytesRead, data.length);
  assert.ok(into.subarray(0, at).equals(data));
  assert.is(await openFds(), before, "the file stayed open after its end");
});

source("should stream the same bytes, and close when destroyed half-way", async () => {
  const chunks: Buffer[] = [];
  for await (const chunk of createFileSource(join(dir, "f.bin"))) chunks.push(chunk as Buffer);
  assert.ok(Buffer.concat(chunks).equals(data));
  const before = await openFds();
  const file = createFileSource(join(dir, "f.bin"));
  assert.is(await file.readInto(Buffer.alloc(10), 0, 10), 10);
  file.destroy();
  await new Promise((resolve) => file.once("close", resolve));
  assert.is(await openFds(), before, "a destroyed source kept its file open");
  assert.match(await failure(file.readInto(Buffer.alloc(10), 0, 10)), /closed/);
});

source("should fail on a missing file", async () => {
  assert.match(await failure(createFileSource(join(dir, "missing")).readInto(Buffer.alloc(1), 0, 1)), /ENOENT/);
});

source.run();
