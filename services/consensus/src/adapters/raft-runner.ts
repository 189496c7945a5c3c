import { randomInt } from "node:crypto";
import { createConnectRouter } from "@connectrpc/connect";
import { AppError } from "@mc/shared/errors";
import { serveOverBus, type BusServer } from "@mc/shared/connect";
import type { Bus, BusSubscription } from "@mc/shared/bus";
import { isVoter } from "../domain/configuration.js";
import { createPrng } from "../domain/prng.js";
import { createRaftNode, type RaftNode } from "../domain/raft-node.js";
import type { Configuration, Entry, MembershipChange, Message, Ready, RequestMessage, ResponseMessage } from "../domain/types.js";
import { serveAppendLane } from "./append-lane.js";
import { addConsensusService, createPeerSender } from "./consensus-transport.js";
import type { LogStore } from "./file-log-store.js";
import { isFileSnapshotData, snapshotChecksum } from "./snapshot-file-data.js";
import { createSnapshotKeeper, type StateMachineSnapshots } from "./snapshot-keeper.js";
import { addForwardService, createForwardClient } from "./forward-service.js";
import { createForwardLaneClient, serveForwardLane } from "./forward-lane.js";
import { createPeerPipeline } from "./peer-pipeline.js";
import { createForwardBatcher } from "./forward-batcher.js";
import { createStateSignal } from "./state-signal.js";
import { buildStatus, type PeerStats, type RunnerStatus } from "./runner-status.js";
import { createLeaderOps } from "./leader-ops.js";
import { createLeaderWatch } from "./leader-watch.js";
import { createLeaderRouting } from "./leader-routing.js";
import { createProposeLoop } from "./propose-loop.js";
import { createReadyLoop } from "./ready-loop.js";
import { createStreamHalt } from "./stream-halt.js";
import { createWaiters, type AppliedEntry } from "./waiters.js";

export type { StateMachineSnapshots } from "./snapshot-keeper.js";

export interface RaftRunnerOptions {
  readonly id: string;
  readonly clusterId: string;
  readonly bus: Bus;
  readonly store: LogStore;
  /** Founding membership (the same on every founding node); a joining node passes none. */
  readonly bootstrap?: Configuration;
  /** Applies one committed NORMAL entry; its return value answers the proposer. */
  readonly apply: (entry: Entry) => unknown;
  readonly snapshots?: StateMachineSnapshots;
  readonly tickMs?: number;
  readonly electionTicksMin?: number;
  readonly electionTicksMax?: number;
  readonly heartbeatTicks?: number;
  /** Deadline of one peer RPC: past it the message counts as lost. */
  readonly rpcTimeoutMs?: number;
  /** Default deadline of propose/readIndex/membership calls. */
  readonly requestTimeoutMs?: number;
  /**
   * How long a joining node may make no progress (log entries or snapshot
   * bytes acknowledged, or restoring a snapshot) before its addition fails;
   * default 30 s: a million-key snapshot takes seconds to restore.
   */
  readonly catchUpStallMs?: number;
  readonly seed?: number;
  /** Called with a message when start-up cut off a torn log tail. */
  readonly onRepair?: (message: string) => void;
  /**
   * Called when persisting or applying failed (disk error, a throwing
   * state machine): the node stops at once rather than run on unsafely.
   */
  readonly onFatal?: (error: unknown) => void;
  /** Where causes go that clients are not told (lost leaders, transport failures). */
  readonly log?: (line: string) => void;
}

/** What `apply` returned for the entry on this node (result undefined if it arrived inside a snapshot). */
export type ProposeResult = AppliedEntry;

export interface RaftRunner {
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Replicates a command; resolves once it is applied on this node (a
   * follower forwards to the leader). Fails with `unavailable` "cluster has
   * no leader" when it certainly was not applied, `deadline_exceeded` when
   * it may have been. `repeatable`: see ProposeOptions.
   */
  propose(command: Uint8Array, timeoutMs?: number, options?: { readonly repeatable?: boolean }): Promise<ProposeResult>;
  /** A linearizable read point: resolves with the read index once this node applied up to it. */
  readIndex(timeoutMs?: number): Promise<number>;
  changeMembership(change: MembershipChange, timeoutMs?: number): Promise<{ index: number; configuration: Configuration }>;
  /** Hands leadership to `target` (or the most up-to-date voter); resolves with the new leader. */
  transferLeadership(target?: string, timeoutMs?: number): Promise<{ leaderId: string; term: number }>;
  status(): RunnerStatus;
}

const isResponse = (m: Message): m is ResponseMessage => m.type === "voteResp" || m.type === "appendResp" || m.type === "snapshotResp";
export function createRaftRunner(o: RaftRunnerOptions): RaftRunner {
  const tickMs = o.tickMs ?? 10;
  const electionMs = (o.electionTicksMax ?? 30) * tickMs;
  const requestTimeoutMs = o.requestTimeoutMs ?? 5000;
  const sender = createPeerSender({ bus: o.bus, clusterId: o.clusterId, timeoutMs: o.rpcTimeoutMs ?? 150 });
  const forward = createForwardClient(o.bus, o.clusterId);
  const forwardLane = createForwardLaneClient(o.bus, o.clusterId);
  // Batches go over the bare lane; a leader without it (an older node) gets ForwardService.Propose.
  const forwarder = createForwardBatcher(
    {
      ...forward,
      proposeBatch: async (leader, fromId, batch, timeoutMs) => {
        const r = await forwardLane.proposeBatch(leader, fromId, batch, timeoutMs);
        return r === "fallback" ? forward.proposeBatch(leader, fromId, batch, timeoutMs) : r;
      },
    },
    o.id,
  );
  const waiters = createWaiters();
  const changed = createStateSignal();
  const leaders = createLeaderWatch();
  const peers = new Map<string, PeerStats>();
  const loop = createReadyLoop({
    persist: async (ready) => {
      await o.store.persist(ready);
      if (ready.snapshot) keeper.holdOnDisk(ready.snapshot.meta);
    },
    send: (m) => {
      if (!isResponse(m)) send(m);
    },
    apply: (ready) => applyReady(ready),
    onError: (err) => fatal(err),
  });
  let core: RaftNode | undefined;
  let server: BusServer | undefined;
  let appendLane: BusSubscription | undefined;
  let forwardLaneServer: BusSubscription | undefined;
  let timer: NodeJS.Timeout | undefined;
  let applied = 0;
  // Ended when the node stops or fails: a snapshot stream stops waiting for its pieces.
  const streams = createStreamHalt();
  const keeper = createSnapshotKeeper({ id: o.id, store: o.store, snapshots: o.snapshots, core: () => core, enqueue: (ready) => enqueue(ready), fatal: (err) => fatal(err), streams, log: o.log });
  let elections = 0;
  let lastTerm = 0;

  const node = (): RaftNode => {
    if (!core) throw new AppError("unavailable", "consensus node is not running");
    return core;
  };

  function observe(): void {
    if (!core) return;
    const s = core.status();
    if (s.term > lastTerm) {
      elections += 1;
      lastTerm = s.term;
    }
    leaders.observe(s.role === "leader" ? s.id : s.leaderId);
  }

  function enqueue(ready: Ready): Promise<void> {
    observe();
    const queued = loop.push(ready);
    changed.notify();
    return queued;
  }

  /** Stops ticking and serving, and drops the core: what a stop and a failure share. */
  function stopServing(): void {
    clearInterval(timer);
    server?.close();
    server = undefined;
    appendLane?.unsubscribe();
    appendLane = undefined;
    forwardLaneServer?.unsubscribe();
    forwardLaneServer = undefined;
    core = undefined;
    streams.halt();
  }

  function fatal(err: unknown): void {
    stopServing();
    waiters.failAll(new AppError("internal", "consensus node failed and stopped", { cause: err }));
    o.onFatal?.(err);
  }

  // Pipelined per peer: under load, proposals ride in shared AppendEntries batches.
  const pipeline = createPeerPipeline(sender, 1, (m, outcome) => {
    const stats = peers.get(m.to) ?? { rtt: [], lastContact: undefined, lastError: undefined };
    peers.set(m.to, stats);
    stats.lastError = outcome.ok ? undefined : outcome.lost;
    if (!outcome.ok || !core) return;
    stats.lastContact = Date.now();
    if (m.type === "append") {
      stats.rtt.push(outcome.rttMs);
      if (stats.rtt.length > 64) stats.rtt.shift();
    }
    if (outcome.response) void enqueue(core.step(outcome.response));
  });

  function send(m: RequestMessage): void {
    pipeline.send(m);
  }

  async function applyReady(ready: Ready): Promise<void> {
    if (ready.restore) {
      const started = performance.now();
      await o.snapshots?.restore(ready.restore.data);
      applied = ready.restore.meta.index;
      keeper.restoredAt(applied);
      o.log?.(`consensus: state restored from the snapshot at entry ${applied} in ${Math.round(performance.now() - started)} ms (${ready.restore.data.length} bytes)`);
    }
    for (const e of ready.committed) {
      const result = e.type === "normal" ? await o.apply(e) : undefined;
      applied = e.index;
      waiters.applied(e, result);
    }
    waiters.appliedUpTo(applied);
    for (const rs of ready.readStates) waiters.readState(rs.ctx, rs.index);
    keeper.afterApply(applied);
  }

  async function onRequest(m: RequestMessage): Promise<ResponseMessage | undefined> {
    if (!core) return undefined;
    const ready = core.step(m);
    const response = ready.messages.find((x): x is ResponseMessage => isResponse(x) && x.to === m.from);
    await enqueue(ready);
    return response;
  }

  function leaderNow(): string {
    if (!core) return "";
    const s = core.status();
    return s.role === "leader" ? s.id : s.leaderId;
  }

  const { proposeAsLeader, readIndexAsLeader, changeMembershipAsLeader, transferAsLeader } = createLeaderOps({
    id: o.id, electionMs, requestTimeoutMs, catchUpStallMs: o.catchUpStallMs ?? 30_000, waiters, changed, node, enqueue,
  });

  const proposeLoop = createProposeLoop({
    id: o.id, electionMs, tickMs, changed, leaders, leaderNow,
    local: (command, timeoutMs) => proposeAsLeader(command, timeoutMs),
    forward: async (leader, command, timeoutMs) => {
      const r = await forwarder.propose(leader, command, timeoutMs);
      // Committed on the leader: if this node already holds the entry, apply it now rather than at the next append.
      if (core) void enqueue(core.learnCommit(r.index, r.term));
      return r;
    },
    applied: (index, term, timeoutMs) => waiters.onIndex(index, term, timeoutMs),
    log: (line) => o.log?.(line),
  });

  const { viaLeader } = createLeaderRouting({ id: o.id, tickMs, electionMs, changed, leaderNow, log: (line) => o.log?.(line) });

  return {
    async start() {
      const loaded = await o.store.load();
      if (loaded.repaired) o.onRepair?.(loaded.repaired);
      try {
        // A chunked snapshot is restored as it is read from its file: never whole in memory.
        if (loaded.snapshot) await o.snapshots?.restore(loaded.snapshot.data);
      } catch (err) {
        if (loaded.snapshot && isFileSnapshotData(loaded.snapshot.data)) loaded.snapshot.data.close();
        throw err;
      }
      applied = loaded.snapshot?.meta.index ?? 0;
      keeper.restoredAt(applied);
      lastTerm = loaded.hardState.term;
      core = createRaftNode(
        {
          id: o.id, random: createPrng(o.seed ?? randomInt(2 ** 31)), electionTicksMin: o.electionTicksMin ?? 15, electionTicksMax: o.electionTicksMax ?? 30,
          heartbeatTicks: o.heartbeatTicks ?? 5, ...(o.bootstrap ? { bootstrap: o.bootstrap } : {}),
          checksum: snapshotChecksum,
        },
        loaded,
      );
      if (loaded.snapshot) keeper.holdLoaded(loaded.snapshot);
      const router = createConnectRouter();
      addConsensusService(router, o.id, onRequest);
      addForwardService(router, {
        proposeAsLeader: (data) => proposeAsLeader(data),
        readIndexAsLeader: () => readIndexAsLeader(),
        changeMembershipAsLeader: (change) => changeMembershipAsLeader(change),
        transferAsLeader: (target) => transferAsLeader(target),
        leaderId: () => o.id,
      });
      server = serveOverBus(o.bus, router.handlers, { node: { clusterId: o.clusterId, nodeId: o.id } });
      appendLane = serveAppendLane(o.bus, o.clusterId, o.id, onRequest);
      forwardLaneServer = serveForwardLane(o.bus, o.clusterId, o.id, (data) => proposeAsLeader(data));
      const s = core.status();
      // A group of one elects itself at once instead of waiting out a timeout.
      if (s.configuration.voters.length === 1 && isVoter(s.configuration, o.id)) void enqueue(core.campaign());
      else void enqueue(core.tick());
      timer = setInterval(() => {
        if (core) void enqueue(core.tick());
      }, tickMs);
    },
    async stop() {
      stopServing();
      // A snapshot still encoding is dropped (it sees no core); one being written is awaited by close.
      await loop.idle();
      waiters.failAll(new AppError("unavailable", "consensus node stopped"));
      await o.store.close();
      keeper.close();
    },
    propose(command, timeoutMs = requestTimeoutMs, options = {}) {
      return proposeLoop(command, { timeoutMs, repeatable: options.repeatable ?? false });
    },
    async readIndex(timeoutMs = requestTimeoutMs) {
      const r = await viaLeader(timeoutMs, () => readIndexAsLeader(timeoutMs), (leader) => forward.readIndex(leader, o.id, timeoutMs), false);
      await waiters.onApplied(r.index, timeoutMs);
      return r.index;
    },
    async changeMembership(change, timeoutMs = requestTimeoutMs) {
      const r = await viaLeader(timeoutMs, () => changeMembershipAsLeader(change, timeoutMs), (leader) => forward.changeMembership(leader, o.id, change, timeoutMs));
      return { index: r.index, configuration: r.configuration };
    },
    transferLeadership(target = "", timeoutMs = requestTimeoutMs) {
      return viaLeader(timeoutMs, () => transferAsLeader(target, timeoutMs), (leader) => forward.transferLeadership(leader, o.id, target, timeoutMs));
    },
    status() {
      const s = node().status();
      return buildStatus(o.clusterId, s, applied, elections, peers, Date.now(), keeper.holds(s.snapshotIndex));
    },
  };
}
