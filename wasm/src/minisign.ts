// `@mc/wasm/minisign`: the verifying half of minisign, what `mc update`
// needs to check a release signature (libsodium's Ed25519 and BLAKE2b, after
// initCrypto()). Signing and secret keys stay in the root entry.
export { initCrypto } from "./init-crypto.js";
export { parseMinisignPublicKey } from "./minisign-key.js";
export type { MinisignPublicKey } from "./minisign-key.js";
export { verifyMinisign } from "./minisign-verify.js";
export type { MinisignVerified, MinisignVerifyOptions } from "./minisign-verify.js";
