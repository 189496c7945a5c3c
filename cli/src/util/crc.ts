/**
 * CRC-32C (Castagnoli) and CRC-64/NVME, the two checksums of S3's set that
 * Node does not compute natively (CRC-32 is zlib.crc32). Both are reflected
 * CRCs with all-ones initial value and final xor; CRC-64 runs on two 32-bit
 * halves so it needs no BigInt per byte.
 */

function crc32Table(poly: number): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ poly : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

// The tables are made on first use: most runs of mc compute no checksum (issue 23's start-up).
let castagnoli: Uint32Array | undefined;

/** Updates a running CRC-32C (start with 0). */
export function crc32c(data: Uint8Array, previous = 0): number {
  castagnoli ??= crc32Table(0x82f63b78);
  let crc = ~previous >>> 0;
  for (const byte of data) crc = (castagnoli[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return ~crc >>> 0;
}

// The reflected NVME polynomial 0x9a6c9329ac4bc9b5 as two halves.
const polyHi = 0x9a6c9329;
const polyLo = 0xac4bc9b5;
let tables: { readonly hi: Uint32Array; readonly lo: Uint32Array } | undefined;

function crc64Tables(): { readonly hi: Uint32Array; readonly lo: Uint32Array } {
  const tableHi = new Uint32Array(256);
  const tableLo = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let hi = 0;
    let lo = n;
    for (let k = 0; k < 8; k++) {
      const carry = lo & 1;
      lo = ((lo >>> 1) | ((hi & 1) << 31)) >>> 0;
      hi = hi >>> 1;
      if (carry) {
        hi = (hi ^ polyHi) >>> 0;
        lo = (lo ^ polyLo) >>> 0;
      }
    }
    tableHi[n] = hi;
    tableLo[n] = lo;
  }
  return { hi: tableHi, lo: tableLo };
}

/** A running CRC-64/NVME as [high, low] 32-bit halves (start with [0, 0]). */
export type Crc64 = readonly [number, number];

export function crc64nvme(data: Uint8Array, previous: Crc64 = [0, 0]): Crc64 {
  tables ??= crc64Tables();
  const { hi: tableHi, lo: tableLo } = tables;
  let hi = ~previous[0] >>> 0;
  let lo = ~previous[1] >>> 0;
  for (const byte of data) {
    const i = (lo ^ byte) & 0xff;
    lo = (((lo >>> 8) | (hi << 24)) ^ (tableLo[i] ?? 0)) >>> 0;
    hi = ((hi >>> 8) ^ (tableHi[i] ?? 0)) >>> 0;
  }
  return [~hi >>> 0, ~lo >>> 0];
}
