import sodium from "libsodium-wrappers-sumo";
import { AppError } from "@mc/shared/errors";

/** The loaded libsodium module; the type of its default export. */
export type Sodium = typeof sodium;

let readyPromise: Promise<void> | undefined;
let loaded = false;

/**
 * Loads libsodium's WebAssembly once. Every libsodium-backed function of this
 * package throws until this has resolved, so callers await it once at start-up
 * (composition root or test `before` hook) and then use plain synchronous calls.
 */
export function initCrypto(): Promise<void> {
  readyPromise ??= sodium.ready.then(() => {
    loaded = true;
  });
  return readyPromise;
}

/** True once `initCrypto()` has resolved. */
export function isCryptoReady(): boolean {
  return loaded;
}

/**
 * The initialised module, for this package's own files. Throwing here (rather
 * than letting libsodium fail on an unloaded heap) gives one clear error for
 * the one mistake of forgetting `initCrypto()`.
 */
export function lib(): Sodium {
  if (!loaded) throw new AppError("failed_precondition", "crypto core not initialised: await initCrypto() first");
  return sodium;
}
