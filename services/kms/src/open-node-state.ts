import { isAbsolute, relative, resolve } from "node:path";
import { damageOf } from "@mc/consensus";
import type { Bus } from "@mc/shared/bus";
import { StartupError } from "./config/startup-error.js";
import type { KmsConfig } from "./config/config.js";
import { createSodiumCrypto } from "./adapters/sodium-crypto.js";
import { HsmMismatchError, type Hsm } from "./adapters/hsm/hsm.js";
import { startClusterNode, type ClusterNode } from "./adapters/cluster/cluster-node.js";
import { configFingerprint } from "./adapters/cluster/node-description.js";
import { createLocalNode, type LocalNode } from "./adapters/storage/local-node.js";
import { openDataDir, type OpenedDataDir } from "./adapters/storage/open-data-dir.js";
import { createAuthLease, type AuthLease } from "./domain/auth-lease.js";
import { createKms, type Kms } from "./domain/kms.js";
import { wholeMs } from "@mc/shared/node";

export interface NodeStateOptions {
  readonly config: KmsConfig;
  readonly hsm: Hsm;
  readonly rootIdentity: string;
  readonly log: (line: string) => void;
  readonly version: string;
  /** Called as soon as this start created the data directory (before anything can still fail). */
  readonly onCreated?: () => void;
  /** Cluster mode: use this bus instead of connecting to NATS (tests). */
  readonly bus?: Bus;
  /** Snapshot after this many entries (default: a sixteenth of the records, at least 1,000, on a single node; at least 50,000 in a cluster). */
  readonly snapshotEvery?: number;
  /** Cluster mode: Raft log segment size (tests). */
  readonly raftSegmentBytes?: number;
}

export interface NodeState {
  readonly node: LocalNode | ClusterNode;
  readonly cluster: ClusterNode | undefined;
  readonly kms: Kms;
  /** Cluster mode: the authorisation lease (domain/auth-lease.ts); linearizable reads pass its barrier. */
  readonly lease: AuthLease | undefined;
  readonly rootKey: Uint8Array;
  readonly firstStart: boolean;
  close(): Promise<void>;
}

/**
 * How long a ReadIndex barrier lets a node authorise non-root callers on its
 * replica. Longer: a revocation is answered later (this plus 10 %); shorter:
 * nodes pass barriers more often, and without a leader stop serving
 * non-root callers sooner. A second outlasts an election (150-300 ms).
 */
export const authLeaseMs = 1000;

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The contract's one line for a failure to open the data directory. */
export function startupErrorOf(err: unknown, what: string): StartupError {
  if (err instanceof StartupError) return err;
  const d = damageOf(err);
  if (d) return new StartupError(`kms: data directory is damaged: ${d.file} at offset ${d.offset}: ${d.what}`);
  if (err instanceof HsmMismatchError) return new StartupError("kms: HSM key does not match the data directory");
  return new StartupError(`kms: ${what}: ${reason(err)}`);
}

/**
 * Opens the data directory and rebuilds the state, exactly as `kms server`
 * does, without TLS or listeners: the single node replays its snapshot and
 * log, a cluster member starts its Raft runner. Failures are StartupErrors
 * carrying the line `kms server` prints; a refused directory is unchanged.
 */
export async function openNodeState(o: NodeStateOptions): Promise<NodeState> {
  const { config, hsm } = o;
  const mode = config.cluster ? "cluster" : "single";
  // The data directory refuses files it does not know: an audit log there would stop the next start.
  const rel = relative(resolve(config.dataDir), resolve(config.audit));
  if (!["off", "stdout", ""].includes(config.audit) && rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) {
    throw new StartupError(`kms: invalid configuration: log.audit ${config.audit} is inside data_dir, which holds only the node's own files`);
  }
  const now = (): string => new Date().toISOString();
  let opened: OpenedDataDir;
  try {
    opened = await openDataDir(config.dataDir, hsm, { mode, enclaves: config.enclaves, now });
  } catch (err) {
    throw startupErrorOf(err, "cannot open data directory");
  }
  if (opened.firstStart) o.onCreated?.();
  let node: LocalNode | ClusterNode;
  let cluster: ClusterNode | undefined;
  if (opened.local) {
    if (opened.local.repaired) o.log(`kms: command log repaired: ${opened.local.repaired}`);
    node = createLocalNode(opened.local, { log: o.log, ...(o.snapshotEvery === undefined ? {} : { snapshotEvery: o.snapshotEvery }) });
  } else if (config.cluster && opened.cluster) {
    try {
      const fingerprint = configFingerprint(await hsm.checkValue(), config.enclaves);
      cluster = await startClusterNode({
        cluster: config.cluster, dataDir: config.dataDir, rootKey: opened.rootKey, log: o.log, fingerprint, version: o.version, storage: opened.cluster,
        ...(o.bus ? { bus: o.bus } : {}),
        ...(o.snapshotEvery ? { snapshotEvery: o.snapshotEvery } : {}),
        ...(o.raftSegmentBytes ? { segmentBytes: o.raftSegmentBytes } : {}),
      });
      await opened.cluster.afterStart();
    } catch (err) {
      await cluster?.close().catch(() => undefined);
      throw startupErrorOf(err, "cannot start cluster node");
    }
    node = cluster;
  } else {
    throw new StartupError("kms: cannot open data directory: no storage for this mode");
  }
  const c = cluster;
  const lease = c
    ? createAuthLease({ now: () => performance.now(), sleep: (ms) => new Promise((r) => setTimeout(r, wholeMs(ms))), barrier: () => c.linearize(), leaseMs: authLeaseMs })
    : undefined;
  const kms = createKms({ state: node.state, sink: node, crypto: createSodiumCrypto(opened.rootKey), rootIdentity: o.rootIdentity, ...(lease ? { lease } : {}) });
  return { node, cluster, kms, lease, rootKey: opened.rootKey, firstStart: opened.firstStart, close: () => node.close() };
}
