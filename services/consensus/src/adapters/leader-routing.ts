import { AppError } from "@mc/shared/errors";
import type { StateSignal } from "./state-signal.js";
import { changeOutcomeUnknown, classifyFailure, describeCause, noLeader, type AttemptFailure } from "./write-outcome.js";

export interface LeaderRoutingDeps {
  readonly id: string;
  readonly tickMs: number;
  readonly electionMs: number;
  readonly changed: StateSignal;
  /** The leader this node knows of ("" when none), itself when it leads. */
  readonly leaderNow: () => string;
  readonly log?: (line: string) => void;
}

export interface LeaderRouting {
  /**
   * Runs `local` on the leader, or `remote` toward it. "unavailable" (not the
   * leader, no responders) means the call never reached a leader's log, so
   * retrying against the leader we learn next is safe until the deadline.
   */
  viaLeader<T>(timeoutMs: number, local: () => Promise<T>, remote: (leader: string) => Promise<T>, changes?: boolean): Promise<T>;
}

/** How a membership change, a transfer or a read finds the leader, and what a client is told when it cannot. */
export function createLeaderRouting(d: LeaderRoutingDeps): LeaderRouting {
  /** The leader's id (this node's when it leads), waiting up to two election timeouts for one. */
  async function leaderKnown(timeoutMs: number): Promise<string> {
    const leader = await d.changed.until(() => d.leaderNow() || undefined, Math.min(timeoutMs, 2 * d.electionMs));
    if (leader === undefined) throw new AppError("unavailable", "cluster has no leader");
    return leader;
  }

  /**
   * Transport and leadership causes become the two honest answers, with
   * fixed texts: the causes (a transport's subject, a joining node's
   * address, an entry index) go to the log, never to a client.
   */
  function clientFacing(err: unknown, kind: AttemptFailure, changes: boolean): unknown {
    if (kind === "other" || (err instanceof AppError && err.message === "cluster has no leader")) return err;
    d.log?.(`consensus: request failed: ${describeCause(err)}`);
    // A read changes nothing: whatever became of it, it is safe to retry.
    return kind === "not_appended" || !changes ? noLeader() : changeOutcomeUnknown();
  }

  async function viaLeader<T>(timeoutMs: number, local: () => Promise<T>, remote: (leader: string) => Promise<T>, changes = true): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const leader = await leaderKnown(Math.max(0, deadline - Date.now()));
      try {
        return leader === d.id ? await local() : await remote(leader);
      } catch (err) {
        const kind = classifyFailure(err);
        const retry = kind === "not_appended" && Date.now() + 5 * d.tickMs < deadline;
        if (!retry) throw clientFacing(err, kind, changes);
        // Wait for news of another leader, a few ticks at most.
        await d.changed.until(() => (d.leaderNow() !== leader ? true : undefined), 5 * d.tickMs);
      }
    }
  }

  return { viaLeader };
}
