import { captureState, type StateCapture } from "../../domain/state-capture.js";
import { intern, slabCopy, versionsOf } from "../../domain/packed-version.js";
import type { Enclave, IdentityEntry, Key, KeyVersion, KmsState, Policy, Session } from "../../domain/state.js";
import { NamedMap } from "../../domain/sorted-names.js";
import { addSession, sessionLines, type SessionLine } from "./session-codec.js";

/**
 * The earlier snapshot forms of the state, still read (state-codec.ts picks
 * the decoder; new snapshots are version 3, state-binary.ts). Version 2 is
 * one JSON value per line:
 *
 *   {"v":2,"appliedIndex":"<n>"}
 *   ["s",key,target,result]              the session table, oldest first
 *   ["e",{name,createdAt,createdBy}]     an enclave, then its records:
 *   ["k",KeyJson] ["p",PolicyJson] ["i",IdentityJson]
 *
 * Version 1 was the same records as one JSON document without a newline.
 * Key material in them is already sealed under the root key; the whole
 * snapshot is sealed again. `encodeStateJson` writes version 2 for tests
 * that prove old snapshots still load.
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
const keyJson = (k: Key): KeyJson => ({
  name: k.name,
  algorithm: k.algorithm,
  maxVersion: k.maxVersion,
  versions: Array.from(k.versions.values(), (v) => ({ version: v.version, k: b64(v.material.sealedKey), h: b64(v.material.sealedHmacKey), createdAt: v.createdAt, createdBy: v.createdBy })),
});
const policyJson = (p: Policy): PolicyJson => ({ name: p.name, allow: [...p.allow], deny: [...p.deny], createdAt: p.createdAt, createdBy: p.createdBy });
const identityJson = (i: IdentityEntry): IdentityJson => ({ identity: i.identity, admin: i.admin, policies: [...i.policies], createdAt: i.createdAt, createdBy: i.createdBy });

const raw = (s: string): Uint8Array => Buffer.from(s, "base64");
const versionOf = (v: KeyJson["versions"][number], copy: (b: Uint8Array) => Uint8Array): KeyVersion => ({
  version: v.version,
  material: { sealedKey: copy(raw(v.k)), sealedHmacKey: copy(raw(v.h)) },
  createdAt: v.createdAt,
  createdBy: intern(v.createdBy),
});
const keyOf = (k: KeyJson): Key => ({
  name: k.name,
  algorithm: intern(k.algorithm),
  maxVersion: k.maxVersion,
  // One version (almost every key) is packed into a shared slab (packed-version.ts), which copies it there.
  versions: k.versions.length === 1 ? versionsOf(versionOf(k.versions[0] as KeyJson["versions"][number], (b) => b)) : new Map(k.versions.map((v) => [v.version, versionOf(v, slabCopy)])),
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

/** Version 2 of the state (tests: old snapshots must still load). */
export function encodeStateJson(state: KmsState): Uint8Array {
  return new Uint8Array(Buffer.concat([...pieces(captureState(state))]));
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
export function* decodeJson(data: Uint8Array): Generator<void, KmsState> {
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
