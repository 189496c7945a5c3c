// The few numbers of the Prometheus exposition (contracts/kms.md §6) an
// operator watches: Raft health, indexes, request counts and latency.

export interface MetricsSnapshot {
  readonly leader: boolean;
  readonly term: number;
  readonly elections: number;
  readonly nodes: number;
  readonly commitIndex: number;
  readonly appliedIndex: number;
  readonly requests: { readonly total: number; readonly "2xx": number; readonly "4xx": number; readonly "5xx": number };
  readonly inflight: number;
  /** Mean handling time over all requests so far, in milliseconds. */
  readonly meanLatencyMs: number;
}

interface Sample {
  readonly name: string;
  readonly labels: string;
  readonly value: number;
}

function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split("\n")) {
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m || line.startsWith("#")) continue;
    const value = Number(m[3]);
    if (Number.isFinite(value)) out.push({ name: m[1] ?? "", labels: m[2] ?? "", value });
  }
  return out;
}

export function summarizeMetrics(text: string): MetricsSnapshot {
  const all = samples(text);
  const sum = (name: string, labels?: RegExp): number => all.filter((s) => s.name === name && (!labels || labels.test(s.labels))).reduce((a, s) => a + s.value, 0);
  const byClass = (c: string): number => sum("http_request", new RegExp(`code="${c}\\d\\d"`));
  const count = sum("http_request_duration_count");
  return {
    leader: sum("consens_leader") === 1,
    term: sum("consens_term"),
    elections: sum("consens_elections"),
    nodes: sum("consens_nodes"),
    commitIndex: sum("consens_commit_index"),
    appliedIndex: sum("consens_applied_index"),
    requests: { total: sum("http_request"), "2xx": byClass("2"), "4xx": byClass("4"), "5xx": byClass("5") },
    inflight: sum("http_request_inflight"),
    meanLatencyMs: count === 0 ? 0 : Math.round((sum("http_request_duration_sum") / count) * 1e6) / 1e3,
  };
}

/** The text block of one refresh; `rate` is requests per second since the previous one. */
export function metricsLines(endpoint: string, m: MetricsSnapshot, rate: number | undefined): string[] {
  return [
    `●  ${endpoint}`,
    `   Raft:     ${m.leader ? "leader" : "not leader"}, term ${m.term}, ${m.elections} election(s), ${m.nodes} node(s)`,
    `   Indexes:  commit ${m.commitIndex}, applied ${m.appliedIndex}`,
    `   Requests: ${m.requests.total} (2xx ${m.requests["2xx"]}, 4xx ${m.requests["4xx"]}, 5xx ${m.requests["5xx"]}), ${m.inflight} in flight${rate === undefined ? "" : `, ${rate.toFixed(1)}/s`}`,
    `   Latency:  ${m.meanLatencyMs} ms mean`,
  ];
}
