// Polls one gateway as a user would (API, both feeds, the page, the platform
// index, the platform download with its checksum and signature) every 20 ms
// and checks that its answers never disagree: at every instant one gateway
// names one release.
import { createHash } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";

export interface Answer {
  readonly what: string;
  /** The release it names as latest. */
  readonly release: string;
  /** The `catalog-version` it was made from ("" when the answer has none). */
  readonly version: string;
  /** When the request was sent and when its answer had fully arrived (ms). */
  readonly sent: number;
  readonly done: number;
}

// With its hotfix suffix: the embedded default's newest mc is a hotfix (the checkout's own build).
const idPattern = /RELEASE\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z(?:\.hotfix\.[0-9a-f]+)?/g;
const newest = (text: string): string => [...text.matchAll(idPattern)].map((m) => m[0]).sort().at(-1) ?? "";
const sha256 = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

interface Got {
  readonly text: string;
  readonly bytes: Buffer;
  readonly version: string;
  readonly sent: number;
  readonly done: number;
}

async function get(url: string, accept?: string): Promise<Got> {
  const sent = performance.now();
  // A request that never ends is a problem to report, not a test that hangs.
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000), ...(accept ? { headers: { accept } } : {}) });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${bytes.toString().slice(0, 200)}`);
  return { text: bytes.toString("latin1"), bytes, version: res.headers.get("catalog-version") ?? "", sent, done: performance.now() };
}

const firstId = (g: Got): string => (JSON.parse(g.text) as Array<{ release_id: string }>)[0]?.release_id ?? "";

/**
 * One poll round: every request at once, each reduced to the release it
 * names. `binaries` maps a binary's SHA-256 to the release whose checksum
 * named it (the sample catalog's binaries carry no id in their bytes).
 */
export async function pollRound(base: string, product: string, component: string, binaries: Map<string, string>): Promise<{ answers: Answer[]; problems: string[] }> {
  const dl = `${base}/${product}/${component}/release/linux-amd64/`;
  const [latest, list, json, rss, page, index, sum, sig, bin] = await Promise.all([
    get(`${base}/api/releases/${product}/latest`),
    get(`${base}/api/releases/${product}?limit=1`),
    get(`${base}/api/feeds/${product}.json`),
    get(`${base}/feed-${product}.rss`),
    get(`${base}/${product}/releases`),
    get(dl, "text/html"),
    get(`${dl}${component}.sha256sum`),
    get(`${dl}${component}.minisig`),
    get(`${dl}${component}`),
  ]);
  const problems: string[] = [];
  // sha256sum semantics: "<hex> <file>", the file naming the release.
  const m = /^([0-9a-f]{64}) [ *]?(\S+)\n$/.exec(sum.text);
  if (!m?.[1]) problems.push(`checksum file is not '<hex> <name>': ${JSON.stringify(sum.text)}`);
  const sumRelease = newest(m?.[2] ?? "");
  if (m?.[1]) binaries.set(m[1], sumRelease);
  const binHash = sha256(bin.bytes);
  const binRelease = newest(bin.text) || (binaries.get(binHash) ?? "");
  if (binRelease === "") problems.push(`a binary no checksum named (sha256 ${binHash})`);
  // Made from one catalog, the bytes must be those the checksum names.
  if (sum.version !== "" && sum.version === bin.version && m?.[1] !== binHash) problems.push(`binary of ${binRelease} does not hash to its checksum's ${m?.[1] ?? ""} (${sumRelease})`);
  const at = (what: string, release: string, g: Got): Answer => ({ what, release, version: g.version, sent: g.sent, done: g.done });
  const answers = [
    at("api latest", firstId(latest), latest),
    at("api list", firstId(list), list),
    at("json feed", newest(json.text), json),
    at("rss", newest(rss.text), rss),
    at("page", newest(page.text), page),
    at("platform index", newest(index.text), index),
    at("checksum", sumRelease, sum),
    // The trusted comment names the signed archive: `file:<component>.RELEASE.<id>`.
    at("signature", newest(/^trusted comment: .*$/m.exec(sig.text)?.[0] ?? ""), sig),
    at("binary", binRelease, bin),
  ];
  for (const a of answers) if (a.release === "") problems.push(`${a.what} names no release`);
  return { answers, problems };
}

export interface PollLog {
  readonly rounds: Array<{ at: number; answers: Answer[] }>;
  readonly problems: string[];
  /** When a round first named `release` in every answer (ms, performance.now()). */
  firstSeen(release: string): number | undefined;
}

/**
 * Answers that cannot all be true of one gateway switching releases at one
 * instant: an answer sent after another had arrived, yet naming an older
 * release (so the gateway went back, or named two at once). Every answer
 * naming release r must have arrived after r's switch, and every answer
 * naming an older one must have been sent before it; for each r the two
 * sets of times must not cross.
 */
export function instantConflicts(answers: readonly Answer[]): string[] {
  const byDone = [...answers].sort((a, b) => a.done - b.done);
  const bySent = [...answers].sort((a, b) => a.sent - b.sent);
  const out: string[] = [];
  let highest: Answer | undefined;
  let i = 0;
  for (const a of bySent) {
    // Every answer complete before `a` was sent: the newest release among them.
    for (; i < byDone.length && (byDone[i]?.done ?? Infinity) < a.sent; i++) {
      const d = byDone[i];
      if (d && (!highest || d.release > highest.release)) highest = d;
    }
    if (highest && a.release < highest.release) {
      out.push(`${a.what} sent at ${a.sent.toFixed(1)} named ${a.release}, after ${highest.what} had named ${highest.release} at ${highest.done.toFixed(1)}`);
    }
  }
  return out;
}

/**
 * Starts a round every `everyMs` (or as soon as the previous one ends, if it
 * took longer) until stopped, recording problems: answers that cannot all
 * hold at one instant (instantConflicts), answers of one catalog version
 * naming different releases, a binary whose hash is not its checksum's,
 * and any failed request.
 */
export function startPolling(base: string, product: string, component: string, everyMs = 20): { log: PollLog; stop: () => Promise<void> } {
  const rounds: PollLog["rounds"] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const binaries = new Map<string, string>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const round = await pollRound(base, product, component, binaries);
        const at = performance.now();
        rounds.push({ at, answers: round.answers });
        for (const p of round.problems) problems.push(`${base}: ${p}`);
        const byVersion = new Map<string, Set<string>>();
        for (const a of round.answers) if (a.version !== "") byVersion.set(a.version, (byVersion.get(a.version) ?? new Set()).add(a.release));
        for (const [v, set] of byVersion) if (set.size > 1) problems.push(`${base}: catalog version '${v}' named ${[...set].join(" and ")}: ${JSON.stringify(round.answers)}`);
        const releases = new Set(round.answers.map((a) => a.release));
        const only = [...releases][0];
        if (releases.size === 1 && only !== undefined && !seen.has(only)) seen.set(only, at);
      } catch (err) {
        problems.push(`${base}: ${err instanceof Error ? err.message : String(err)}`);
      }
      await delay(Math.max(0, started + everyMs - performance.now()));
    }
  })();
  let stopped: Promise<void> | undefined;
  return {
    log: {
      rounds,
      problems,
      firstSeen: (release) => seen.get(release),
    },
    stop: () => {
      running = false;
      stopped ??= loop.then(() => {
        // The whole run at once: every answer of this gateway, across rounds.
        for (const c of instantConflicts(rounds.flatMap((r) => r.answers))) problems.push(`${base}: ${c}`);
      });
      return stopped;
    },
  };
}
