import { open as openFile, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { open, seal } from "@mc/wasm";
import { syncDir } from "./files.js";

const recordAd = new TextEncoder().encode("kms:log:v1");

export interface LogEntry {
  readonly index: bigint;
  readonly data: Uint8Array;
}

export interface CommandLog {
  /** Appends entries and fsyncs before resolving. */
  append(entries: readonly LogEntry[]): Promise<void>;
  /** Empties the log (after a snapshot has made its entries redundant). */
  truncate(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Reads every intact record of the log. A torn record at the end (a crash
 * mid-append, never acknowledged) is cut off; `validBytes` says where.
 */
export function readLog(buf: Uint8Array, rootKey: Uint8Array): { entries: LogEntry[]; validBytes: number } {
  const entries: LogEntry[] = [];
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let at = 0;
  while (at + 4 <= buf.length) {
    const len = view.getUint32(at, false);
    if (at + 4 + len > buf.length) break;
    let plain: Uint8Array;
    try {
      plain = open(rootKey, buf.subarray(at + 4, at + 4 + len), recordAd);
    } catch (err) {
      // Only the last record can be torn; damage before it is corruption.
      if (at + 4 + len === buf.length) break;
      throw new Error("command log is corrupt", { cause: err });
    }
    const index = new DataView(plain.buffer, plain.byteOffset, 8).getBigUint64(0, false);
    entries.push({ index, data: plain.subarray(8) });
    at += 4 + len;
  }
  return { entries, validBytes: at };
}

/**
 * Append-only command log: each record is `u32be(length) ‖ sealed(u64be(index)
 * ‖ command)`, sealed under the root key, so the file holds no plaintext.
 */
export async function openCommandLog(path: string, rootKey: Uint8Array, validBytes: number): Promise<CommandLog> {
  let fh: FileHandle = await openFile(path, "a+", 0o600);
  await fh.truncate(validBytes);
  await fh.sync();
  // The file's directory entry must survive a crash too.
  await syncDir(dirname(path));
  return {
    async append(entries) {
      const parts: Uint8Array[] = [];
      for (const e of entries) {
        const plain = new Uint8Array(8 + e.data.length);
        new DataView(plain.buffer).setBigUint64(0, e.index, false);
        plain.set(e.data, 8);
        const sealed = seal(rootKey, plain, recordAd);
        const len = new Uint8Array(4);
        new DataView(len.buffer).setUint32(0, sealed.length, false);
        parts.push(len, sealed);
      }
      await fh.write(Buffer.concat(parts));
      await fh.datasync();
    },
    async truncate() {
      await fh.truncate(0);
      await fh.datasync();
      await fh.close();
      fh = await openFile(path, "a+", 0o600);
    },
    close: () => fh.close(),
  };
}
