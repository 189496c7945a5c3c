import type { KeyVersion, SealedMaterial } from "./state.js";

/**
 * The versions of a key that has one (almost every key), packed: a million
 * keys each holding a Map, a version object, a material object and two
 * typed-array views cost about 600 bytes of heap per key, more than half of
 * issue 26's budget of 1 KiB per key. Packed, a key's version is one small
 * object and its sealed material, creation time and lengths are bytes in a
 * shared 256 KiB slab, so a key costs well under 400 bytes.
 *
 * It reads as a ReadonlyMap of its one version. The KeyVersion it hands out
 * is built on first use and then kept, so callers that cache by the material
 * object (key-ops' unseal cache) see one object per key version.
 */

interface Slab {
  readonly bytes: Uint8Array;
  readonly view: DataView;
}

const slabBytes = 256 * 1024;
let slab: Slab = newSlab(0);
let slabAt = 0;

function newSlab(n: number): Slab {
  const bytes = new Uint8Array(n);
  return { bytes, view: new DataView(bytes.buffer) };
}

/** `n` bytes in the current slab (a new one when it is full). */
function reserve(n: number): number {
  if (slabAt + n > slab.bytes.length) {
    slab = newSlab(slabBytes);
    slabAt = 0;
  }
  const at = slabAt;
  slabAt += n;
  return at;
}

/**
 * The same string for equal identities and algorithm names: keys are
 * usually created by a handful of identities, but every command decodes its
 * own copy of the string. Bounded, so a million distinct creators cost no
 * more than without it.
 */
const interned = new Map<string, string>();
export function intern(s: string): string {
  const known = interned.get(s);
  if (known !== undefined) return known;
  if (interned.size < 10_000) interned.set(s, s);
  return s;
}

/** Milliseconds since the epoch of an RFC 3339 time whose ISO form is exactly `s`, else undefined. */
export function exactMillis(s: string): number | undefined {
  if (s.length !== 24) return undefined;
  const ms = Date.parse(s);
  return Number.isFinite(ms) && new Date(ms).toISOString() === s ? ms : undefined;
}

/** A copy of `b` in the current slab (material of keys that are not packed: a separate buffer each costs more than its bytes). */
export function slabCopy(b: Uint8Array): Uint8Array {
  if (b.length > slabBytes / 4) return new Uint8Array(b);
  const at = reserve(b.length);
  slab.bytes.set(b, at);
  return slab.bytes.subarray(at, at + b.length);
}

// Slab layout of one version: f64 creation time (ms), u8 length, sealed key, u8 length, sealed HMAC key.
export class OneVersion implements ReadonlyMap<number, KeyVersion> {
  readonly #slab: Slab;
  readonly #at: number;
  readonly #version: number;
  readonly #createdBy: string;
  #cached: KeyVersion | undefined;

  constructor(version: number, createdAtMs: number, createdBy: string, sealedKey: Uint8Array, sealedHmacKey: Uint8Array) {
    const at = reserve(10 + sealedKey.length + sealedHmacKey.length);
    slab.view.setFloat64(at, createdAtMs);
    slab.bytes[at + 8] = sealedKey.length;
    slab.bytes.set(sealedKey, at + 9);
    slab.bytes[at + 9 + sealedKey.length] = sealedHmacKey.length;
    slab.bytes.set(sealedHmacKey, at + 10 + sealedKey.length);
    this.#slab = slab;
    this.#at = at;
    this.#version = version;
    this.#createdBy = intern(createdBy);
  }

  get size(): number {
    return 1;
  }

  get version(): number {
    return this.#version;
  }

  get createdAtMs(): number {
    return this.#slab.view.getFloat64(this.#at);
  }

  get createdBy(): string {
    return this.#createdBy;
  }

  /** The sealed material, as views into the slab (never written). */
  material(): SealedMaterial {
    if (this.#cached) return this.#cached.material;
    const { bytes } = this.#slab;
    const k = this.#at + 8;
    const h = k + 1 + (bytes[k] as number);
    return { sealedKey: bytes.subarray(k + 1, h), sealedHmacKey: bytes.subarray(h + 1, h + 1 + (bytes[h] as number)) };
  }

  /** Hands the sealed key's, then the sealed HMAC key's bytes as ranges of the slab (no views made: a snapshot visits every key). */
  eachMaterial(out: (bytes: Uint8Array, from: number, to: number) => void): void {
    const { bytes } = this.#slab;
    const k = this.#at + 8;
    const h = k + 1 + (bytes[k] as number);
    out(bytes, k + 1, h);
    out(bytes, h + 1, h + 1 + (bytes[h] as number));
  }

  get(version: number): KeyVersion | undefined {
    if (version !== this.#version) return undefined;
    this.#cached ??= { version, material: this.material(), createdAt: new Date(this.createdAtMs).toISOString(), createdBy: this.#createdBy };
    return this.#cached;
  }

  has(version: number): boolean {
    return version === this.#version;
  }

  forEach(fn: (value: KeyVersion, key: number, map: ReadonlyMap<number, KeyVersion>) => void, thisArg?: unknown): void {
    fn.call(thisArg, this.get(this.#version) as KeyVersion, this.#version, this);
  }

  *entries(): MapIterator<[number, KeyVersion]> {
    yield [this.#version, this.get(this.#version) as KeyVersion];
  }

  *keys(): MapIterator<number> {
    yield this.#version;
  }

  *values(): MapIterator<KeyVersion> {
    yield this.get(this.#version) as KeyVersion;
  }

  [Symbol.iterator](): MapIterator<[number, KeyVersion]> {
    return this.entries();
  }
}

// Equal to a Map of the same entries (deep-equality checks, as uvu's, compare by `constructor`).
Object.defineProperty(OneVersion.prototype, "constructor", { value: Map, writable: true, configurable: true });

/**
 * The versions map of a key with the single version `v`: packed when its
 * parts fit (an exact millisecond time, material under 256 bytes each),
 * else a plain Map.
 */
export function versionsOf(v: KeyVersion): ReadonlyMap<number, KeyVersion> {
  const ms = exactMillis(v.createdAt);
  const { sealedKey, sealedHmacKey } = v.material;
  if (ms === undefined || sealedKey.length > 255 || sealedHmacKey.length > 255) {
    // Copies: the material may be a view into a whole decoded log or snapshot chunk.
    const material = { sealedKey: slabCopy(sealedKey), sealedHmacKey: slabCopy(sealedHmacKey) };
    return new Map([[v.version, { ...v, material, createdBy: intern(v.createdBy) }]]);
  }
  return new OneVersion(v.version, ms, v.createdBy, sealedKey, sealedHmacKey);
}
