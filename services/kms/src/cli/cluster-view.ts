// The cluster as the node that really knows sees it. Only the leader tracks
// every member's replication progress and contact; a follower's own
// `/v1/cluster/status` shows its peers as `up no`, `applied -1`, which misled
// operators during incidents. So: ask the node which leader it follows and
// take the leader's view, or say why no node here can give it.
import { KmsClientError, type KmsClient } from "../client/kms-client.js";

export interface ClusterViewNode {
  readonly id: string;
  readonly host: string;
  readonly role: string;
  /** undefined: this view cannot know (no leader's view was available). */
  readonly up: boolean | undefined;
  readonly appliedIndex: number | undefined;
  readonly lag: number | undefined;
  readonly rttMs: number | undefined;
  readonly lastContactMs: number | undefined;
}

export interface ClusterView {
  /** The node that answered the view: the leader, or the asked node when the leader's view is unavailable. */
  readonly source: { readonly id: string; readonly host: string; readonly role: string };
  /** True when the view is the leader's. */
  readonly authoritative: boolean;
  readonly leaderId: string;
  readonly term: number;
  readonly commitIndex: number;
  readonly nodes: readonly ClusterViewNode[];
  /** Why the view is not the leader's; absent when it is. */
  readonly reason?: string;
  readonly warnings: readonly string[];
}

interface StatusBody {
  node_id: string;
  leader_id: string;
  role: string;
  term: number;
  commit_index: number;
  applied_index: number;
  nodes?: Record<string, string>;
}

interface ClusterStatusBody {
  leader_id: string;
  term: number;
  commit_index: number;
  nodes: { id: string; host: string; role: string; up: boolean; last_contact_ms: number; applied_index: number; lag: number; rtt_ms: number }[];
  warnings?: string[];
}

const fromLeader = (s: ClusterStatusBody, host: string): ClusterView => ({
  source: { id: s.leader_id, host, role: "leader" },
  authoritative: true,
  leaderId: s.leader_id,
  term: s.term,
  commitIndex: s.commit_index,
  nodes: s.nodes.map((n) => ({ id: n.id, host: n.host, role: n.role, up: n.up, appliedIndex: n.applied_index, lag: n.lag, rttMs: n.rtt_ms, lastContactMs: n.last_contact_ms })),
  warnings: s.warnings ?? [],
});

/** Only the asked node's own line is known; the peers are listed, their state unknown. */
function localOnly(s: StatusBody, host: string, reason: string): ClusterView {
  const hosts = s.nodes ?? {};
  const ids = Object.keys(hosts).length > 0 ? Object.keys(hosts).sort() : [s.node_id];
  const nodes = ids.map((id): ClusterViewNode => {
    const self = id === s.node_id;
    const role = self ? s.role : id === s.leader_id ? "leader" : "unknown";
    return { id, host: hosts[id] ?? host, role, up: self ? true : undefined, appliedIndex: self ? s.applied_index : undefined, lag: self ? Math.max(0, s.commit_index - s.applied_index) : undefined, rttMs: undefined, lastContactMs: undefined };
  });
  return { source: { id: s.node_id, host, role: s.role }, authoritative: false, leaderId: s.leader_id, term: s.term, commitIndex: s.commit_index, nodes, reason, warnings: [] };
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * The cluster view for a client of one node. `open` makes a client (same key
 * and trust) for another member's HOST:PORT. KMS error answers of the asked
 * node (403, 404) are thrown as they are; the leader's failures become the reason.
 */
export async function clusterView(client: KmsClient, serverUrl: string, open: (host: string) => Promise<KmsClient>): Promise<ClusterView> {
  // HOST:PORT, as the members name each other.
  const server = serverUrl.replace(/^https:\/\//, "").replace(/\/$/, "");
  const status = await client.call<StatusBody>("GET", "/v1/status");
  if (status.role === "leader") return fromLeader(await client.call<ClusterStatusBody>("GET", "/v1/cluster/status"), server);
  const leaderHost = status.leader_id === "" ? undefined : status.nodes?.[status.leader_id];
  if (leaderHost === undefined) {
    const why = status.leader_id === "" ? "it knows no leader" : `it does not know the address of its leader ${status.leader_id}`;
    return localOnly(status, server, `this node (${status.node_id}, ${status.role}, term ${status.term}) cannot know the other members' state: ${why}; only a leader tracks them`);
  }
  let leader: KmsClient | undefined;
  try {
    leader = await open(leaderHost);
    const view = await leader.call<ClusterStatusBody>("GET", "/v1/cluster/status");
    if (view.leader_id !== status.leader_id && view.nodes.find((n) => n.id === view.leader_id)?.role !== "leader") {
      throw new Error(`${leaderHost} is no longer the leader`);
    }
    return fromLeader(view, leaderHost);
  } catch (err) {
    // A refusal (not authorized) is the caller's answer, as it would be on the leader itself.
    if (err instanceof KmsClientError && err.status < 500) throw err;
    const cause = err instanceof KmsClientError ? `it answered: ${err.message}` : message(err);
    return localOnly(status, server, `this node (${status.node_id}, ${status.role}) cannot know the other members' state and its leader ${status.leader_id} at ${leaderHost} could not be asked: ${cause}`);
  } finally {
    leader?.close();
  }
}

const cell = (v: number | boolean | undefined, f: (x: number) => string = String): string =>
  v === undefined ? "?" : typeof v === "boolean" ? (v ? "yes" : "no") : f(v);

/** The table of `kms cluster status` (tab-separated), with the reason line when the view is not the leader's. */
export function clusterViewLines(v: ClusterView): string[] {
  const out = [`leader ${v.leaderId || "(none)"}  term ${v.term}  commit ${v.commitIndex}  (as seen by ${v.authoritative ? "the leader" : `${v.source.id}, ${v.source.role}`} ${v.source.host})`];
  out.push(["id", "host", "role", "up", "applied", "lag", "rtt_ms", "last_contact_ms"].join("\t"));
  for (const n of v.nodes) {
    out.push([n.id, n.host, n.role, cell(n.up), cell(n.appliedIndex), cell(n.lag), cell(n.rttMs, (x) => x.toFixed(2)), cell(n.lastContactMs)].join("\t"));
  }
  if (v.reason !== undefined) out.push(`note: ${v.reason}`);
  for (const w of v.warnings) out.push(`warning: ${w}`);
  return out;
}
