/**
 * The HSM port: it protects the root encryption key (wrap/unwrap) and
 * derives the root API key seed and the configuration check value, without
 * ever handing out its own key.
 */
export interface Hsm {
  readonly kind: "software" | "passphrase" | "pkcs11";
  wrap(rootKey: Uint8Array): Promise<Uint8Array>;
  /** Throws HsmMismatchError when the wrapped key was made by another HSM key. */
  unwrap(wrapped: Uint8Array): Promise<Uint8Array>;
  /** 32-byte Ed25519 seed of the root API key (contract §2). */
  rootSeed(): Promise<Uint8Array>;
  /** HMAC-SHA256 of the HSM key over a fixed label: comparable, never secret. */
  checkValue(): Promise<Uint8Array>;
  /**
   * The root encryption key of a cluster: derived from the HSM key, so every
   * node with the same HSM holds the same one (key material sealed by one
   * node opens on the others). Not derivable from the root API key.
   */
  clusterRootKey(): Promise<Uint8Array>;
  close(): Promise<void>;
}

export class HsmMismatchError extends Error {
  constructor() {
    super("HSM key does not match the data directory");
  }
}

export const rootSeedLabel = "kms:root-api-key:v1";
export const checkValueLabel = "kms:hsm-check:v1";
export const clusterKeyLabel = "kms:cluster-root-key:v1";
export const wrapLabel = "kms:root-key:v1";
