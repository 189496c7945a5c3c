import type { Identity } from "./identity.js";
import type { NamedMap } from "./sorted-names.js";

/** Key material of one version, sealed under the root encryption key. */
export interface SealedMaterial {
  readonly sealedKey: Uint8Array;
  readonly sealedHmacKey: Uint8Array;
}

export interface KeyVersion {
  readonly version: number;
  readonly material: SealedMaterial;
  readonly createdAt: string;
  readonly createdBy: Identity;
}

// Keys, policies and identities are immutable values: a command that changes
// one replaces it in its enclave's map with a new object. A snapshot then
// captures the state by copying the maps alone (no deep copy) and encodes
// that capture bit by bit while later commands go on being applied.

export interface Key {
  readonly name: string;
  readonly algorithm: string;
  /** Highest version number ever assigned; never reused after deletes. */
  readonly maxVersion: number;
  /** Existing versions by number. */
  readonly versions: ReadonlyMap<number, KeyVersion>;
}

export interface Policy {
  readonly name: string;
  readonly allow: readonly string[];
  readonly deny: readonly string[];
  readonly createdAt: string;
  readonly createdBy: Identity;
}

export interface IdentityEntry {
  readonly identity: Identity;
  readonly admin: boolean;
  /** Assigned policy names. */
  readonly policies: ReadonlySet<string>;
  readonly createdAt: string;
  readonly createdBy: Identity;
}

export interface Enclave {
  readonly name: string;
  readonly createdAt: string;
  readonly createdBy: Identity;
  /** Keys by name, the names also kept sorted so a list page costs the page. */
  readonly keys: NamedMap<Key>;
  readonly policies: Map<string, Policy>;
  readonly identities: Map<Identity, IdentityEntry>;
}

/** The first outcome of one write, remembered under its caller and request id. */
export interface Session {
  /** What the write was about (kind, enclave, name): a reused id for another write is refused. */
  readonly target: string;
  readonly result: ApplyResult;
}

/** The replicated KMS state: everything commands build, nothing else. */
export interface KmsState {
  readonly enclaves: Map<string, Enclave>;
  /** Recent writes by caller and request id, oldest first (bounded; see sessions.ts). */
  readonly sessions: Map<string, Session>;
  /** Number of commands applied (the log index of the last one). */
  appliedIndex: bigint;
}

export type ApplyResult =
  | { readonly ok: true; readonly version?: number }
  | { readonly ok: false; readonly reason: "not_found" | "already_exists" | "invalid_argument"; readonly message: string };

export function createEmptyState(): KmsState {
  return { enclaves: new Map(), sessions: new Map(), appliedIndex: 0n };
}
