/**
 * Revocation that holds on every node at once (services/kms/README.md,
 * "Revocation"). In a cluster each node authorises on its own replica, which
 * may lag the leader. So a node authorises a non-root caller only while it
 * holds a lease: a ReadIndex barrier that *started* less than `leaseMs` ago
 * (the node applied everything committed before that start). A revocation
 * (identity or policy delete, unassign, enclave delete) is answered only
 * `waitMs` after it applied on the node that took it, by which time every
 * lease taken before it committed has run out: a node either applied the
 * revocation or must pass a new barrier, which brings it in, before it
 * authorises the revoked caller again.
 *
 * Why it holds: a barrier that returned a read index below the revocation's
 * index was answered by the leader before the revocation committed, so it
 * started earlier, and its lease ended before the revocation's answer. Node
 * clocks only measure intervals (monotonic), so only their rates must agree;
 * `waitMs` is `leaseMs` plus 10 % and 20 ms for that.
 *
 * Pure: the clock, the timer and the barrier are ports.
 */
export interface AuthLeasePorts {
  /** Monotonic milliseconds. */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** ReadIndex: resolves once this node applied everything committed when it was asked. */
  readonly barrier: () => Promise<void>;
  readonly leaseMs: number;
}

export interface AuthLease {
  /** Undefined when the local state may authorise now; otherwise what to wait for first. */
  ensure(): Promise<void> | undefined;
  /** A barrier of its own (linearizable reads), which renews the lease too. */
  barrier(): Promise<void>;
  /** Resolves once no node can still authorise on a state from before a revocation applied here. */
  afterRevocation(): Promise<void>;
  readonly waitMs: number;
}

export function createAuthLease(p: AuthLeasePorts): AuthLease {
  let validUntil = Number.NEGATIVE_INFINITY;
  let inflight: Promise<void> | undefined;
  const waitMs = Math.ceil(p.leaseMs * 1.1) + 20;

  const barrier = async (): Promise<void> => {
    const started = p.now();
    await p.barrier();
    validUntil = Math.max(validUntil, started + p.leaseMs);
  };
  // One shared renewal at a time: under load a node passes one barrier per half lease, not one per request.
  const renew = (): Promise<void> => {
    inflight ??= barrier().finally(() => (inflight = undefined));
    return inflight;
  };
  // A shared renewal may have started before this request arrived, and before
  // a revocation answered since: only a lease valid when the request arrived
  // counts (one that started after it always is).
  const until = async (arrived: number): Promise<void> => {
    do await renew();
    while (validUntil <= arrived);
  };

  return {
    ensure() {
      const arrived = p.now();
      const left = validUntil - arrived;
      if (left <= 0) return until(arrived);
      // Renew early in the background so that steady traffic never waits.
      if (left < p.leaseMs / 2) renew().catch(() => undefined);
      return undefined;
    },
    barrier,
    afterRevocation: () => p.sleep(waitMs),
    waitMs,
  };
}
