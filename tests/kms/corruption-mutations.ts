import { appendFile, copyFile, readFile, truncate, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { blobChunkStarts, recordSpans, v2 } from "./data-dir-tools.js";

export interface Mutation {
  /** The file it damages, relative to the data directory. */
  readonly file: string;
  /** Kind of damage, for the tally. */
  readonly kind: string;
  readonly label: string;
  apply(dir: string): Promise<void>;
}

/** A seeded source of numbers in [0, 1). */
export type Random = () => number;

async function flip(path: string, at: number, mask: number): Promise<void> {
  const buf = await readFile(path);
  buf[at] = (buf[at] ?? 0) ^ mask;
  await writeFile(path, buf);
}

async function zero(path: string, from: number, to: number): Promise<void> {
  const buf = await readFile(path);
  buf.fill(0, from, to);
  await writeFile(path, buf);
}

async function setU32(path: string, at: number, value: number): Promise<void> {
  const buf = await readFile(path);
  if (at + 4 <= buf.length) buf.writeUInt32BE(value, at);
  await writeFile(path, buf);
}

/** Offsets worth hitting in one file: record starts and the fields inside them, header fields, the last bytes. */
function boundaries(buf: Buffer): { records: number[]; fields: number[] } {
  const isV2 = buf.subarray(0, 8).toString("latin1").startsWith("mcrec2");
  const spans = isV2 ? recordSpans(buf) : [];
  const records = spans.map((s) => s.offset);
  const header = isV2 ? [0, 8, 16, 32, 60, 64, 68, 76, 84, 92, 96, 108, 124, v2.fileHeader - 1] : [0, 8, 16, 32, 40, 48, 60, 64, buf.length - 4];
  // A chunked snapshot (mcblob3): each chunk's first bytes (format, nonce), its tag and its checksum.
  const chunkStarts = blobChunkStarts(buf);
  if (chunkStarts.length > 0) records.push(...chunkStarts);
  const chunkFields = chunkStarts.flatMap((at, i) => {
    const end = (chunkStarts[i + 1] ?? buf.length) - 4;
    return [at, at + 1, at + 25, end - 16, end - 1, end, end + 3];
  });
  const fields = spans.flatMap((s) => [s.offset, s.offset + 3, s.offset + 4, s.offset + 11, s.offset + 12, s.offset + 16, s.offset + 20, s.offset + 24, s.offset + 30, s.offset + s.size - 1]);
  return { records, fields: [...header, ...fields, ...chunkFields].filter((o) => o >= 0 && o < buf.length) };
}

/**
 * At least `minimum` mutations of one file: byte flips at every record
 * boundary and field, a length of 0x7fffffff at every record, truncations at
 * every record boundary (and just after), zeroed 4 KiB pages, deletion, the
 * same file from another node, torn tails appended after the last record,
 * then random flips and cuts up to the minimum.
 */
export async function mutationsOf(dir: string, file: string, otherDir: string, random: Random, minimum: number): Promise<Mutation[]> {
  const buf = await readFile(join(dir, file));
  const path = (d: string): string => join(d, file);
  const out: Mutation[] = [];
  const add = (kind: string, label: string, apply: (d: string) => Promise<void>): void => {
    out.push({ file, kind, label: `${file}: ${label}`, apply });
  };
  const { records, fields } = boundaries(buf);
  for (const at of fields) add("flip", `flip byte ${at}`, (d) => flip(path(d), at, 0x01 << (at % 8)));
  for (const at of records) add("length", `length 0x7fffffff at ${at}`, (d) => setU32(path(d), at, 0x7fffffff));
  for (const at of [0, ...records.flatMap((r) => [r, r + 1]), buf.length - 1]) if (at < buf.length) add("truncate", `cut at ${at}`, (d) => truncate(path(d), at));
  for (let p = 0; p < buf.length; p += 4096) add("zero-page", `zero page at ${p}`, (d) => zero(path(d), p, Math.min(buf.length, p + 4096)));
  add("delete", "deleted", (d) => unlink(path(d)));
  add("other-node", "from another node", (d) => copyFile(join(otherDir, file), path(d)));
  if (records.length > 0) {
    add("torn-tail", "10 bytes appended (a cut-short record header)", (d) => appendFile(path(d), Buffer.alloc(10, 0x5a)));
    add("torn-tail", "4 KiB of zeros appended", (d) => appendFile(path(d), Buffer.alloc(4096)));
    const last = recordSpans(buf).at(-1);
    if (last) add("torn-tail", "half of the last record appended again", (d) => appendFile(path(d), buf.subarray(last.offset, last.offset + Math.floor(last.size / 2))));
  }
  while (out.length < minimum) {
    const at = Math.floor(random() * buf.length);
    if (random() < 0.8) {
      const mask = 1 << Math.floor(random() * 8);
      add("random-flip", `flip byte ${at} mask ${mask}`, (d) => flip(path(d), at, mask));
    } else add("random-cut", `cut at ${at}`, (d) => truncate(path(d), at));
  }
  return out;
}
