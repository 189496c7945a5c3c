// The face for MinIO's admin payload encryption in `mc` (issue 24): the
// primitives madmin's EncryptData/DecryptData combine, and nothing else of
// the crypto core, so mc's lazily loaded part stays small.
export { initCrypto } from "./init-crypto.js";
export { chacha20poly1305Decrypt, chacha20poly1305Encrypt, decryptionFailed } from "./aead.js";
export { aes256gcmDecrypt, aes256gcmEncrypt, pbkdf2Sha256 } from "./aes-gcm.js";
export { argon2idLanes } from "./argon2id-lanes.js";
