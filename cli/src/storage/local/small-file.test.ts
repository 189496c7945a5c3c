import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { readSmallFile, smallFileBytes } from "./small-file.js";

const small = suite("small files read whole, on the calling thread");
const dir = mkdtempSync(join(tmpdir(), "small-file-"));
small.after(() => rmSync(dir, { recursive: true, force: true }));

small("should read a small file whole, and an empty one", () => {
  const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
  writeFileSync(join(dir, "a b%+é.bin"), bytes);
  assert.ok(readSmallFile(join(dir, "a b%+é.bin"))?.equals(bytes));
  writeFileSync(join(dir, "empty"), "");
  assert.is(readSmallFile(join(dir, "empty"))?.length, 0);
  writeFileSync(join(dir, "limit"), Buffer.alloc(smallFileBytes, 1));
  assert.is(readSmallFile(join(dir, "limit"))?.length, smallFileBytes);
});

small("should leave bigger files, folders and missing names to the stream", () => {
  writeFileSync(join(dir, "big"), Buffer.alloc(smallFileBytes + 1));
  assert.is(readSmallFile(join(dir, "big")), undefined);
  mkdirSync(join(dir, "folder"));
  assert.is(readSmallFile(join(dir, "folder")), undefined);
  assert.is(readSmallFile(join(dir, "missing")), undefined);
});

small("should not open a FIFO: a writer waiting for a reader keeps waiting", async () => {
  const fifo = join(dir, "fifo");
  execFileSync("mkfifo", [fifo]);
  // The writer's open returns only once a reader opens the FIFO.
  const writer = spawn("sh", ["-c", `echo data > '${fifo}'`]);
  let exited = false;
  writer.once("exit", () => (exited = true));
  // Time for the shell to start and block in its open.
  await new Promise((r) => setTimeout(r, 300));
  assert.is(readSmallFile(fifo), undefined);
  await new Promise((r) => setTimeout(r, 200));
  assert.is(exited, false, "the FIFO was opened: its writer went on");
  writer.kill();
});

small.run();
