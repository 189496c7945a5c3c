import type { StateCapture } from "../../domain/state-capture.js";
import type { Enclave, IdentityEntry, Key, KeyVersion, KmsState, Policy, Session } from "../../domain/state.js";
import { exactMillis, intern, OneVersion, slabCopy } from "../../domain/packed-version.js";
import { NamedMap } from "../../domain/sorted-names.js";
import type { Sink } from "./state-sink.js";

/**
 * Snapshot form of the state, version 3: binary records, so that a million
 * keys load in a few seconds, in slices of the sealed file as they are read
 * (version 2, a JSON line per record, took most of 10 µs per key to parse
 * and a whole decoded copy of the file in memory).
 *
 *   "kmsstat3" u64 appliedIndex
 *   record*    u8 kind, u32 length of the rest, then by kind:
 *     1 string   str                       (the next entry of a string table)
 *     2 session  str key, str target, str JSON(result)
 *     3 enclave  str name, str createdAt, ref createdBy   (its records follow)
 *     4 key      str name, ref algorithm, varint maxVersion, varint n, n x
 *                (varint version, time createdAt, ref createdBy, bytes sealedKey, bytes sealedHmacKey)
 *     5 policy   str JSON(policy)
 *     6 identity str JSON(identity, policies as a list)
 *   end        u8 255, u32 8, u64 number of records before it
 *
 * str = varint byte length, UTF-8; bytes = varint length, bytes; ref =
 * varint 0 then str, or varint i + 1 for string table entry i; time = u8 0
 * then f64 milliseconds (a time whose ISO form is exact), or u8 1 then str.
 * Every record is read to its exact length, an unknown kind or anything
 * after the end record is an error, and a body without its end record (or
 * with another count) does not decode: a damaged snapshot never loads as a
 * smaller state. Key material in it is already sealed under the root key;
 * the whole body is sealed again in the snapshot file.
 */
export const binaryMagic = Buffer.from("kmsstat3", "latin1");
const kind = { string: 1, session: 2, enclave: 3, key: 4, policy: 5, identity: 6, end: 255 } as const;
/** String table entries at most (creators of keys are few; the table must not grow with the keyspace). */
const tableMax = 65_536;

const isBinary = (data: Uint8Array): boolean => data.length >= 8 && binaryMagic.every((b, i) => data[i] === b);
export { isBinary as isBinaryState };

/** Writes the records of a capture to `sink`, yielding after each (the caller takes pieces and pauses there). */
export function* encodeRecords(c: StateCapture, sink: Sink): Generator<void> {
  const table = new Map<string, number>();
  let records = 0;
  /** Adds `s` to the table first (its own record) if it is new and the table has room. */
  const want = (s: string): void => {
    if (table.has(s) || table.size >= tableMax) return;
    table.set(s, table.size);
    sink.begin(kind.string);
    sink.str(s);
    sink.end();
    records++;
  };
  const ref = (s: string): void => {
    const i = table.get(s);
    if (i !== undefined) return sink.varint(i + 1);
    sink.varint(0);
    sink.str(s);
  };
  const time = (s: string, ms = exactMillis(s)): void => {
    if (ms === undefined) {
      sink.u8(1);
      sink.str(s);
    } else {
      sink.u8(0);
      sink.f64(ms);
    }
  };
  const json = (k: number, value: unknown): void => {
    sink.begin(k);
    sink.str(JSON.stringify(value));
    sink.end();
    records++;
  };
  const range = (b: Uint8Array, from: number, to: number): void => sink.range(b, from, to);
  const key = (k: Key): void => {
    want(k.algorithm);
    const packed = k.versions instanceof OneVersion ? k.versions : undefined;
    if (packed) want(packed.createdBy);
    else for (const v of k.versions.values()) want(v.createdBy);
    sink.begin(kind.key);
    sink.str(k.name);
    ref(k.algorithm);
    sink.varint(k.maxVersion);
    sink.varint(k.versions.size);
    if (packed) {
      // Straight from the slab: no version object is made (and kept) for a key nobody used, nor a view.
      sink.varint(packed.version);
      time("", packed.createdAtMs);
      ref(packed.createdBy);
      packed.eachMaterial(range);
    } else {
      for (const v of k.versions.values()) {
        sink.varint(v.version);
        time(v.createdAt);
        ref(v.createdBy);
        sink.bytes(v.material.sealedKey);
        sink.bytes(v.material.sealedHmacKey);
      }
    }
    sink.end();
    records++;
  };

  sink.u8(binaryMagic[0] as number);
  for (let i = 1; i < 8; i++) sink.u8(binaryMagic[i] as number);
  sink.u64(c.appliedIndex);
  for (const [k, s] of c.sessions) {
    sink.begin(kind.session);
    sink.str(k);
    sink.str(s.target);
    sink.str(JSON.stringify(s.result));
    sink.end();
    records++;
    yield;
  }
  for (const e of c.enclaves) {
    const { name, createdAt, createdBy } = e.enclave;
    want(createdBy);
    sink.begin(kind.enclave);
    sink.str(name);
    sink.str(createdAt);
    ref(createdBy);
    sink.end();
    records++;
    yield;
    for (const k of e.keys) {
      key(k);
      yield;
    }
    for (const p of e.policies) {
      json(kind.policy, { name: p.name, allow: p.allow, deny: p.deny, createdAt: p.createdAt, createdBy: p.createdBy });
      yield;
    }
    for (const i of e.identities) {
      json(kind.identity, { identity: i.identity, admin: i.admin, policies: [...i.policies], createdAt: i.createdAt, createdBy: i.createdBy });
      yield;
    }
  }
  sink.begin(kind.end);
  sink.u64(BigInt(records));
  sink.end();
}

/** Reads one record's fields; any read past its end throws. */
class Fields {
  constructor(
    readonly buf: Buffer,
    public at: number,
    readonly end: number,
  ) {}

  need(n: number): number {
    const at = this.at;
    if (at + n > this.end) throw new Error("a record is shorter than its fields");
    this.at += n;
    return at;
  }
  u8(): number {
    return this.buf[this.need(1)] as number;
  }
  f64(): number {
    return this.buf.readDoubleBE(this.need(8));
  }
  u64(): bigint {
    return this.buf.readBigUInt64BE(this.need(8));
  }
  varint(): number {
    let n = 0;
    for (let shift = 1; ; shift *= 0x80) {
      const b = this.u8();
      n += (b & 0x7f) * shift;
      if (b < 0x80) break;
      if (shift >= 0x10000000) throw new Error("a varint is too long");
    }
    return n;
  }
  str(): string {
    const n = this.varint();
    const at = this.need(n);
    return this.buf.toString("utf8", at, at + n);
  }
  /** A view into the record (copy it to keep it). */
  bytes(): Uint8Array {
    const n = this.varint();
    const at = this.need(n);
    return this.buf.subarray(at, at + n);
  }
  done(): void {
    if (this.at !== this.end) throw new Error("a record is longer than its fields");
  }
}

type JsonRecord<T> = { [K in keyof T]: T[K] extends ReadonlySet<string> ? string[] : T[K] };

/** Builds the state from the records of one body. */
function createRecordReader() {
  const table: string[] = [];
  const sessions = new Map<string, Session>();
  const enclaves = new Map<string, Enclave>();
  /** The enclave being read; its keys are indexed in one go when it ends (sorted-names.ts). */
  let current: { enclave: Omit<Enclave, "keys">; keys: Key[] } | undefined;
  const close = (): void => {
    if (!current) return;
    // Pairs made as the map takes them: a million kept until the end would outlive the young generation.
    const keys = new NamedMap((function* (list: Key[]) {
      for (const k of list) yield [k.name, k] as const;
    })(current.keys));
    if (keys.size !== current.keys.length) throw new Error(`enclave ${current.enclave.name} holds a key twice`);
    enclaves.set(current.enclave.name, { ...current.enclave, keys });
    current = undefined;
  };
  let records = 0;
  let ended = false;

  const ref = (f: Fields): string => {
    const i = f.varint();
    if (i === 0) return intern(f.str());
    const s = table[i - 1];
    if (s === undefined) throw new Error(`string table entry ${i - 1} is not defined`);
    return s;
  };
  const enclave = (): NonNullable<typeof current> => {
    if (!current) throw new Error("a record before any enclave");
    return current;
  };
  const keyOf = (f: Fields): Key => {
    const name = f.str();
    const algorithm = ref(f);
    const maxVersion = f.varint();
    const n = f.varint();
    const versions = new Map<number, KeyVersion>();
    for (let i = 0; i < n; i++) {
      const version = f.varint();
      const ms = f.u8() === 0 ? f.f64() : f.str();
      const createdBy = ref(f);
      const sealedKey = f.bytes();
      const sealedHmacKey = f.bytes();
      if (n === 1 && typeof ms === "number" && sealedKey.length < 256 && sealedHmacKey.length < 256) {
        return { name, algorithm, maxVersion, versions: new OneVersion(version, ms, createdBy, sealedKey, sealedHmacKey) };
      }
      const createdAt = typeof ms === "number" ? new Date(ms).toISOString() : ms;
      versions.set(version, { version, material: { sealedKey: slabCopy(sealedKey), sealedHmacKey: slabCopy(sealedHmacKey) }, createdAt, createdBy });
    }
    return { name, algorithm, maxVersion, versions };
  };

  return {
    read(k: number, f: Fields): void {
      if (ended) throw new Error("a record after the end record");
      if (k === kind.end) {
        const count = f.u64();
        if (count !== BigInt(records)) throw new Error(`the end record counts ${count} records, the state holds ${records}`);
        close();
        ended = true;
      } else if (k === kind.string) table.push(f.str());
      else if (k === kind.session) sessions.set(f.str(), { target: f.str(), result: JSON.parse(f.str()) as Session["result"] });
      else if (k === kind.enclave) {
        close();
        const e = { name: f.str(), createdAt: f.str(), createdBy: ref(f), policies: new Map<string, Policy>(), identities: new Map<string, IdentityEntry>() };
        if (enclaves.has(e.name)) throw new Error(`enclave ${e.name} appears twice`);
        current = { enclave: e, keys: [] };
      } else if (k === kind.key) {
        const key = keyOf(f);
        enclave().keys.push(key);
      } else if (k === kind.policy) {
        const p = JSON.parse(f.str()) as Policy;
        enclave().enclave.policies.set(p.name, p);
      } else if (k === kind.identity) {
        const i = JSON.parse(f.str()) as JsonRecord<IdentityEntry>;
        enclave().enclave.identities.set(i.identity, { ...i, policies: new Set(i.policies) });
      } else throw new Error(`unknown record kind ${k}`);
      f.done();
      if (k !== kind.end) records++;
    },
    finish(appliedIndex: bigint): KmsState {
      if (!ended) throw new Error("the state ends before its end record");
      return { enclaves, sessions, appliedIndex };
    },
  };
}

export interface StateDecoder {
  /** Decodes the records complete so far; `chunk` may be reused by the caller afterwards. */
  push(chunk: Uint8Array): void;
  /** The state, once the whole body was pushed. */
  end(): KmsState;
}

/** A version 3 body, decoded as it arrives in pieces of any size. */
export function createBinaryDecoder(): StateDecoder {
  const reader = createRecordReader();
  /** The start of a unit (the head, or a record) cut by the end of a piece. */
  let carry: Buffer = Buffer.alloc(0);
  let appliedIndex: bigint | undefined;
  /** Bytes of the unit starting at `at` in `buf` (as far as known from what is there). */
  const unitLength = (buf: Buffer, at: number): number => {
    if (appliedIndex === undefined) return 16;
    return at + 5 <= buf.length ? 5 + buf.readUInt32BE(at + 1) : 5;
  };
  /** Decodes the whole units of `buf` from `at`; returns where the first incomplete one starts. */
  const units = (buf: Buffer, from: number): number => {
    let at = from;
    for (let n = unitLength(buf, at); at + n <= buf.length; n = unitLength(buf, at)) {
      if (appliedIndex === undefined) {
        if (!isBinary(buf.subarray(at, at + 16))) throw new Error("not a version 3 state");
        appliedIndex = buf.readBigUInt64BE(at + 8);
      } else {
        reader.read(buf[at] as number, new Fields(buf, at + 5, at + n));
      }
      at += n;
    }
    return at;
  };
  return {
    push(chunk) {
      const piece = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      let at = 0;
      // Completes a cut unit with just the bytes it lacks (never a copy of the whole piece).
      while (carry.length > 0 && at < piece.length) {
        const take = Math.min(unitLength(carry, 0) - carry.length, piece.length - at);
        carry = Buffer.concat([carry, piece.subarray(at, at + take)]);
        at += take;
        if (units(carry, 0) === carry.length) carry = Buffer.alloc(0);
      }
      if (carry.length > 0) return;
      // Kept as a copy: the caller may reuse its chunk.
      carry = Buffer.from(piece.subarray(units(piece, at)));
    },
    end() {
      if (appliedIndex === undefined || carry.length > 0) throw new Error("the state is cut short");
      return reader.finish(appliedIndex);
    },
  };
}
