import { createHmac, hkdfSync, randomBytes } from "node:crypto";
import { deriveKey, open, seal } from "@mc/wasm";
import { checkValueLabel, clusterKeyLabel, HsmMismatchError, rootSeedLabel, wrapLabel, type Hsm } from "./hsm.js";

const prefix = "hsm:aes256:";
const wrapAd = new TextEncoder().encode(wrapLabel);

/** Parses `hsm:aes256:<std-base64 of 32 bytes>`; undefined when malformed. */
export function parseHsmKey(text: string): Uint8Array | undefined {
  if (!text.startsWith(prefix)) return undefined;
  const b64 = text.slice(prefix.length);
  if (!/^[A-Za-z0-9+/]{43}=$/.test(b64)) return undefined;
  return new Uint8Array(Buffer.from(b64, "base64"));
}

export function newHsmKey(): string {
  return prefix + randomBytes(32).toString("base64");
}

/** Contract §7: Argon2id, opslimit 3, memlimit 64 MiB, 16-byte salt. */
export function hsmKeyFromPassphrase(passphrase: string, salt: Uint8Array): Uint8Array {
  return deriveKey(passphrase, salt, { memoryKiB: 64 * 1024, iterations: 3, keyLength: 32 });
}

/** A software HSM: a 32-byte key held in memory (from a key string or a passphrase). */
export function createSoftwareHsm(key: Uint8Array, kind: "software" | "passphrase" = "software"): Hsm {
  const hsmKey = new Uint8Array(key);
  return {
    kind,
    wrap: (rootKey) => Promise.resolve(seal(hsmKey, rootKey, wrapAd)),
    unwrap(wrapped) {
      try {
        return Promise.resolve(open(hsmKey, wrapped, wrapAd));
      } catch {
        return Promise.reject(new HsmMismatchError());
      }
    },
    rootSeed: () => Promise.resolve(new Uint8Array(hkdfSync("sha256", hsmKey, new Uint8Array(0), rootSeedLabel, 32))),
    checkValue: () => Promise.resolve(new Uint8Array(createHmac("sha256", hsmKey).update(checkValueLabel).digest())),
    clusterRootKey: () => Promise.resolve(new Uint8Array(hkdfSync("sha256", hsmKey, new Uint8Array(0), clusterKeyLabel, 32))),
    close() {
      hsmKey.fill(0);
      return Promise.resolve();
    },
  };
}
