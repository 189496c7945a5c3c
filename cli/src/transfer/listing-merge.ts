import { mcError } from "../core/errors.js";
import { displayUrl, requireStore, type Location } from "../storage/location.js";
import type { Entry } from "../storage/types.js";
import { compareKeys } from "../util/key-order.js";
import { dirPrefix } from "./plan.js";
import { readAhead } from "./read-ahead.js";

/** One object of a listing, its key relative to the listed folder. */
export interface Listed {
  readonly rel: string;
  readonly entry: Entry;
}

/** A relative key and what each side holds under it (one side at least). */
export interface Paired {
  readonly rel: string;
  readonly first?: Entry;
  readonly second?: Entry;
}

/**
 * The objects (not folders) below a location's folder, in key order. Every
 * store lists in key order; a listing that is not would make the merge below
 * wrong (a copy skipped, an object removed), so it is an error instead.
 */
export async function* objectsBelow(loc: Location): AsyncGenerator<Listed> {
  const store = requireStore(loc);
  const prefix = dirPrefix(loc.key);
  let held: Listed | undefined;
  // A page or two ahead: the other side's listing is fetched meanwhile.
  for await (const entry of readAhead(store.list(prefix, { recursive: true }), 1000)) {
    if (entry.isDir) continue;
    const next: Listed = { rel: entry.key.slice(prefix.length), entry };
    if (held) {
      const order = compareKeys(held.rel, next.rel);
      if (order > 0) throw mcError(`Unable to list \`${displayUrl(loc, prefix)}\`.`, new Error(`The listing is not in key order: \`${next.rel}\` came after \`${held.rel}\``), "internal");
      if (order < 0) yield held;
    }
    // A key listed twice counts once, as its last listing.
    held = next;
  }
  if (held) yield held;
}

/**
 * Two listings compared as sorted streams (a merge): memory holds a page of
 * each, never every key. Pairs come in key order, as sorting both did.
 */
export async function* mergeListings(a: AsyncIterable<Listed>, b: AsyncIterable<Listed>): AsyncGenerator<Paired> {
  const ia = a[Symbol.asyncIterator]();
  const ib = b[Symbol.asyncIterator]();
  try {
    let [x, y] = await Promise.all([ia.next(), ib.next()]);
    while (!x.done || !y.done) {
      const order = x.done ? 1 : y.done ? -1 : compareKeys(x.value.rel, y.value.rel);
      if (order < 0 && !x.done) {
        yield { rel: x.value.rel, first: x.value.entry };
        x = await ia.next();
      } else if (order > 0 && !y.done) {
        yield { rel: y.value.rel, second: y.value.entry };
        y = await ib.next();
      } else if (!x.done && !y.done) {
        yield { rel: x.value.rel, first: x.value.entry, second: y.value.entry };
        [x, y] = await Promise.all([ia.next(), ib.next()]);
      }
    }
  } finally {
    await Promise.all([ia.return?.(), ib.return?.()]);
  }
}

/** The objects below two locations, paired by relative key, in key order. */
export function compareListings(first: Location, second: Location): AsyncGenerator<Paired> {
  return mergeListings(objectsBelow(first), objectsBelow(second));
}
