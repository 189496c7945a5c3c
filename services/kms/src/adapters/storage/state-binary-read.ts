import type { Enclave, IdentityEntry, Key, KeyVersion, KmsState, Policy, Session } from "../../domain/state.js";
import { intern, OneVersion, slabCopy } from "../../domain/packed-version.js";
import { NamedMap } from "../../domain/sorted-names.js";
import { isBinaryState, kind } from "./state-binary.js";

// Reading version 3 of the state (its format: state-binary.ts), strictly: a
// record is read to its exact length, and the state exists only once its
// end record counted every record before it.

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
        if (!isBinaryState(buf.subarray(at, at + 16))) throw new Error("not a version 3 state");
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
