import { sliceBudget } from "@mc/shared/node";
import { captureState, type StateCapture } from "../../domain/state-capture.js";
import type { Enclave, IdentityEntry, Key, KmsState, Policy, Session } from "../../domain/state.js";
import { NamedMap } from "../../domain/sorted-names.js";
import { addSession, sessionLines, type SessionLine } from "./session-codec.js";

/**
 * Snapshot form of the state, one JSON value per line (version 2), so that it
 * can be written and read in slices between which the event loop runs:
 *
 *   {"v":2,"appliedIndex":"<n>"}
 *   ["s",key,target,result]              the session table, oldest first
 *   ["e",{name,createdAt,createdBy}]     an enclave, then its records:
 *   ["k",KeyJson] ["p",PolicyJson] ["i",IdentityJson]
 *
 * Version 1 (still read) was the same records as one JSON document without
 * a newline. Key material in it is already sealed under the root key; the
 * whole snapshot is sealed again.
 */
interface KeyJson {
  name: string;
  algorithm: string;
  maxVersion: number;
  versions: { version: number; k: string; h: string; createdAt: string; createdBy: string }[];
}
interface PolicyJson {
  name: string;
  allow: string[];
  deny: string[];
  createdAt: string;
  createdBy: string;
}
interface IdentityJson {
  identity: string;
  admin: boolean;
  policies: string[];
  createdAt: string;
  createdBy: string;
}
interface EnclaveJson {
  name: string;
  createdAt: string;
  createdBy: string;
}
interface SnapshotJsonV1 {
  readonly v: 1;
  readonly appliedIndex: string;
  readonly sessions: unknown;
  readonly enclaves: (EnclaveJson & { keys: KeyJson[]; policies: PolicyJson[]; identities: IdentityJson[] })[];
}
type Line = SessionLine | ["e", EnclaveJson] | ["k", KeyJson] | ["p", PolicyJson] | ["i", IdentityJson];

// A view, not a copy: 200,000 small copies per snapshot are garbage for the collector.
const b64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
/**
 * Key material decoded into shared 64 KiB slabs, each key a view into one:
 * a separate ArrayBuffer per 73-byte sealed key costs more in bookkeeping
 * than the key itself (about 250 bytes of a key's memory, two per key; issue
 * 26's target is 1 KiB per key at a million keys). Views are never written.
 */
const slabBytes = 64 * 1024;
let slab = new Uint8Array(0);
let slabAt = 0;
function bytes(s: string): Uint8Array {
  const n = Buffer.byteLength(s, "base64");
  if (n > slabBytes / 4) return new Uint8Array(Buffer.from(s, "base64"));
  if (slabAt + n > slab.length) {
    slab = new Uint8Array(slabBytes);
    slabAt = 0;
  }
  const view = slab.subarray(slabAt, slabAt + n);
  const written = Buffer.from(view.buffer, view.byteOffset, n).write(s, "base64");
  slabAt += written;
  return written === n ? view : view.subarray(0, written);
}

/** The same identity string for every record it created (a million keys are usually created by a handful). */
const identities = new Map<string, string>();
function interned(id: string): string {
  const known = identities.get(id);
  if (known !== undefined) return known;
  if (identities.size < 10_000) identities.set(id, id);
  return id;
}

const keyJson = (k: Key): KeyJson => ({
  name: k.name,
  algorithm: k.algorithm,
  maxVersion: k.maxVersion,
  versions: Array.from(k.versions.values(), (v) => ({ version: v.version, k: b64(v.material.sealedKey), h: b64(v.material.sealedHmacKey), createdAt: v.createdAt, createdBy: v.createdBy })),
});
const policyJson = (p: Policy): PolicyJson => ({ name: p.name, allow: [...p.allow], deny: [...p.deny], createdAt: p.createdAt, createdBy: p.createdBy });
const identityJson = (i: IdentityEntry): IdentityJson => ({ identity: i.identity, admin: i.admin, policies: [...i.policies], createdAt: i.createdAt, createdBy: i.createdBy });

const keyOf = (k: KeyJson): Key => ({
  name: k.name,
  algorithm: k.algorithm,
  maxVersion: k.maxVersion,
  versions: new Map(k.versions.map((v) => [v.version, { version: v.version, material: { sealedKey: bytes(v.k), sealedHmacKey: bytes(v.h) }, createdAt: v.createdAt, createdBy: interned(v.createdBy) }])),
});
const policyOf = (p: PolicyJson): Policy => p;
const identityOf = (i: IdentityJson): IdentityEntry => ({ ...i, policies: new Set(i.policies) });
const enclaveOf = (e: EnclaveJson): Enclave => ({ name: e.name, createdAt: e.createdAt, createdBy: e.createdBy, keys: new NamedMap(), policies: new Map(), identities: new Map() });

function* lines(c: StateCapture): Generator<string> {
  yield JSON.stringify({ v: 2, appliedIndex: c.appliedIndex.toString() });
  for (const s of sessionLines(c.sessions)) yield JSON.stringify(s);
  for (const e of c.enclaves) {
    const { name, createdAt, createdBy } = e.enclave;
    yield JSON.stringify(["e", { name, createdAt, createdBy }]);
    for (const k of e.keys) yield JSON.stringify(["k", keyJson(k)]);
    for (const p of e.policies) yield JSON.stringify(["p", policyJson(p)]);
    for (const i of e.identities) yield JSON.stringify(["i", identityJson(i)]);
  }
}

/** The encoding in UTF-8 pieces of about `chars` characters, newline after every line. */
function* pieces(c: StateCapture, chars = 128 * 1024): Generator<Buffer> {
  let parts: string[] = [];
  let size = 0;
  for (const line of lines(c)) {
    parts.push(line, "\n");
    size += line.length + 1;
    if (size >= chars) {
      yield Buffer.from(parts.join(""), "utf8");
      parts = [];
      size = 0;
    }
  }
  if (parts.length > 0) yield Buffer.from(parts.join(""), "utf8");
}

/** Encodes the state at once (small states, tests, a new data directory). */
export function encodeState(state: KmsState): Uint8Array {
  return new Uint8Array(Buffer.concat([...pieces(captureState(state))]));
}

/**
 * Encodes a capture in slices of a few milliseconds, yielding to the event
 * loop between them: the same bytes as `encodeState` at the captured index.
 */
export async function encodeCapture(c: StateCapture): Promise<Uint8Array> {
  const budget = sliceBudget();
  const out: Buffer[] = [];
  let total = 0;
  for (const piece of pieces(c)) {
    out.push(piece);
    total += piece.length;
    await budget.pause();
  }
  // Joined in slices too: one copy of 40 MB alone takes tens of milliseconds.
  const data = new Uint8Array(total);
  let at = 0;
  for (const piece of out) {
    data.set(piece, at);
    at += piece.length;
    await budget.pause();
  }
  return data;
}

function decodeV1(text: string): KmsState {
  const json = JSON.parse(text) as SnapshotJsonV1;
  const enclaves = new Map<string, Enclave>();
  for (const e of json.enclaves) {
    enclaves.set(e.name, {
      ...enclaveOf(e),
      keys: new NamedMap(e.keys.map((k) => [k.name, keyOf(k)] as const)),
      policies: new Map(e.policies.map((p) => [p.name, policyOf(p)])),
      identities: new Map(e.identities.map((i) => [i.identity, identityOf(i)])),
    });
  }
  // Its sessions were per-proposer sequences, which nothing reads any more.
  return { enclaves, sessions: new Map(), appliedIndex: BigInt(json.appliedIndex) };
}

/** Decodes line by line, yielding after each (the caller decides when to pause). */
function* decode(data: Uint8Array): Generator<void, KmsState> {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  const next = (): string | undefined => {
    if (at >= buf.length) return undefined;
    const nl = buf.indexOf(10, at);
    const end = nl < 0 ? buf.length : nl;
    const line = buf.toString("utf8", at, end);
    at = end + 1;
    return line;
  };
  if (buf.indexOf(10) < 0) return decodeV1(buf.toString("utf8"));
  const head = JSON.parse(next() ?? "") as { v: number; appliedIndex: string };
  if (head.v !== 2) throw new Error(`unknown state version ${head.v}`);
  const sessions = new Map<string, Session>();
  const enclaves = new Map<string, Enclave>();
  let current: Enclave | undefined;
  for (let text = next(); text !== undefined; text = next()) {
    const line = JSON.parse(text) as Line;
    if (line[0] === "s") addSession(sessions, line);
    else if (line[0] === "e") {
      current = enclaveOf(line[1]);
      enclaves.set(current.name, current);
    } else if (!current) throw new Error("a record before any enclave");
    else if (line[0] === "k") current.keys.set(line[1].name, keyOf(line[1]));
    else if (line[0] === "p") current.policies.set(line[1].name, policyOf(line[1]));
    else if (line[0] === "i") current.identities.set(line[1].identity, identityOf(line[1]));
    else throw new Error("unknown record in the state");
    yield;
  }
  return { enclaves, sessions, appliedIndex: BigInt(head.appliedIndex) };
}

export function decodeState(data: Uint8Array): KmsState {
  const run = decode(data);
  for (let r = run.next(); ; r = run.next()) if (r.done) return r.value;
}

/** `decodeState` in slices that yield to the event loop (a follower restoring a large snapshot from its leader). */
export async function decodeStateSliced(data: Uint8Array): Promise<KmsState> {
  const budget = sliceBudget();
  const run = decode(data);
  for (let r = run.next(); ; r = run.next()) {
    if (r.done) return r.value;
    await budget.pause();
  }
}
