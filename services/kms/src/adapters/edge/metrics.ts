import type { RunnerStatus } from "@mc/consensus";
import { Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The contract's series (§6), in text format 0.0.4 so names stay exactly as
 * given. The `consens_*` series describe a Raft group of one until the
 * consensus module feeds them.
 */
export function createKmsMetrics(appliedIndex: () => bigint, raft?: () => RunnerStatus) {
  const registry = new Registry();
  const registers = [registry];
  // A stopped consensus node (after a fatal error) has no status: report nothing new.
  const status = (): RunnerStatus | undefined => {
    try {
      return raft?.();
    } catch {
      return undefined;
    }
  };
  const m = () => status()?.metrics;
  let electionsSeen = 0;
  const elections = new Counter({
    name: "consens_elections",
    help: "Raft term increases seen by this node",
    registers,
    collect() {
      const now = m()?.consens_elections;
      if (now !== undefined && now > electionsSeen) {
        this.inc(now - electionsSeen);
        electionsSeen = now;
      }
    },
  });
  // Optional detail (contract §6, reference/consensus.md §5): a pre-vote round that fails moves no term, so consens_elections alone misses it.
  let preVotesSeen = 0;
  new Counter({
    name: "kms_raft_prevotes_started",
    help: "Pre-vote rounds this node started (each one means it stopped hearing from a leader)",
    registers,
    collect() {
      const now = m()?.kms_raft_prevotes_started;
      if (now !== undefined && now > preVotesSeen) {
        this.inc(now - preVotesSeen);
        preVotesSeen = now;
      }
    },
  });
  new Gauge({ name: "consens_term", help: "Current Raft term", registers, collect() { this.set(m()?.consens_term ?? 1); } });
  new Gauge({ name: "consens_leader", help: "1 on the leader, 0 elsewhere", registers, collect() { this.set(m()?.consens_leader ?? 1); } });
  new Gauge({ name: "consens_commit_index", help: "Commit index", registers, collect() { this.set(m()?.consens_commit_index ?? Number(appliedIndex())); } });
  new Gauge({ name: "consens_applied_index", help: "Last applied index", registers, collect() { this.set(m()?.consens_applied_index ?? Number(appliedIndex())); } });
  // Fed with the newest round trip to each peer at every scrape (cluster mode).
  const lastRtt = new Map<string, number>();
  new Histogram({
    name: "consens_peer_rtt_seconds",
    help: "Round trip to each peer",
    labelNames: ["peer"],
    registers,
    collect() {
      for (const p of status()?.peers ?? []) {
        const rtt = p.rttMs.at(-1);
        if (rtt === undefined || lastRtt.get(p.id) === rtt) continue;
        lastRtt.set(p.id, rtt);
        this.observe({ peer: p.id }, rtt / 1000);
      }
    },
  });
  new Gauge({ name: "consens_nodes", help: "Voting members", registers, collect() { this.set(m()?.consens_nodes ?? 1); } });
  // A single node becomes leader of term 1 at start: one election.
  if (!raft) elections.inc();
  const sizeBuckets = [64, 256, 1024, 4096, 16384, 65536, 262144, 1048576];
  return {
    registry,
    requests: new Counter({ name: "http_request", help: "HTTP requests", labelNames: ["method", "route", "code"], registers }),
    inflight: new Gauge({ name: "http_request_inflight", help: "Requests in progress", registers }),
    duration: new Histogram({ name: "http_request_duration", help: "Request duration in seconds", labelNames: ["route"], registers, buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5, 15] }),
    requestSize: new Histogram({ name: "http_request_size", help: "Request body bytes", registers, buckets: sizeBuckets }),
    responseSize: new Histogram({ name: "http_response_size", help: "Response body bytes", registers, buckets: sizeBuckets }),
    canceled: new Counter({ name: "http_request_canceled", help: "Requests aborted by the client", registers }),
    timeouts: new Counter({ name: "http_request_timeout", help: "Requests aborted by the 15 s limit", registers }),
  };
}

export type KmsMetrics = ReturnType<typeof createKmsMetrics>;
