// The minisign verifier of the crypto core (libsodium WebAssembly), loaded
// only by `mc update` when MC_UPDATE_MINISIGN_PUBKEY is set. The bundle builds
// this file as its own entry, dist/minisign.cjs (scripts/build.mjs).
export { initCrypto, parseMinisignPublicKey, verifyMinisign } from "@mc/wasm/minisign";
