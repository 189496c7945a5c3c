import type { Identity } from "./identity.js";
import type { SealedMaterial } from "./state.js";

/**
 * A state change with the metadata apply needs (mirrors kms.v1.Command; the
 * adapter converts). Everything apply uses is inside: no clock, randomness
 * or HSM access happens while applying.
 */
export interface Command {
  /** Names the write across retries ("" for none); see sessions.ts. */
  readonly requestId: string;
  readonly issuedAt: string;
  readonly issuedBy: Identity;
  readonly payload: Payload;
}

export type Payload =
  | { readonly kind: "createKey"; readonly enclave: string; readonly name: string; readonly algorithm: string; readonly material: SealedMaterial }
  | { readonly kind: "addKeyVersion"; readonly enclave: string; readonly name: string; readonly material: SealedMaterial }
  | { readonly kind: "importKey"; readonly enclave: string; readonly name: string; readonly algorithm: string; readonly material: SealedMaterial }
  | { readonly kind: "deleteKey"; readonly enclave: string; readonly name: string }
  | { readonly kind: "deleteKeyVersion"; readonly enclave: string; readonly name: string; readonly version: number }
  | { readonly kind: "createEnclave"; readonly name: string }
  | { readonly kind: "deleteEnclave"; readonly name: string }
  | { readonly kind: "createPolicy"; readonly enclave: string; readonly name: string; readonly allow: readonly string[]; readonly deny: readonly string[] }
  | { readonly kind: "assignPolicy"; readonly enclave: string; readonly name: string; readonly identity: Identity }
  | { readonly kind: "unassignPolicy"; readonly enclave: string; readonly name: string; readonly identity: Identity }
  | { readonly kind: "deletePolicy"; readonly enclave: string; readonly name: string }
  | { readonly kind: "createIdentity"; readonly enclave: string; readonly identity: Identity; readonly admin: boolean; readonly policy: string }
  | { readonly kind: "deleteIdentity"; readonly enclave: string; readonly identity: Identity };
