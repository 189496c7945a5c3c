import type { RestResponse } from "@mc/shared/rest";

/** A list's answer: one page in memory, or (a long unlimited list) the rest still to walk. */
export type ListResult = { readonly kind: "page"; readonly names: readonly string[]; readonly continueAt: string } | { readonly kind: "walk"; readonly first: readonly string[]; readonly rest: Iterator<string[]> };

/**
 * An unlimited list (no `limit`) as it comes from the walk: the first slice
 * that holds every name answers as one page, as before; a longer list is
 * streamed, slice after slice, so a million names never sit in one array or
 * one string (contract §4: `{"names":[…],"continue_at":""}`, the same bytes).
 */
export function listResult(slices: Iterable<string[]>, slice: number): ListResult {
  const rest = slices[Symbol.iterator]();
  const first = rest.next();
  if (first.done) return { kind: "page", names: [], continueAt: "" };
  if (first.value.length < slice) {
    const second = rest.next();
    if (second.done) return { kind: "page", names: first.value, continueAt: "" };
    return { kind: "walk", first: [...first.value, ...second.value], rest };
  }
  return { kind: "walk", first: first.value, rest };
}

/** Every name of the result (the Connect answer: one message). */
export function allNames(r: ListResult): string[] {
  if (r.kind === "page") return [...r.names];
  const out = [...r.first];
  for (let s = r.rest.next(); !s.done; s = r.rest.next()) out.push(...s.value);
  return out;
}

async function* jsonChunks(r: Extract<ListResult, { kind: "walk" }>): AsyncGenerator<Uint8Array> {
  const enc = new TextEncoder();
  // Names are validated ASCII, but JSON.stringify writes each exactly as the one-body answer would.
  yield enc.encode(`{"names":[${r.first.map((n) => JSON.stringify(n)).join(",")}`);
  for (let s = r.rest.next(); !s.done; s = r.rest.next()) {
    if (s.value.length > 0) yield enc.encode(`,${s.value.map((n) => JSON.stringify(n)).join(",")}`);
  }
  yield enc.encode(`],"continue_at":""}`);
}

/** The REST answer of a walk (a page goes through the message's JSON instead). */
export function streamedList(r: Extract<ListResult, { kind: "walk" }>): RestResponse {
  return { headers: { "content-type": "application/json" }, stream: jsonChunks(r) };
}
