import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createMemorySink } from "../../testing/memory-sink.js";
import { apply } from "./apply.js";
import { identityOfHash } from "./identity.js";
import { createKms } from "./kms.js";
import { pageOf, pageOfSorted } from "./names.js";
import { createSortedNames, NamedMap } from "./sorted-names.js";
import { createEmptyState, type Key } from "./state.js";

const list = suite("key list from a sorted index (issue 26)");
const root = identityOfHash(new Uint8Array(32).fill(1));
const caller = { identity: root, enclave: "default", path: "/v1/key/list/*", route: "/v1/key/list/:name", params: {} };

/** A deterministic shuffle of names with shared prefixes, `-` and `_` (they sort among the digits and letters). */
function names(n: number): string[] {
  const out: string[] = [];
  let seed = 7;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const kind = seed % 4;
    out.push(kind === 0 ? `app-${seed % 997}` : kind === 1 ? `app_${i}` : kind === 2 ? `B${seed % 89}x` : `tenant-${i % 50}-key-${seed % 13}`);
  }
  return out;
}

list("should page exactly as the whole-list sort did, across inserts, deletes and every cursor", () => {
  const index = createSortedNames();
  const present = new Set<string>();
  const all = names(4000);
  all.forEach((n, i) => {
    index.add(n);
    present.add(n);
    // Every 3rd name added deletes an earlier one: chunks split and empty out.
    const gone = all[Math.floor(i / 3)];
    if (i % 3 === 0 && gone !== undefined) {
      index.delete(gone);
      present.delete(gone);
    }
  });
  assert.is(index.size, present.size);
  for (const pattern of ["*", "app-*", "app*", "tenant-1*", "B1*", "zzz*", "app-5", "a*b", "tenant-13-key-2"]) {
    for (const continueAt of ["", "app-4", "app_2", "B", "tenant-2", "~"]) {
      for (const limit of [0, 1, 7, 100, 5000]) {
        assert.equal(pageOfSorted(index, pattern, continueAt, limit), pageOf(present, pattern, continueAt, limit), `${pattern} ${continueAt} ${limit}`);
      }
    }
  }
  // Walking a prefix by continue_at visits each name once, in order.
  const walked: string[] = [];
  for (let at = "", first = true; first || at !== ""; first = false) {
    const page = pageOfSorted(index, "app-*", at, 33);
    walked.push(...page.items);
    at = page.continueAt;
  }
  assert.equal(walked, [...present].filter((n) => n.startsWith("app-")).sort());
});

/** An enclave's keys that refuse to be walked whole: a list page must come from the sorted index alone. */
class UnwalkableKeys extends NamedMap<Key> {
  override keys(): MapIterator<string> {
    throw new Error("the whole keyspace was walked for one page");
  }
  override [Symbol.iterator](): MapIterator<[string, Key]> {
    throw new Error("the whole keyspace was walked for one page");
  }
}

list("should answer a page of a large enclave without walking its keys", async () => {
  const state = createEmptyState();
  const meta = { requestId: "", issuedAt: "2026-01-01T00:00:00Z", issuedBy: root };
  apply(state, { ...meta, payload: { kind: "createEnclave", name: "default" } });
  const enclave = state.enclaves.get("default");
  if (!enclave) throw new Error("no enclave");
  state.enclaves.set("default", { ...enclave, keys: new UnwalkableKeys() });
  const material = { sealedKey: new Uint8Array(1), sealedHmacKey: new Uint8Array(1) };
  for (let i = 0; i < 20000; i++) {
    apply(state, { ...meta, payload: { kind: "createKey", enclave: "default", name: `tenant-${String(i).padStart(5, "0")}`, algorithm: "A", material } });
  }
  const kms = createKms({ state: () => state, sink: createMemorySink(state, () => "2026-01-01T00:00:00Z"), crypto: undefined as never, rootIdentity: root });
  const page = kms.keys.list(caller, "tenant-1*", "tenant-12345", 3);
  assert.equal(page, { items: ["tenant-12345", "tenant-12346", "tenant-12347"], continueAt: "tenant-12348" });
  const slices = [...kms.keys.names(caller, "tenant-1999*", "", 4)];
  assert.equal(slices.map((s) => s.length), [4, 4, 2]);
  assert.is(slices.flat().at(-1), "tenant-19999");
});

list.run();
