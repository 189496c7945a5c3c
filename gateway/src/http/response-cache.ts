/** A generated response as the gateway serves and caches it. */
export interface CachedResponse {
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
}

export interface ResponseCache {
  /**
   * The fast path for repeated identical requests: the answer last sent for
   * this key, while its cache entry is fresh. Skips routing and negotiation.
   */
  hot(key: string): HotAnswer | undefined;
  remember(key: string, answer: HotAnswer): void;
  /** The cached response, or the one `make` produces; concurrent misses share one `make`. */
  get(key: string, make: () => Promise<Omit<CachedResponse, "storedAt">>): Promise<CachedResponse>;
  /** Drops everything (a publish happened). */
  invalidate(): void;
  readonly stats: { hits: number; misses: number };
}

export interface ResponseCacheOptions {
  readonly ttlMs?: number;
  readonly now?: () => number;
  readonly maxEntries?: number;
}

/**
 * The gateway's server-side cache: 5 minutes, single-flight per key, and a
 * generation counter so a response made before an invalidation is never
 * stored after it.
 */
export function createResponseCache(options: ResponseCacheOptions = {}): ResponseCache {
  const ttl = options.ttlMs ?? 5 * 60 * 1000;
  const now = options.now ?? Date.now;
  const max = options.maxEntries ?? 10000;
  const entries = new Map<string, CachedResponse>();
  const inflight = new Map<string, { generation: number; promise: Promise<CachedResponse> }>();
  const stats = { hits: 0, misses: 0 };
  const hotAnswers = new Map<string, HotAnswer>();
  let generation = 0;

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
      const promise = make()
        .then((made) => {
          const stored: CachedResponse = { ...made, storedAt: now() };
          if (started === generation) {
            if (entries.size >= max) entries.delete(entries.keys().next().value ?? "");
            entries.set(key, stored);
          }
          return stored;
        })
        .finally(() => {
          if (inflight.get(key)?.promise === promise) inflight.delete(key);
        });
      inflight.set(key, { generation: started, promise });
      return promise;
    },
    invalidate() {
      generation += 1;
      entries.clear();
      hotAnswers.clear();
    },
    hot(key) {
      const answer = hotAnswers.get(key);
      if (!answer) return undefined;
      if (now() - answer.storedAt >= ttl) {
        hotAnswers.delete(key);
        return undefined;
      }
      stats.hits += 1;
      return answer;
    },
    remember(key, answer) {
      if (hotAnswers.size >= max) hotAnswers.delete(hotAnswers.keys().next().value ?? "");
      hotAnswers.set(key, answer);
    },
  };
}
