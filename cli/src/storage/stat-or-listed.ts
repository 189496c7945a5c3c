import { compareKeys } from "../util/key-order.js";
import type { Entry, Store } from "./types.js";

/**
 * An object's facts for a decision that needs no key (does it exist, how old
 * is it): its HEAD, or, when the HEAD itself fails (an SSE-C object answers
 * 400 to a HEAD without its key), its listing entry. Undefined when absent.
 */
export async function statOrListed(store: Store, key: string): Promise<Entry | undefined> {
  try {
    return await store.stat(key);
  } catch (err) {
    for await (const e of store.list(key, { recursive: true })) {
      if (e.key === key) return e;
      if (compareKeys(e.key, key) > 0) break;
    }
    throw err;
  }
}
