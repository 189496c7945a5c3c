import type { Readable } from "node:stream";

/** What the edge reports about the node beyond the domain (status, health, audit). */
export interface NodeInfo {
  readonly version: string;
  readonly commit: string;
  readonly nodeId: string;
  readonly host: string;
  readonly startedAt: number;
  readonly hsmKind: string;
  hsmActive(): boolean;
  appliedIndex(): bigint;
  /** A reason while the node cannot serve; undefined when ready. */
  notReady(): string | undefined;
  /** A new stream of audit lines (NDJSON) from now on. */
  auditStream(signal: AbortSignal): Readable;
}

export function nodeStatus(info: NodeInfo) {
  const index = Number(info.appliedIndex());
  return {
    version: info.version,
    uptime: Math.floor((Date.now() - info.startedAt) / 1000),
    node_id: info.nodeId,
    leader_id: info.nodeId,
    role: "leader",
    term: 1,
    commit_index: index,
    applied_index: index,
    nodes: { [info.nodeId]: info.host },
    hsm: { kind: info.hsmKind, active: info.hsmActive() },
  };
}

export function clusterStatus(info: NodeInfo) {
  const index = Number(info.appliedIndex());
  return {
    leader_id: info.nodeId,
    term: 1,
    commit_index: index,
    nodes: [{ id: info.nodeId, host: info.host, role: "leader", up: true, last_contact_ms: 0, applied_index: index, lag: 0, rtt_ms: 0 }],
  };
}
