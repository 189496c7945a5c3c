import { AppError } from "@mc/shared/errors";
import type { RaftNode } from "../domain/raft-node.js";
import type { Configuration, MembershipChange, Ready, RejectReason } from "../domain/types.js";
import { waitCaughtUp } from "./catch-up.js";
import type { StateSignal } from "./state-signal.js";
import type { AppliedEntry, Waiters } from "./waiters.js";

export interface LeaderContext {
  readonly id: string;
  readonly electionMs: number;
  readonly requestTimeoutMs: number;
  /** How long a joining node may make no progress before its addition fails. */
  readonly catchUpStallMs: number;
  readonly waiters: Waiters;
  /** Notified whenever the core may have changed: what the waits below re-check on. */
  readonly changed: StateSignal;
  node(): RaftNode;
  enqueue(ready: Ready): Promise<void>;
}

export interface LeaderOps {
  proposeAsLeader(data: Uint8Array, timeoutMs?: number): Promise<AppliedEntry>;
  readIndexAsLeader(timeoutMs?: number): Promise<{ index: number; term: number }>;
  changeMembershipAsLeader(change: MembershipChange, timeoutMs?: number): Promise<{ index: number; term: number; configuration: Configuration }>;
  transferAsLeader(target: string, timeoutMs?: number): Promise<{ leaderId: string; term: number }>;
}

export const notLeader = (): AppError => new AppError("unavailable", "not the leader");

export function rejection(reason: RejectReason): AppError {
  if (reason === "not_leader") return notLeader();
  if (reason === "transferring") return new AppError("unavailable", "leadership transfer in progress");
  if (reason === "config_pending" || reason === "not_ready") return new AppError("unavailable", "a configuration change is in progress");
  return new AppError("failed_precondition", "membership change not allowed");
}

/** What the leader does itself: batched proposals, ReadIndex, membership changes, transfers. */
export function createLeaderOps(ctx: LeaderContext): LeaderOps {
  let readCounter = 0;
  let batch: { data: Uint8Array; resolve: (r: AppliedEntry) => void; reject: (e: unknown) => void; timeoutMs: number }[] = [];

  function flushBatch(): void {
    const items = batch;
    batch = [];
    if (items.length === 0) return;
    const r = ctx.node().propose(items.map((i) => i.data));
    void ctx.enqueue(r.ready);
    if (!r.ok) return items.forEach((i) => i.reject(rejection(r.reason)));
    items.forEach((item, k) => ctx.waiters.onIndex(r.index + k, r.term, item.timeoutMs).then(item.resolve, item.reject));
  }

  function proposeAsLeader(data: Uint8Array, timeoutMs = ctx.requestTimeoutMs): Promise<AppliedEntry> {
    if (ctx.node().status().role !== "leader") return Promise.reject(notLeader());
    return new Promise((resolve, reject) => {
      if (batch.length === 0) queueMicrotask(flushBatch);
      batch.push({ data, resolve, reject, timeoutMs });
    });
  }

  /** Repeats `attempt` at each change of the node until it stops asking to retry. */
  async function retrying<T>(timeoutMs: number, attempt: () => T | "retry"): Promise<T> {
    const done = await ctx.changed.until(() => {
      const r = attempt();
      return r === "retry" ? undefined : { value: r };
    }, timeoutMs);
    if (!done) throw new AppError("deadline_exceeded", "no commit of the leader's term within the deadline");
    return done.value;
  }

  async function readIndexAsLeader(timeoutMs = ctx.requestTimeoutMs): Promise<{ index: number; term: number }> {
    const readCtx = `${ctx.id}-${++readCounter}`;
    // Wait first: a group of one answers within the same Ready.
    const served = ctx.waiters.onReadState(readCtx, timeoutMs);
    served.catch(() => undefined);
    const term = await retrying(timeoutMs, () => {
      const r = ctx.node().readIndex(readCtx);
      void ctx.enqueue(r.ready);
      if (r.ok) return ctx.node().status().term;
      if (r.reason === "not_ready") return "retry";
      throw rejection(r.reason);
    });
    return { index: await served, term };
  }

  async function changeMembershipAsLeader(change: MembershipChange, timeoutMs = ctx.requestTimeoutMs): Promise<{ index: number; term: number; configuration: Configuration }> {
    const s = ctx.node().status();
    if (s.role !== "leader") throw notLeader();
    if (change.type === "remove" && change.id === ctx.id && s.configuration.voters.length > 1) {
      // Hand leadership over first (thesis §3.10); the caller retries on the new leader.
      await transferAsLeader("", timeoutMs);
      throw notLeader();
    }
    if (change.type === "addVoter" && !s.configuration.voters.some((m) => m.id === change.member.id)) {
      // New servers join as learners and are promoted once caught up (thesis §4.2.1);
      // a learner left by an addition that did not finish is caught up and promoted the same way.
      const learner = s.configuration.learners.some((m) => m.id === change.member.id);
      if (!learner) await changeMembershipAsLeader({ type: "addLearner", member: change.member }, timeoutMs);
      await waitCaughtUp(ctx.node, ctx.changed, change.member.id, change.member.address, ctx.electionMs, ctx.catchUpStallMs);
    }
    const r = await retrying(timeoutMs, () => {
      const res = ctx.node().changeMembership(change);
      void ctx.enqueue(res.ready);
      if (res.ok) return res;
      if (res.reason === "not_ready" || res.reason === "config_pending") return "retry";
      throw rejection(res.reason);
    });
    await ctx.waiters.onIndex(r.index, r.term, timeoutMs);
    return { index: r.index, term: r.term, configuration: r.configuration };
  }

  async function transferAsLeader(target: string, timeoutMs = ctx.requestTimeoutMs): Promise<{ leaderId: string; term: number }> {
    const s = ctx.node().status();
    if (s.role !== "leader") throw notLeader();
    const to = target !== "" ? target : [...s.peers].filter((p) => p.voter).sort((a, b) => b.match - a.match)[0]?.id;
    if (!to) throw new AppError("failed_precondition", "no other voter to transfer leadership to");
    const r = ctx.node().transferLeadership(to);
    void ctx.enqueue(r.ready);
    if (!r.ok) throw rejection(r.reason);
    const moved = await ctx.changed.until(() => {
      const now = ctx.node().status();
      return now.leaderId === to && now.role !== "leader" ? { leaderId: to, term: now.term } : undefined;
    }, Math.min(timeoutMs, 2 * ctx.electionMs));
    if (!moved) throw new AppError("deadline_exceeded", "leadership transfer did not complete");
    return moved;
  }

  return { proposeAsLeader, readIndexAsLeader, changeMembershipAsLeader, transferAsLeader };
}
