import { setTimeout as delay } from "node:timers/promises";
import { AppError } from "@mc/shared/errors";
import { createFifoMap } from "@mc/shared/fifo-map";
import { compareCatalogVersions, parseCatalogVersion } from "@mc/releases";

/** A generated response as the gateway serves and caches it. */
export interface CachedResponse {
  /** The catalog snapshot it was made from (`catalog-version`), when it came from the catalog. */
  readonly catalogVersion?: string;
  readonly status: number;
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
  /** Strong validator: quoted hex SHA-256 of the body. */
  readonly etag: string;
  readonly lastModified: Date | undefined;
  /** When it was made, for `Age` and expiry. */
  readonly storedAt: number;
}

/** A ready-to-send answer for one exact request shape (URL and content-negotiation headers). */
export interface HotAnswer {
  readonly status: number;
  /**
   * Every header, `content-length` included, with slots for `age` and
   * `x-request-id` that the hot path overwrites before each `writeHead`.
   * One object reused for every answer: `writeHead` reads it at once, and
   * copying it per request (a spread) cost the hot path 40 % of its rate.
   */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly storedAt: number;
  /**
   * The status line and every header line but `age` and `x-request-id` (the
   * last two of `headers`), as Node writes them: the raw lane adds those two,
   * Node's own `Date`, `Connection` and `Keep-Alive`, and the blank line.
   */
  readonly head: string;
}

export interface ResponseCache {
  /**
   * The fast path for repeated identical requests: the answer last sent for
   * this key, while its cache entry is fresh at `at` (the caller's clock
   * reading, default now: the hot path reads the clock once per answer).
   * Skips routing and negotiation.
   */
  hot(key: string, at?: number): HotAnswer | undefined;
  /**
   * Keeps `answer`, made from `from` (an answer of `get`), for the hot path,
   * only while `from` is still what the cache serves: an invalidation or a
   * newer catalog seen since (say, while the answer was being compressed)
   * means it is dropped, never kept for 5 minutes.
   */
  remember(key: string, answer: HotAnswer, from: CachedResponse): void;
  /**
   * The cached response, or the one `make` produces; concurrent misses share
   * one `make`. An answer made from a catalog older than the one served is
   * made again; if the service keeps answering from an older catalog, this
   * fails (503) rather than name an older release than the gateway already has.
   */
  get(key: string, make: () => Promise<Omit<CachedResponse, "storedAt">>): Promise<CachedResponse>;
  /** Drops everything (a publish happened). */
  invalidate(): void;
  /**
   * Tells the cache a catalog version was seen; a newer one than it serves
   * (compareCatalogVersions, a total order) drops everything made from older
   * catalogs. Returns false when `version` is older than the one served (the
   * answer must not be used). Not a version: ignored (true).
   */
  observe(version: string): boolean;
  /** The newest catalog version seen, or undefined before the first. */
  catalogVersion(): string | undefined;
  readonly stats: { hits: number; misses: number };
}

export interface ResponseCacheOptions {
  readonly ttlMs?: number;
  readonly now?: () => number;
  readonly maxEntries?: number;
}

/** A read older than the served catalog is asked again this often before it fails. */
const staleRetries = 20;

/**
 * The gateway's server-side cache: 5 minutes, single-flight per key, and a
 * generation counter so a response made before an invalidation is never
 * stored after it. Answers made from the catalog carry its version: the
 * cache serves one version at a time (the newest seen), so one gateway never
 * names two releases for one catalog, and never goes back to an older one.
 */
export function createResponseCache(options: ResponseCacheOptions = {}): ResponseCache {
  const ttl = options.ttlMs ?? 5 * 60 * 1000;
  const now = options.now ?? Date.now;
  const max = options.maxEntries ?? 10000;
  // Bounded, oldest out first, in O(1) (fifo-map.ts: a Map asked for its first key walks every deleted entry).
  const entries = createFifoMap<string, CachedResponse>(max);
  const inflight = new Map<string, { generation: number; promise: Promise<CachedResponse> }>();
  const stats = { hits: 0, misses: 0 };
  const hotAnswers = createFifoMap<string, HotAnswer>(max);
  /** The generation each stored answer belongs to: only those of the current one feed the hot path. */
  const storedIn = new WeakMap<CachedResponse, number>();
  let generation = 0;
  let served: string | undefined;

  function invalidate(): void {
    generation += 1;
    entries.clear();
    hotAnswers.clear();
  }

  function observe(version: string): boolean {
    const seen = parseCatalogVersion(version);
    if (!seen) return true;
    const current = parseCatalogVersion(served);
    const order = current ? compareCatalogVersions(seen, current) : 1;
    if (order < 0) return false;
    if (order > 0) {
      served = version;
      invalidate();
    }
    return true;
  }

  /**
   * `make`, asked again while it answers from a catalog older than the one
   * served. Also returns the generation its answer belongs to: the one its
   * last attempt started in, or the one its own newer version opened.
   */
  async function makeCurrent(make: () => Promise<Omit<CachedResponse, "storedAt">>, first: number): Promise<{ made: Omit<CachedResponse, "storedAt">; belongsTo: number }> {
    for (let attempt = 0, started = first; ; attempt++, started = generation) {
      const made = await make();
      if (made.catalogVersion === undefined) return { made, belongsTo: started };
      const before = generation;
      if (observe(made.catalogVersion)) return { made, belongsTo: generation !== before ? generation : started };
      if (attempt >= staleRetries) throw new AppError("unavailable", "the release catalog is changing: try again");
      await delay(10);
    }
  }

  return {
    stats,
    get(key, make) {
      const hit = entries.get(key);
      if (hit && now() - hit.storedAt < ttl) {
        stats.hits += 1;
        return Promise.resolve(hit);
      }
      const pending = inflight.get(key);
      if (pending && pending.generation === generation) return pending.promise;
      stats.misses += 1;
      const started = generation;
      const promise = makeCurrent(make, started)
        .then(({ made, belongsTo }) => {
          const stored: CachedResponse = { ...made, storedAt: now() };
          // Stored only when nothing invalidated it meanwhile.
          if (belongsTo === generation && (made.catalogVersion === undefined || made.catalogVersion === served)) {
            entries.set(key, stored);
            storedIn.set(stored, generation);
          }
          return stored;
        })
        .finally(() => {
          if (inflight.get(key)?.promise === promise) inflight.delete(key);
        });
      inflight.set(key, { generation: started, promise });
      return promise;
    },
    invalidate,
    observe,
    catalogVersion: () => served,
    hot(key, at = now()) {
      const answer = hotAnswers.get(key);
      if (!answer) return undefined;
      if (at - answer.storedAt >= ttl) {
        hotAnswers.delete(key);
        return undefined;
      }
      stats.hits += 1;
      return answer;
    },
    remember(key, answer, from) {
      if (storedIn.get(from) !== generation) return;
      hotAnswers.set(key, answer);
    },
  };
}
