import { open as openFile, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@mc/shared";
import { open, seal } from "@mc/wasm";
import type { Snapshot, SnapshotMeta } from "../domain/types.js";
import { crc32 } from "./crc32.js";

const fileName = "snapshot.bin";
const tempName = "snapshot.tmp";
const ad = new TextEncoder().encode("consensus-snapshot");

/** fsyncs a directory so a rename or a new file in it survives power loss. */
export async function syncDir(dir: string): Promise<void> {
  const fh = await openFile(dir, "r");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Atomic replace: temp file, fsync, rename over the old one, fsync the directory. */
export async function writeSnapshotFile(dir: string, key: Uint8Array, snapshot: Snapshot): Promise<void> {
  const meta = new TextEncoder().encode(JSON.stringify(snapshot.meta));
  const plain = new Uint8Array(4 + meta.length + snapshot.data.length);
  new DataView(plain.buffer).setUint32(0, meta.length);
  plain.set(meta, 4);
  plain.set(snapshot.data, 4 + meta.length);
  const sealed = seal(key, plain, ad);
  const out = new Uint8Array(4 + sealed.length);
  new DataView(out.buffer).setUint32(0, crc32(sealed));
  out.set(sealed, 4);
  const temp = join(dir, tempName);
  const fh = await openFile(temp, "w");
  try {
    await fh.write(out);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(temp, join(dir, fileName));
  await syncDir(dir);
}

export async function readSnapshotFile(dir: string, key: Uint8Array): Promise<Snapshot | undefined> {
  await rm(join(dir, tempName), { force: true });
  let buf: Uint8Array;
  try {
    buf = await readFile(join(dir, fileName));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const corrupt = (why: string): AppError =>
    new AppError("internal", `consensus snapshot ${join(dir, fileName)} is corrupt (${why}); refusing to start: restore the node from a peer`);
  if (buf.length < 4) throw corrupt("too short");
  const sealed = buf.subarray(4);
  if (crc32(sealed) !== new DataView(buf.buffer, buf.byteOffset).getUint32(0)) throw corrupt("checksum mismatch");
  let plain: Uint8Array;
  try {
    plain = open(key, sealed, ad);
  } catch (err) {
    throw new AppError("internal", `consensus snapshot ${join(dir, fileName)} does not open under the root key; refusing to start`, { cause: err });
  }
  const metaLength = new DataView(plain.buffer, plain.byteOffset).getUint32(0);
  const meta = JSON.parse(new TextDecoder().decode(plain.subarray(4, 4 + metaLength))) as SnapshotMeta;
  return { meta, data: plain.slice(4 + metaLength) };
}
