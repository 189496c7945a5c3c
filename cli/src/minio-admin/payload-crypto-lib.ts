// The admin payload crypto with libsodium's WebAssembly, loaded only by the
// commands that send or read encrypted admin bodies. The bundle builds this
// file as its own entry, dist/madmin-crypto.cjs (scripts/build.mjs).
export { initCrypto } from "@mc/wasm/admin-payload";
export { decryptData, encryptData } from "./payload-crypto.js";
