import fs from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createLocalStore } from "./local-store.js";

const write = suite("local store writes");
let dir = "";

write.before(async () => {
  dir = await mkdtemp(join(tmpdir(), "local-store-"));
});
write.after(() => rm(dir, { recursive: true, force: true }));

write("should put the bytes under the name, and nothing else", async () => {
  await createLocalStore().write(join(dir, "ok.bin"), Readable.from([Buffer.from("hello")]), 5);
  assert.is(await readFile(join(dir, "ok.bin"), "utf8"), "hello");
  assert.equal(await readdir(dir), ["ok.bin"]);
  await rm(join(dir, "ok.bin"));
});

// A loaded machine runs the temp file's open late: the source's failure then
// rejects the pipeline before the open. A slow open makes that order certain.
write("should leave no temp file when the source fails before the file is open", async () => {
  const realOpen = fs.open;
  let opened: () => void = () => undefined;
  const open = new Promise<void>((resolve) => (opened = resolve));
  // The real open runs 50 ms late, and says when it has created the file.
  const slowOpen = (...args: Parameters<typeof fs.open>): void => {
    const callback = args.at(-1) as (...result: unknown[]) => void;
    const rest = args.slice(0, -1);
    setTimeout(() => Reflect.apply(realOpen, fs, [...rest, (...result: unknown[]) => (callback(...result), opened())]), 50);
  };
  fs.open = slowOpen as typeof fs.open;
  try {
    const source = new Readable({
      read() {
        process.nextTick(() => this.destroy(new Error("checksum refused")));
      },
    });
    let failed = "";
    await createLocalStore()
      .write(join(dir, "bad.bin"), source, 10)
      .catch((err: unknown) => (failed = String(err)));
    assert.match(failed, /checksum refused/);
  } finally {
    fs.open = realOpen;
  }
  // Once the file was created (and, with the fix, closed and removed before the write failed), nothing is left.
  await open;
  assert.equal(await readdir(dir), []);
});

write.run();
