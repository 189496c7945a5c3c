import type { StateCapture } from "../../domain/state-capture.js";
import type { Key } from "../../domain/state.js";
import { exactMillis, OneVersion } from "../../domain/packed-version.js";
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
export const kind = { string: 1, session: 2, enclave: 3, key: 4, policy: 5, identity: 6, end: 255 } as const;
/** String table entries at most (creators of keys are few; the table must not grow with the keyspace). */
const tableMax = 65_536;

export const isBinaryState = (data: Uint8Array): boolean => data.length >= 8 && binaryMagic.every((b, i) => data[i] === b);

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
