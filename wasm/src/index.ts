export { initCrypto, isCryptoReady } from "./init-crypto.js";
export { generateKey, generateNonce, keyLength, nonceLength, secretRandom } from "./random.js";
export {
  chacha20poly1305Decrypt,
  chacha20poly1305Encrypt,
  chachaNonceLength,
  tagLength,
  xchacha20poly1305Decrypt,
  xchacha20poly1305Encrypt,
} from "./aead.js";
export { envelopeFormatV1, envelopeOverhead, open, seal } from "./seal.js";
export {
  ed25519KeyPairFromSeed,
  ed25519PublicKeyLength,
  ed25519SecretKeyLength,
  ed25519SeedLength,
  ed25519Sign,
  ed25519SignatureLength,
  ed25519Verify,
} from "./ed25519.js";
export type { Ed25519KeyPair } from "./ed25519.js";
export { blake2b, sha256, sha512 } from "./hash.js";
export { argon2idMaxMemoryKiB, argon2idSaltLength, deriveKey, verifyArgon2idString } from "./derive-key.js";
export { argon2idLanes } from "./argon2id-lanes.js";
export type { Argon2idLanesParams } from "./argon2id-lanes.js";
export { aes256gcmDecrypt, aes256gcmEncrypt, gcmNonceLength, pbkdf2Sha256 } from "./aes-gcm.js";
export type { Argon2idParams } from "./derive-key.js";
export { constantTimeEqual, zeroize } from "./secret-bytes.js";
export { minisignKeyIdHex } from "./minisign-encoding.js";
export type { MinisignFailure } from "./minisign-encoding.js";
export {
  createMinisignKeyPair,
  formatMinisignPublicKey,
  minisignPublicKeyLine,
  minisignPublicKeyOf,
  parseMinisignPublicKey,
} from "./minisign-key.js";
export type { MinisignPublicKey, MinisignSecretKey } from "./minisign-key.js";
export { formatMinisignSecretKey, parseMinisignSecretKey } from "./minisign-secret-key.js";
export {
  decryptMinisignSecretKey,
  encryptMinisignSecretKey,
  minisignSensitiveLimits,
} from "./minisign-key-encryption.js";
export type { MinisignKdfLimits } from "./minisign-key-encryption.js";
export { maxTrustedCommentBytes, signMinisign } from "./minisign-sign.js";
export type { MinisignSignOptions } from "./minisign-sign.js";
export { verifyMinisign } from "./minisign-verify.js";
export type { MinisignVerified, MinisignVerifyOptions } from "./minisign-verify.js";
