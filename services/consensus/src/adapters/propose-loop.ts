import type { LeaderWatch } from "./leader-watch.js";
import type { StateSignal } from "./state-signal.js";
import type { AppliedEntry } from "./waiters.js";
import { classifyFailure, describeCause, noLeader, outcomeUnknown } from "./write-outcome.js";

export interface ProposeLoopDeps {
  readonly id: string;
  readonly electionMs: number;
  readonly tickMs: number;
  readonly changed: StateSignal;
  readonly leaders: LeaderWatch;
  /** The leader this node knows ("" for none, or when stopped). */
  leaderNow(): string;
  /** This node leads: append, resolve once applied here. */
  local(command: Uint8Array, timeoutMs: number): Promise<AppliedEntry>;
  /** Hands the command to `leader`; resolves with where it committed there. */
  forward(leader: string, command: Uint8Array, timeoutMs: number): Promise<{ index: number; term: number }>;
  /** Resolves once this node applied the entry the leader committed. */
  applied(index: number, term: number, timeoutMs: number): Promise<AppliedEntry>;
  log(line: string): void;
}

export interface ProposeOptions {
  readonly timeoutMs: number;
  /**
   * Appending the command twice is harmless (the state machine answers a
   * repeat with the first outcome). Then a write whose leader is lost goes
   * to the next leader as soon as one is known, and one of unknown outcome
   * is sent again while time remains, instead of waiting out its timer.
   */
  readonly repeatable: boolean;
}

type Attempt = { readonly kind: "done"; readonly value: AppliedEntry } | { readonly kind: "moved" } | { readonly kind: "failed"; readonly error: unknown };

/** Proposes through whichever node leads, retrying what is safe to retry, until done or the deadline. */
export function createProposeLoop(d: ProposeLoopDeps): (command: Uint8Array, o: ProposeOptions) => Promise<AppliedEntry> {
  const left = (deadline: number): number => Math.max(0, deadline - Date.now());

  function attempt(leader: string, command: Uint8Array, deadline: number, repeatable: boolean): Promise<Attempt> {
    return new Promise((resolve) => {
      let settled = false;
      let cancel = (): void => undefined;
      const finish = (a: Attempt): void => {
        if (settled) return;
        settled = true;
        cancel();
        resolve(a);
      };
      // While the command may still be on its way into a log, news of another leader ends the attempt.
      if (repeatable) cancel = d.leaders.watch(leader, () => finish({ kind: "moved" }));
      const work =
        leader === d.id
          ? d.local(command, left(deadline))
          : d.forward(leader, command, left(deadline)).then((r) => {
              // Committed on the leader: only this node's apply is left, whoever leads now.
              cancel();
              return d.applied(r.index, r.term, left(deadline));
            });
      work.then(
        (value) => finish({ kind: "done", value }),
        (error: unknown) => finish({ kind: "failed", error }),
      );
    });
  }

  return async (command, o) => {
    const deadline = Date.now() + o.timeoutMs;
    let maybeApplied = false;
    let cause: unknown;
    const giveUp = (): Error => {
      if (cause !== undefined) d.log(`consensus: write ${maybeApplied ? "of unknown outcome" : "not applied"}: ${describeCause(cause)}`);
      return maybeApplied ? outcomeUnknown() : noLeader();
    };
    for (;;) {
      if (left(deadline) === 0) throw giveUp();
      // With no copy in any log, fail fast (two election timeouts) when no
      // leader comes; with one that may be, wait to learn its fate.
      const wait = maybeApplied ? left(deadline) : Math.min(left(deadline), 2 * d.electionMs);
      const leader = await d.changed.until(() => d.leaderNow() || undefined, wait);
      if (leader === undefined) throw giveUp();
      const a = await attempt(leader, command, deadline, o.repeatable);
      if (a.kind === "done") return a.value;
      if (a.kind === "moved") {
        maybeApplied = true;
        cause = `leader ${leader} was replaced while the write was in flight`;
        continue;
      }
      const kind = classifyFailure(a.error);
      if (kind === "other") throw a.error;
      cause = a.error;
      if (kind === "unknown") {
        maybeApplied = true;
        if (!o.repeatable) throw giveUp();
      }
      // Wait for news of another leader, a few ticks at most, before the next attempt.
      await d.changed.until(() => (d.leaderNow() !== leader ? true : undefined), Math.min(5 * d.tickMs, left(deadline)));
    }
  };
}
