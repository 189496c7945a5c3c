import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { createFileLogStore, createRaftRunner, type Configuration, type ProposeResult, type RaftRunner, type RunnerStatus } from "@mc/consensus";
import { AppError } from "@mc/shared/errors";
import { connectNatsBus, type Bus } from "@mc/shared/bus";
import type { Pace } from "@mc/shared/node";
import { apply } from "../../domain/apply.js";
import type { Command, Payload } from "../../domain/command.js";
import type { CommandSink } from "../../domain/ports.js";
import { recordedOutcome } from "../../domain/sessions.js";
import { clusterSnapshotFloor, snapshotInterval } from "../../domain/snapshot-cadence.js";
import { captureState } from "../../domain/state-capture.js";
import { createEmptyState, type ApplyResult, type KmsState } from "../../domain/state.js";
import { nodeIdOf, type ClusterConfig } from "../../config/config.js";
import { decodeCommand, encodeCommand } from "../storage/command-codec.js";
import { raftFolderName } from "../storage/data-dir.js";
import { decodeStateSliced, streamCapture } from "../storage/state-codec.js";
import { describeRemoteNode, serveNodeDescription, type NodeDescription } from "./node-description.js";
import { watchWarnings } from "./watch-warnings.js";
import { clientFacingWriteError, outcomeUnknownError } from "./write-answers.js";

/**
 * Pace of a member's own snapshot (encoding, sealing, writing) while writes
 * flow. Members share machines with their peers and clients: at full speed,
 * a snapshot of 100,000 keys on a 3-node cluster sharing two cores raised
 * the write p99 beside it 2.3 to 3.5 times; capped at a quarter of a core,
 * 1.1 to 2.5 times (median of six runs 1.75x; issue 26). The floor bounds
 * how long it takes however busy the node is: yielding after every 0.1 ms,
 * a snapshot got one slice per turn of a loop busy with writes, and at a
 * million keys took over three minutes while the log grew by 450,000
 * entries. With no write for a moment it runs at full speed: a snapshot
 * left behind by a burst kept the log long, and a joining member then
 * replayed all of it, as did every restart.
 */
const busyCap = 0.25;
const busyFloor = 0.2;
const quietAfterMs = 200;

export interface ClusterNodeOptions {
  readonly cluster: ClusterConfig;
  readonly dataDir: string;
  /** The cluster's root key (the same on every node): seals the Raft log and snapshots. */
  readonly rootKey: Uint8Array;
  readonly log: (line: string) => void;
  readonly now?: () => string;
  /** The bus to use instead of connecting to `cluster.nats` (tests); closed by the caller. */
  readonly bus?: Bus;
  /** Snapshot after this many applied entries (default 10,000). */
  readonly snapshotEvery?: number;
  /** Start a new Raft log segment past this size (default 4 MiB; tests use small ones). */
  readonly segmentBytes?: number;
  /** How the data directory binds and checks the Raft files; without it the log folder may be new (tests). */
  readonly storage?: { readonly storeId: Uint8Array; readonly legacy: boolean; onValidated(): Promise<void> };
  /** The configuration fingerprint (HSM check value + enclaves) a joining node must share. */
  readonly fingerprint: string;
  readonly version: string;
}

export interface ClusterNode extends CommandSink {
  readonly id: string;
  readonly state: () => KmsState;
  /** Waits for a linearizable read point (ReadIndex) and for this node to apply up to it. */
  linearize(timeoutMs?: number): Promise<void>;
  status(): RunnerStatus;
  /** HOST:PORT of each member by node id. */
  hosts(): Record<string, string>;
  readonly runner: RaftRunner;
  /** This node as a member sees it before adding it. */
  describe(): NodeDescription;
  /** Asks the node at HOST:PORT (over NATS) to describe itself. */
  describeRemote(host: string, timeoutMs: number): Promise<NodeDescription>;
  close(): Promise<void>;
}

/** The founding membership: the same on every founding node. */
export function bootstrapOf(cluster: ClusterConfig): Configuration {
  return { voters: cluster.nodes.map((host) => ({ id: nodeIdOf(host), address: host })), learners: [] };
}

/**
 * The cluster command path: every Command is proposed through Raft (a
 * follower's proposal is forwarded to the leader by the runner) and applied
 * on every node in log order; a proposal resolves once applied here. Every
 * command carries a request id (the client's, or one drawn here), so the
 * runner may send it again when its leader is lost (the session table
 * answers the repeat), and a client's retry applies once too.
 */
export async function startClusterNode(o: ClusterNodeOptions): Promise<ClusterNode> {
  const id = nodeIdOf(o.cluster.host);
  const now = o.now ?? (() => new Date().toISOString());
  const ownBus = o.bus === undefined;
  let bus: Bus;
  try {
    bus = o.bus ?? (await connectNatsBus({ servers: o.cluster.nats.split(",").map((s) => s.trim()), name: `kms-${id}` }));
  } catch (err) {
    throw new Error(`cannot connect to NATS at ${o.cluster.nats}: ${err instanceof Error ? err.message : String(err)}`);
  }
  let state = createEmptyState();
  let lastWrite = 0;
  const snapshotPace: Pace = { cap: () => (performance.now() - lastWrite < quietAfterMs ? busyCap : 1), floor: busyFloor };
  const runner = createRaftRunner({
    id,
    clusterId: o.cluster.id,
    bus,
    store: createFileLogStore({
      dir: join(o.dataDir, raftFolderName),
      rootKey: o.rootKey,
      label: "raft/",
      snapshotPace,
      ...(o.segmentBytes ? { segmentBytes: o.segmentBytes } : {}),
      // An existing data directory must hold its Raft log: a lost one is damage, never a new start.
      ...(o.storage ? { storeId: o.storage.storeId, legacy: o.storage.legacy, mustExist: true, onValidated: o.storage.onValidated } : {}),
    }),
    // Founding members share the bootstrap configuration; a joining node waits to be added.
    ...(o.cluster.nodes.includes(o.cluster.host) ? { bootstrap: bootstrapOf(o.cluster) } : {}),
    apply: (entry) => {
      lastWrite = performance.now();
      return apply(state, decodeCommand(entry.data), BigInt(entry.index));
    },
    snapshots: {
      // A snapshot serializes every key (6 µs each, then one seal and fsync),
      // so its cost per entry is the keys over the interval: a sixteenth of
      // the records bounds that for a large keyspace, and the floor
      // (clusterSnapshotFloor) for a smaller one.
      every: o.snapshotEvery ?? (() => snapshotInterval(state, clusterSnapshotFloor)),
      // Captured now (copies of the maps), then encoded in slices that let
      // heartbeats through (100,000 keys take most of a second), straight
      // into the snapshot file.
      take: () => streamCapture(captureState(state), snapshotPace),
      restore: async (data) => {
        state = await decodeStateSliced(data);
      },
    },
    onRepair: (message) => o.log(`kms: raft log repaired: ${message}`),
    onFatal: (err) => o.log(`kms: consensus stopped: ${err instanceof Error ? err.message : String(err)}`),
    log: (line) => o.log(`kms: ${line}`),
  });
  try {
    await runner.start();
  } catch (err) {
    if (ownBus) await bus.close();
    throw err;
  }
  const isMember = (): boolean => {
    const c = runner.status().configuration;
    return [...c.voters, ...c.learners].some((m) => m.id === id);
  };
  if (!isMember()) o.log("kms: server not part of cluster");
  const describe = (): NodeDescription => {
    const s = runner.status();
    return { nodeId: id, host: o.cluster.host, version: o.version, configFingerprint: o.fingerprint, empty: s.lastIndex === 0 && s.snapshotIndex === 0, member: isMember(), clusterId: o.cluster.id };
  };
  const describer = serveNodeDescription(bus, o.cluster.id, id, describe);
  const warned = watchWarnings(() => runner.status().warnings, o.log);
  return {
    id,
    runner,
    state: () => state,
    async propose(payload: Payload, issuedBy: string, requestId = ""): Promise<ApplyResult> {
      const command: Command = { requestId: requestId === "" ? randomUUID() : requestId, issuedAt: now(), issuedBy, payload };
      let r: ProposeResult;
      try {
        r = await runner.propose(encodeCommand(command), undefined, { repeatable: true });
      } catch (err) {
        throw clientFacingWriteError(err, o.log);
      }
      if (r.result !== undefined) return r.result as ApplyResult;
      // The entry reached this node inside a snapshot (or its answer aged out): the
      // replicated session table holds the outcome apply gave it on every node.
      const recorded = recordedOutcome(state, command.issuedBy, command.requestId, command.payload);
      if (recorded) return recorded;
      // Not in the table: not applied at that index, or evicted since; either way unknown here.
      o.log(`kms: write ${command.requestId} committed at ${r.index} but its outcome is not in the session table`);
      throw outcomeUnknownError();
    },
    async linearize(timeoutMs?: number) {
      try {
        await runner.readIndex(timeoutMs);
      } catch (err) {
        // A read changes nothing: whatever went wrong, it is safe to retry elsewhere.
        if (!(err instanceof AppError) || !["unavailable", "deadline_exceeded", "aborted"].includes(err.reason)) throw err;
        if (err.message !== "cluster has no leader") o.log(`kms: linearizable read failed: ${err.message}`);
        throw new AppError("unavailable", "cluster has no leader");
      }
    },
    status: () => runner.status(),
    describe,
    describeRemote: (host, timeoutMs) => describeRemoteNode(bus, o.cluster.id, nodeIdOf(host), timeoutMs),
    hosts() {
      const c = runner.status().configuration;
      return Object.fromEntries([...c.voters, ...c.learners].map((m) => [m.id, m.address]));
    },
    async close() {
      clearInterval(warned);
      describer.close();
      await runner.stop();
      if (ownBus) await bus.close();
    },
  };
}

/** Proposes each configured enclave until it exists (a fresh cluster's first start); "already exists" is fine. */
export async function createEnclavesOnce(node: ClusterNode, enclaves: readonly string[], closed: () => boolean): Promise<void> {
  for (const name of enclaves) {
    for (;;) {
      if (closed()) return;
      if (node.state().enclaves.has(name)) break;
      try {
        await node.propose({ kind: "createEnclave", name }, "");
        break;
      } catch (err) {
        if (!(err instanceof AppError) || (err.reason !== "unavailable" && err.reason !== "deadline_exceeded" && err.reason !== "aborted")) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
}
