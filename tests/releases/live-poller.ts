// Polls one gateway as a user would (API, both feeds, the page, the platform
// download and its checksum) and checks that its answers never disagree.
import { createHash } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";

export interface Answer {
  readonly what: string;
  /** The release it names as latest. */
  readonly release: string;
  /** The `catalog-version` it was made from. */
  readonly version: string;
}

const idPattern = /RELEASE\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z/g;
const newest = (text: string): string => [...text.matchAll(idPattern)].map((m) => m[0]).sort().at(-1) ?? "";

async function get(url: string): Promise<{ text: string; bytes: Buffer; version: string }> {
  const res = await fetch(url);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${bytes.toString().slice(0, 200)}`);
  return { text: bytes.toString("latin1"), bytes, version: res.headers.get("catalog-version") ?? "" };
}

/** One poll round, requests one after the other, each reduced to the release it names. */
export async function pollRound(base: string, product: string, component: string): Promise<Answer[]> {
  const out: Answer[] = [];
  const latest = await get(`${base}/api/releases/${product}/latest`);
  out.push({ what: "api latest", release: (JSON.parse(latest.text) as Array<{ release_id: string }>)[0]?.release_id ?? "", version: latest.version });
  const list = await get(`${base}/api/releases/${product}?limit=1`);
  out.push({ what: "api list", release: (JSON.parse(list.text) as Array<{ release_id: string }>)[0]?.release_id ?? "", version: list.version });
  const json = await get(`${base}/api/feeds/${product}.json`);
  out.push({ what: "json feed", release: newest(json.text), version: json.version });
  const rss = await get(`${base}/feed-${product}.rss`);
  out.push({ what: "rss", release: newest(rss.text), version: rss.version });
  const page = await get(`${base}/${product}/releases`);
  out.push({ what: "page", release: newest(page.text), version: page.version });
  const sum = await get(`${base}/${product}/${component}/release/linux-amd64/${component}.sha256sum`);
  const bin = await get(`${base}/${product}/${component}/release/linux-amd64/${component}`);
  // sha256sum semantics: "<hex> <file>", the hash of the bytes, the file naming the release.
  const m = /^([0-9a-f]{64}) [ *]?(\S+)\n$/.exec(sum.text);
  const hashOk = m?.[1] === createHash("sha256").update(bin.bytes).digest("hex");
  const sumRelease = newest(m?.[2] ?? "");
  out.push({ what: "checksum", release: sumRelease, version: sum.version });
  // Published test binaries carry their id; the sample ones are known by their checksum.
  const binRelease = newest(bin.text) || (hashOk ? sumRelease : "unknown binary");
  const sameCatalog = sum.version !== "" && sum.version === bin.version;
  out.push({ what: hashOk || !sameCatalog ? "binary" : "binary (hash differs from the checksum)", release: binRelease, version: bin.version });
  return out;
}

export interface PollLog {
  readonly rounds: Array<{ at: number; answers: Answer[] }>;
  readonly problems: string[];
  /** When every answer of a round first named `release`. */
  firstSeen(release: string): number | undefined;
}

/**
 * Polls every `everyMs` until stopped, recording problems: answers of one
 * round that name different releases though made from one catalog version,
 * a round that goes back to an older release, a binary whose hash is not
 * its checksum.
 */
export function startPolling(base: string, product: string, component: string, everyMs = 20): { log: PollLog; stop: () => Promise<void> } {
  const rounds: PollLog["rounds"] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  let running = true;
  let highest = "";
  const loop = (async () => {
    while (running) {
      try {
        const answers = await pollRound(base, product, component);
        const at = Date.now();
        rounds.push({ at, answers });
        for (const a of answers) if (a.what.includes("differs")) problems.push(`${base}: ${a.what} for ${a.release}`);
        const byVersion = new Map<string, Set<string>>();
        for (const a of answers) byVersion.set(a.version, (byVersion.get(a.version) ?? new Set()).add(a.release));
        for (const [v, set] of byVersion) if (set.size > 1) problems.push(`${base}: catalog version '${v}' named ${[...set].join(" and ")}: ${JSON.stringify(answers)}`);
        let previous = highest;
        for (const a of answers) {
          if (a.release < previous) problems.push(`${base}: ${a.what} went back to ${a.release} after ${previous}: ${JSON.stringify(answers)}`);
          previous = a.release > previous ? a.release : previous;
        }
        highest = previous;
        const releases = new Set(answers.map((a) => a.release));
        const only = [...releases][0];
        if (releases.size === 1 && only !== undefined && !seen.has(only)) seen.set(only, at);
      } catch (err) {
        problems.push(`${base}: ${err instanceof Error ? err.message : String(err)}`);
      }
      await delay(everyMs);
    }
  })();
  return {
    log: { rounds, problems, firstSeen: (release) => seen.get(release) },
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
