/**
 * Heal result records (madmin `HealResultItem`) and how upstream mc shows
 * them (cmd/admin-heal-result-item.go, cmd/admin-heal-ui.go): health colours
 * before and after, counts of drive states, the quiet and JSON lines. Pure.
 */
export interface HealDrive {
  readonly uuid: string;
  readonly endpoint: string;
  readonly state: string;
}

export interface HealItem {
  readonly resultId: number;
  readonly type: string;
  readonly bucket: string;
  readonly object: string;
  readonly versionId?: string;
  readonly detail: string;
  readonly parityBlocks?: number;
  readonly dataBlocks?: number;
  readonly diskCount: number;
  readonly setCount: number;
  readonly before: { readonly drives: readonly HealDrive[] | null };
  readonly after: { readonly drives: readonly HealDrive[] | null };
  readonly objectSize: number;
}

export interface HealTaskStatus {
  readonly summary: string;
  readonly detail: string;
  readonly startTime: string;
  readonly settings: unknown;
  readonly items?: readonly HealItem[] | null;
}

type Col = "Green" | "Yellow" | "Red" | "Grey";
const order: readonly Col[] = ["Red", "Yellow", "Green"];
const table: Readonly<Record<number, readonly number[]>> = { 1: [0, -1, 1], 2: [0, 1, 2], 3: [1, 2, 3], 4: [1, 2, 4], 5: [1, 3, 5], 6: [2, 4, 6], 7: [2, 4, 7], 8: [2, 5, 8] };

/** upstream `getHColCode`. */
export function healColour(surplus: number, parity: number): Col {
  if (parity < 1 || parity > 8 || surplus > parity) throw new Error("Invalid parity shard count/surplus shard count given");
  if (surplus < 0) return "Grey";
  const row = table[parity] ?? [];
  for (const [i, v] of row.entries()) if (v !== -1 && surplus <= v) return order[i] ?? "Grey";
  throw new Error("cannot get a heal color code");
}

const count = (drives: readonly HealDrive[] | null, state: string): number => (drives ?? []).filter((d) => d.state === state).length;
const counts = (h: HealItem, state: string): [number, number] => [count(h.before.drives, state), count(h.after.drives, state)];

/** Before and after colours: objects by their shards, metadata and buckets as replicated files. */
export function healColours(h: HealItem): [Col, Col] {
  const [b, a] = counts(h, "ok");
  if (h.type === "metadata" || h.type === "bucket") {
    const quorum = Math.trunc(Math.trunc(h.diskCount / h.setCount) / 2) + 1;
    const parity = Math.trunc(h.diskCount / h.setCount) - quorum;
    const c = (n: number): Col => healColour(Math.trunc(n / h.setCount) - quorum, parity);
    return [c(b), c(a)];
  }
  const data = h.dataBlocks ?? 0;
  const parity = h.parityBlocks ?? 0;
  return [healColour(b - data, parity), healColour(a - data, parity)];
}

/** upstream `getHRTypeAndName`. */
export function healTypeAndName(h: HealItem): [string, string] {
  const name = `${h.bucket}/${h.object}`;
  switch (h.type) {
    case "metadata":
      return ["system", h.detail];
    case "bucket-metadata":
      return ["system", `bucket-metadata:${name}`];
    case "bucket":
      return ["bucket", name];
    case "object":
      return ["object", name];
    default:
      return [`!! Unknown heal result record ${h.type} !!`, `!! Unknown heal result record ${h.type} !!`];
  }
}

/** upstream `printItemsQuietly`, one item: `[Green  ->  Green] bucket/object`. */
export function healItemText(h: HealItem): string {
  const [b, a] = healColours(h);
  const [typ, name] = healTypeAndName(h);
  const head = `[${b.padEnd(6)} -> ${a.padStart(6)}] `;
  return h.type === "metadata" || h.type === "bucket-metadata" ? `${head}** ${typ}:${name} **` : `${head}${name}`;
}

/** upstream `printItemsJSON`, one item. */
export function healItemJson(h: HealItem): Record<string, unknown> {
  const [b, a] = healColours(h);
  const [type, name] = healTypeAndName(h);
  const side = (col: Col, which: 0 | 1, drives: readonly HealDrive[] | null): Record<string, unknown> => ({
    color: col.toLowerCase(),
    offline: counts(h, "offline")[which],
    online: counts(h, "ok")[which],
    missing: counts(h, "missing")[which],
    corrupted: counts(h, "corrupt")[which],
    drives,
  });
  return { status: "success", type, name, before: side(b, 0, h.before.drives), after: side(a, 1, h.after.drives), size: h.type === "object" ? h.objectSize : 0 };
}

/** The running totals upstream's UI keeps (`uiData.updateStats`). */
export interface HealStats {
  bytesScanned: number;
  objectsScanned: number;
  itemsScanned: number;
  objectsHealed: number;
  itemsHealed: number;
}

export function addHealStats(s: HealStats, h: HealItem): void {
  if (h.type === "object") {
    if (h.objectSize >= 0) s.bytesScanned += h.objectSize;
    s.objectsScanned++;
  }
  s.itemsScanned++;
  const [b, a] = counts(h, "ok");
  if (a > b) {
    if (h.type === "object") s.objectsHealed++;
    s.itemsHealed++;
  }
}

/** upstream `getProgress`'s size: whole units, `N B` up to 1 KiB. */
export function healSize(bytes: number): string {
  const magnitudes = [2 ** 10, 2 ** 20, 2 ** 30, 2 ** 40, 2 ** 50, 2 ** 60];
  const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
  let i = 0;
  while (i < magnitudes.length && bytes > (magnitudes[i] ?? 0)) i++;
  return `${Math.trunc((bytes * 1024) / (magnitudes[i] ?? 2 ** 70))} ${units[i] ?? "EiB"}`;
}
