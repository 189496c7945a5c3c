import { create } from "@bufbuild/protobuf";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { AppError } from "@mc/shared/errors";
import { AuditEventSchema, AuditService } from "../../../gen/kms/v1/audit_pb.js";
import { ClusterNodeSchema, ClusterService, HsmStatusSchema, NodeRole } from "../../../gen/kms/v1/cluster_pb.js";
import { HealthService } from "../../../gen/kms/v1/health_pb.js";
import { auditNdjson, visibleRecords } from "./audit.js";
import { readiness } from "./readiness.js";
import { clusterStatus, nodeStatus } from "./node-info.js";
import { mapped, open, streaming, unary, type EdgeDeps, type KmsOperation } from "./operation.js";
import { reqString } from "./body.js";
import { body } from "./rest-in.js";

const c = ClusterService.method;
const h = HealthService.method;
const ndjson = { "content-type": "application/x-ndjson" };

const roles: Readonly<Record<string, NodeRole>> = { follower: NodeRole.FOLLOWER, pre_candidate: NodeRole.PRE_CANDIDATE, candidate: NodeRole.CANDIDATE, leader: NodeRole.LEADER, learner: NodeRole.LEARNER };
const roleOf = (role: string): NodeRole => roles[role] ?? NodeRole.UNSPECIFIED;

function raftOf({ node }: EdgeDeps) {
  if (!node.raft) throw new AppError("unimplemented", "cluster membership changes need the consensus module");
  return node.raft;
}

/** Node status, cluster membership and the audit log (contract §4, §8, §9), then the public health routes (§6). */
export const nodeOperations: readonly KmsOperation[] = [
  mapped({
    rpc: c.getStatus, path: "/v1/status", read: "fresh",
    run: ({ kms, node }, caller) => {
      kms.admin.authorize(caller);
      return nodeStatus(node);
    },
    rest: { method: "GET", in: () => ({}), out: (s) => ({ body: s }) },
    toRpc: (s) => ({
      version: s.version,
      uptime: create(DurationSchema, { seconds: BigInt(s.uptime) }),
      nodeId: s.node_id,
      leaderId: s.leader_id,
      role: roleOf(s.role),
      term: BigInt(s.term),
      commitIndex: BigInt(s.commit_index),
      appliedIndex: BigInt(s.applied_index),
      nodes: s.nodes,
      hsm: create(HsmStatusSchema, s.hsm),
    }),
  }),
  mapped({
    rpc: c.getClusterStatus, path: "/v1/cluster/status", read: "fresh", root: true,
    run: ({ node }) => clusterStatus(node),
    rest: { method: "GET", in: () => ({}), out: (s) => ({ body: s }) },
    toRpc: (s) => ({
      leaderId: s.leader_id,
      term: BigInt(s.term),
      commitIndex: BigInt(s.commit_index),
      nodes: s.nodes.map((n) => create(ClusterNodeSchema, { id: n.id, host: n.host, role: roleOf(n.role), up: n.up, appliedIndex: BigInt(Math.max(0, n.applied_index)) })),
    }),
  }),
  unary({
    rpc: c.addNode, path: "/v1/cluster/add", read: "fresh", root: true, changes: true,
    rest: { method: "POST", in: (req) => ({ host: reqString(body(req), "host") }) },
    run: async (d, _c, r) => ({ nodes: await raftOf(d).addMember(r.host) }),
  }),
  unary({
    rpc: c.removeNode, path: "/v1/cluster/remove", read: "fresh", root: true, changes: true,
    rest: { method: "POST", in: (req) => ({ host: reqString(body(req), "host") }) },
    run: async (d, _c, r) => ({ nodes: await raftOf(d).removeMember(r.host) }),
  }),
  unary({
    rpc: c.transferLeadership, path: "/v1/cluster/transfer", read: "fresh", root: true, changes: true,
    run: async (d, _c, r) => {
      const t = await raftOf(d).transferLeadership(r.host === "" ? undefined : r.host);
      return { leaderId: t.leaderId, host: t.host, term: BigInt(t.term) };
    },
  }),
  unary({
    rpc: c.describeNode, path: "/v1/cluster/node", read: "linearizable", root: true,
    run: ({ node }) => {
      if (node.raft) return node.raft.describe();
      return { nodeId: node.nodeId, host: node.host, version: node.version, configFingerprint: "", empty: node.appliedIndex() === 0n, member: true, clusterId: "" };
    },
  }),
  streaming({
    rpc: AuditService.method.watchAuditLog, path: "/v1/log/audit", read: "fresh",
    run: ({ kms, node }, caller, _r, signal) => {
      const visible = kms.admin.auditScope(caller);
      return visibleRecords(node.auditStream(signal), visible);
    },
    // `stream` (not a piped body): a client that hangs up ends it, not an error.
    rest: { method: "GET", in: () => ({}), out: (records) => ({ headers: ndjson, stream: auditNdjson(records) }) },
    toRpc: ({ record: e }) => ({
      event: create(AuditEventSchema, { time: e.time, request: e.request, response: { code: e.response.code, time: BigInt(e.response.time) } }),
    }),
  }),
  open({ rpc: h.getVersion, path: "/version", rest: { method: "GET", in: () => ({}) }, run: ({ node }) => ({ version: node.version, commit: node.commit }) }),
  open({ rpc: h.checkLiveness, path: "/v1/health/live", rest: { method: "GET", in: () => ({}) }, run: () => ({ status: "ok" }) }),
  open({ rpc: h.checkReadiness, path: "/v1/health/ready", rest: { method: "GET", in: (req) => ({ write: req.query.has("write") }) }, run: ({ node }, r) => readiness(node, r.write) }),
  open({
    rpc: h.getMetrics, path: "/v1/health/metrics",
    rest: { method: "GET", in: () => ({}), out: (m) => ({ headers: { "content-type": m.contentType ?? "" }, body: m.text ?? "" }) },
    run: async ({ metrics }) => ({ contentType: metrics.registry.contentType, text: await metrics.registry.metrics() }),
  }),
];
