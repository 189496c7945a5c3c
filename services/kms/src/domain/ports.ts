import type { ApplyResult, KmsState, SealedMaterial } from "./state.js";
import type { Identity } from "./identity.js";
import type { Payload } from "./command.js";
import type { AuthLease } from "./auth-lease.js";

/**
 * Crypto the use cases need, implemented by an adapter on the crypto core.
 * `seal`/`unseal` protect key material under the HSM-unsealed root key.
 */
export interface KmsCrypto {
  random(length: number): Uint8Array;
  aeadEncrypt(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, ad: Uint8Array): Uint8Array;
  /** Throws the contract's "not authentic" error on any failure. */
  aeadDecrypt(key: Uint8Array, nonce: Uint8Array, ciphertext: Uint8Array, ad: Uint8Array): Uint8Array;
  hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array;
  seal(plaintext: Uint8Array): Uint8Array;
  unseal(sealed: Uint8Array): Uint8Array;
}

/**
 * Where writes go: the local durable log on a single node, the Raft leader
 * later. Resolves once the command is durable and applied to `state()`.
 */
export interface CommandSink {
  /** `requestId` names the write across retries ("" or absent: the sink may draw one). */
  propose(payload: Payload, issuedBy: Identity, requestId?: string): Promise<ApplyResult>;
}

export interface KmsDeps {
  readonly state: () => KmsState;
  readonly sink: CommandSink;
  readonly crypto: KmsCrypto;
  readonly rootIdentity: Identity;
  /** Cluster mode: keeps revocations in force on every node at once (auth-lease.ts). */
  readonly lease?: AuthLease;
}

export type { SealedMaterial };
