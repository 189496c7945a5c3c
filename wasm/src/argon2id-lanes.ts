import { AppError } from "@mc/shared/errors";
import { requireIntegerInRange, requireUint8Array, toBytes } from "./check-bytes.js";
import { blamka, blamkaScratchBytes } from "./blamka-wasm.js";
import { blake2b } from "./hash.js";

/**
 * Argon2id (RFC 9106, version 0x13) with any number of lanes, any salt length,
 * an optional secret and associated data. libsodium's `crypto_pwhash` (which
 * `deriveKey` uses) fixes one lane and a 16-byte salt, but formats such as
 * MinIO's admin payloads (4 lanes, 32-byte salt) need the general function.
 * BLAKE2b comes from libsodium (`initCrypto()` first); the compression
 * function G is computed here on 32-bit halves, since libsodium does not
 * expose it: it runs in a small generated WebAssembly module (blamka-wasm.ts)
 * whose memory holds the whole matrix. Lanes are computed one after another
 * (same output as in parallel). Assumes a little-endian host, as Node's
 * platforms are.
 */
export interface Argon2idLanesParams {
  /** Passes over memory (t), at least 1. */
  readonly iterations: number;
  /** Memory in KiB (m), at least 8 per lane, at most 1 GiB. */
  readonly memoryKiB: number;
  /** Lanes (p), 1..255. */
  readonly parallelism: number;
  /** Tag length in bytes, 4..1024. */
  readonly keyLength: number;
  readonly secret?: Uint8Array;
  readonly associatedData?: Uint8Array;
}

const blockBytes = 1024;
const words = blockBytes / 4;

/** High 32 bits of the 64-bit product of two unsigned 32-bit values (index computation). */
function mulHi(a: number, b: number): number {
  const al = a & 0xffff;
  const ah = a >>> 16;
  const bl = b & 0xffff;
  const bh = b >>> 16;
  const lh = al * bh;
  const hl = ah * bl;
  const mid = ((al * bl) >>> 16) + (lh & 0xffff) + (hl & 0xffff);
  return (ah * bh + (lh >>> 16) + (hl >>> 16) + (mid >>> 16)) >>> 0;
}

const le32 = (n: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** H': BLAKE2b stretched to `length` bytes (RFC 9106 §3.3). */
function hashPrime(length: number, input: Uint8Array): Uint8Array {
  const x = concat([le32(length), input]);
  if (length <= 64) return blake2b(x, length);
  const out = new Uint8Array(length);
  const r = Math.ceil(length / 32) - 2;
  let v = blake2b(x, 64);
  out.set(v.subarray(0, 32), 0);
  for (let i = 1; i < r; i++) {
    v = blake2b(v, 64);
    out.set(v.subarray(0, 32), 32 * i);
  }
  out.set(blake2b(v, length - 32 * r), 32 * r);
  return out;
}

export function argon2idLanes(password: Uint8Array | string, salt: Uint8Array, params: Argon2idLanesParams): Uint8Array {
  const pwd = toBytes("password", password);
  requireUint8Array("salt", salt);
  if (salt.length < 8) throw new AppError("invalid_argument", "Argon2id salt must be at least 8 bytes");
  const p = requireIntegerInRange("Argon2id parallelism", params.parallelism, 1, 255);
  const t = requireIntegerInRange("Argon2id iterations", params.iterations, 1, 0xffff_ffff);
  const m = requireIntegerInRange("Argon2id memory", params.memoryKiB, 8 * p, 1024 * 1024, "KiB");
  const tagLength = requireIntegerInRange("Argon2id key length", params.keyLength, 4, 1024, "bytes");
  const secret = params.secret ?? new Uint8Array(0);
  const ad = params.associatedData ?? new Uint8Array(0);
  const h0 = blake2b(
    concat([le32(p), le32(tagLength), le32(m), le32(t), le32(0x13), le32(2), le32(pwd.length), pwd, le32(salt.length), salt, le32(secret.length), secret, le32(ad.length), ad]),
    64,
  );
  const segment = Math.floor(m / (4 * p));
  const laneLength = 4 * segment;
  // Wasm memory: the module's scratch, then the zero, input and address blocks of Argon2i addressing, then the matrix.
  const zero = blamkaScratchBytes, input = zero + blockBytes, address = input + blockBytes, matrix = address + blockBytes;
  let g: ReturnType<typeof blamka>;
  try {
    g = blamka(matrix + p * laneLength * blockBytes);
  } catch (cause) {
    throw new AppError("resource_exhausted", `Argon2id could not allocate ${m} KiB`, { cause });
  }
  const mem = new Uint32Array(g.memory.buffer);
  const block = (lane: number, index: number): number => matrix + (lane * laneLength + index) * blockBytes;
  for (let lane = 0; lane < p; lane++) {
    for (let i = 0; i < 2; i++) mem.set(new Uint32Array(hashPrime(blockBytes, concat([h0, le32(i), le32(lane)])).buffer), block(lane, i) / 4);
  }
  const nextAddresses = (): void => {
    mem[input / 4 + 12] = (mem[input / 4 + 12] ?? 0) + 1;
    g.compress(zero, input, address, 0);
    g.compress(zero, address, address, 0);
  };
  for (let pass = 0; pass < t; pass++) {
    for (let slice = 0; slice < 4; slice++) {
      for (let lane = 0; lane < p; lane++) {
        const independent = pass === 0 && slice < 2;
        if (independent) {
          mem.fill(0, input / 4, input / 4 + words);
          mem.set([pass, 0, lane, 0, slice, 0, p * laneLength, 0, t, 0, 2], input / 4);
        }
        const start = pass === 0 && slice === 0 ? 2 : 0;
        if (independent && start === 2) nextAddresses();
        for (let j = start; j < segment; j++) {
          const cur = slice * segment + j;
          const prev = cur === 0 ? laneLength - 1 : cur - 1;
          let j1: number, j2: number;
          if (independent) {
            if (j % 128 === 0) nextAddresses();
            j1 = mem[address / 4 + 2 * (j % 128)] ?? 0;
            j2 = mem[address / 4 + 2 * (j % 128) + 1] ?? 0;
          } else {
            j1 = mem[block(lane, prev) / 4] ?? 0;
            j2 = mem[block(lane, prev) / 4 + 1] ?? 0;
          }
          const refLane = pass === 0 && slice === 0 ? lane : j2 % p;
          const same = refLane === lane;
          let area: number;
          if (pass === 0) area = same ? slice * segment + j - 1 : slice * segment - (j === 0 ? 1 : 0);
          else area = same ? laneLength - segment + j - 1 : laneLength - segment - (j === 0 ? 1 : 0);
          const rel = area - 1 - mulHi(area, mulHi(j1, j1));
          const startPos = pass === 0 || slice === 3 ? 0 : (slice + 1) * segment;
          const ref = (startPos + rel) % laneLength;
          g.compress(block(lane, prev), block(refLane, ref), block(lane, cur), pass > 0 ? 1 : 0);
        }
      }
    }
  }
  const final = new Uint32Array(words);
  for (let lane = 0; lane < p; lane++) {
    const last = block(lane, laneLength - 1) / 4;
    for (let i = 0; i < words; i++) final[i] = (final[i] ?? 0) ^ (mem[last + i] ?? 0);
  }
  // The instance's memory is kept for the next call: wipe what this one used.
  mem.fill(0, 0, (matrix + p * laneLength * blockBytes) / 4);
  const tag = hashPrime(tagLength, new Uint8Array(final.buffer));
  final.fill(0);
  return tag;
}
