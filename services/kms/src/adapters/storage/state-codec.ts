import type { ApplyResult, Enclave, KmsState } from "../../domain/state.js";

/**
 * Snapshot form of the state: plain JSON with base64 bytes. Key material in
 * it is already sealed under the root key; the whole snapshot is sealed again.
 */
interface SnapshotJson {
  readonly v: 1;
  readonly appliedIndex: string;
  /** Written by earlier versions (a per-proposer sequence); read as nothing. */
  readonly sessions?: unknown;
  /** The session table, oldest first: [caller and request id, target, first outcome]. */
  readonly requests?: [string, string, ApplyResult][];
  readonly enclaves: {
    name: string;
    createdAt: string;
    createdBy: string;
    keys: { name: string; algorithm: string; maxVersion: number; versions: { version: number; k: string; h: string; createdAt: string; createdBy: string }[] }[];
    policies: { name: string; allow: string[]; deny: string[]; createdAt: string; createdBy: string }[];
    identities: { identity: string; admin: boolean; policies: string[]; createdAt: string; createdBy: string }[];
  }[];
}

const b64 = (b: Uint8Array): string => Buffer.from(b).toString("base64");
const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "base64"));

export function encodeState(state: KmsState): Uint8Array {
  const json: SnapshotJson = {
    v: 1,
    appliedIndex: state.appliedIndex.toString(),
    requests: [...state.sessions].map(([key, s]) => [key, s.target, s.result]),
    enclaves: [...state.enclaves.values()].map((e) => ({
      name: e.name,
      createdAt: e.createdAt,
      createdBy: e.createdBy,
      keys: [...e.keys.values()].map((k) => ({
        name: k.name,
        algorithm: k.algorithm,
        maxVersion: k.maxVersion,
        versions: [...k.versions.values()].map((v) => ({ version: v.version, k: b64(v.material.sealedKey), h: b64(v.material.sealedHmacKey), createdAt: v.createdAt, createdBy: v.createdBy })),
      })),
      policies: [...e.policies.values()].map((p) => ({ ...p, allow: [...p.allow], deny: [...p.deny] })),
      identities: [...e.identities.values()].map((i) => ({ ...i, policies: [...i.policies] })),
    })),
  };
  return new TextEncoder().encode(JSON.stringify(json));
}

export function decodeState(data: Uint8Array): KmsState {
  const json = JSON.parse(new TextDecoder().decode(data)) as SnapshotJson;
  const enclaves = new Map<string, Enclave>();
  for (const e of json.enclaves) {
    enclaves.set(e.name, {
      name: e.name,
      createdAt: e.createdAt,
      createdBy: e.createdBy,
      keys: new Map(e.keys.map((k) => [k.name, {
        name: k.name,
        algorithm: k.algorithm,
        maxVersion: k.maxVersion,
        versions: new Map(k.versions.map((v) => [v.version, { version: v.version, material: { sealedKey: bytes(v.k), sealedHmacKey: bytes(v.h) }, createdAt: v.createdAt, createdBy: v.createdBy }])),
      }])),
      policies: new Map(e.policies.map((p) => [p.name, p])),
      identities: new Map(e.identities.map((i) => [i.identity, { ...i, policies: new Set(i.policies) }])),
    });
  }
  return {
    enclaves,
    sessions: new Map((json.requests ?? []).map(([key, target, result]) => [key, { target, result }])),
    appliedIndex: BigInt(json.appliedIndex),
  };
}
