import type { IncomingMessage } from "node:http";
import { create } from "@bufbuild/protobuf";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { createContextKey, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { AppError } from "@mc/shared/errors";
import { AuditEventSchema, AuditService } from "../../../gen/kms/v1/audit_pb.js";
import { ClusterNodeSchema, ClusterService, HsmStatusSchema, NodeRole } from "../../../gen/kms/v1/cluster_pb.js";
import { EnclaveService } from "../../../gen/kms/v1/enclave_pb.js";
import { HealthService } from "../../../gen/kms/v1/health_pb.js";
import { IdentityService } from "../../../gen/kms/v1/identity_pb.js";
import { KeyService } from "../../../gen/kms/v1/key_pb.js";
import { PolicyService } from "../../../gen/kms/v1/policy_pb.js";
import type { Caller } from "../../domain/authz.js";
import type { Kms } from "../../domain/kms.js";
import { visibleRecords } from "./audit.js";
import { readiness } from "./health-routes.js";
import type { KmsMetrics } from "./metrics.js";
import { clusterStatus, nodeStatus, type NodeInfo } from "./node-info.js";
import { callerOf, type RequestInfo } from "./request-info.js";

/** Carries the raw request into handlers, so they share the REST edge's identity. */
export const rawRequestKey = createContextKey<IncomingMessage | undefined>(undefined);

const page = (p: { items: readonly string[]; continueAt: string }) => ({ names: [...p.items], continueAt: p.continueAt });

/**
 * kms.v1 services on the edge. Each RPC is checked as its REST path with the
 * placeholders filled from the request (contract §1) and calls the same use
 * case; errors go through the one table (the interceptor in kms-node).
 */
export function registerConnectServices(router: ConnectRouter, kms: Kms, node: NodeInfo, metrics: KmsMetrics, infoOf: (req: IncomingMessage) => RequestInfo): void {
  const { keys, admin } = kms;
  // Request fields fill the route's placeholders exactly as REST path
  // segments do, so both edges hand the domain the same canonical request.
  const as = (ctx: HandlerContext, route: string, params: Readonly<Record<string, string>> = {}): Caller => {
    const raw = ctx.values.get(rawRequestKey);
    if (!raw) throw new AppError("internal", "internal error");
    return callerOf(infoOf(raw), route, params);
  };
  // The caller and the canonical value of its one placeholder: handlers act on what was authorised.
  const named = (ctx: HandlerContext, route: string, field: string, value: string): [Caller, string] => {
    const c = as(ctx, route, { [field]: value });
    return [c, c.params[field] ?? ""];
  };
  router.service(KeyService, {
    async createKey(r, ctx) {
      const version = await keys.create(...named(ctx, "/v1/key/create/:name", "name", r.name), { algorithm: r.algorithm, addVersion: r.addVersion });
      return { version };
    },
    async importKey(r, ctx) {
      await keys.import(...named(ctx, "/v1/key/import/:name", "name", r.name), r.key, r.algorithm);
      return {};
    },
    describeKey(r, ctx) {
      const d = keys.describe(...named(ctx, "/v1/key/describe/:name", "name", r.name), r.version);
      return { ...d, versions: [...d.versions] };
    },
    listKeys: (r, ctx) => page(keys.list(...named(ctx, "/v1/key/list/:pattern", "pattern", r.pattern), r.continueAt, r.limit)),
    async deleteKey(r, ctx) {
      await keys.delete(...named(ctx, "/v1/key/delete/:name", "name", r.name), r.version);
      return {};
    },
    generate: (r, ctx) => keys.generate(...named(ctx, "/v1/key/generate/:name", "name", r.name), r.context, r.length ?? 32),
    encrypt: (r, ctx) => keys.encrypt(...named(ctx, "/v1/key/encrypt/:name", "name", r.name), r.plaintext, r.context),
    decrypt: (r, ctx) => keys.decrypt(...named(ctx, "/v1/key/decrypt/:name", "name", r.name), r.ciphertext, r.context),
    hmac: (r, ctx) => keys.hmac(...named(ctx, "/v1/key/hmac/:name", "name", r.name), r.message),
  });
  router.service(PolicyService, {
    async createPolicy(r, ctx) {
      await admin.createPolicy(...named(ctx, "/v1/policy/create/:name", "name", r.name), { allow: r.allow, deny: r.deny });
      return {};
    },
    describePolicy: (r, ctx) => admin.describePolicy(...named(ctx, "/v1/policy/describe/:name", "name", r.name)),
    readPolicy: (r, ctx) => admin.readPolicy(...named(ctx, "/v1/policy/read/:name", "name", r.name)),
    listPolicies: (r, ctx) => page(admin.listPolicies(...named(ctx, "/v1/policy/list/:pattern", "pattern", r.pattern), r.continueAt, r.limit)),
    async assignPolicy(r, ctx) {
      await admin.assignPolicy(...named(ctx, "/v1/policy/assign/:name", "name", r.name), r.identity, true);
      return {};
    },
    async unassignPolicy(r, ctx) {
      await admin.assignPolicy(...named(ctx, "/v1/policy/unassign/:name", "name", r.name), r.identity, false);
      return {};
    },
    async deletePolicy(r, ctx) {
      await admin.deletePolicy(...named(ctx, "/v1/policy/delete/:name", "name", r.name));
      return {};
    },
  });
  router.service(IdentityService, {
    async createIdentity(r, ctx) {
      await admin.createIdentity(...named(ctx, "/v1/identity/create/:id", "id", r.id), { policy: r.policy, admin: r.admin });
      return {};
    },
    describeIdentity: (r, ctx) => {
      const d = admin.describeIdentity(...named(ctx, "/v1/identity/describe/:id", "id", r.id));
      return { ...d, policies: [...d.policies] };
    },
    describeSelf: (_r, ctx) => {
      const d = admin.describeSelf(as(ctx, "/v1/identity/self/describe"));
      return { ...d, policies: [...d.policies], allow: [...d.allow], deny: [...d.deny] };
    },
    listIdentities: (r, ctx) => {
      const p = admin.listIdentities(...named(ctx, "/v1/identity/list/:pattern", "pattern", r.pattern), r.continueAt, r.limit);
      return { identities: [...p.items], continueAt: p.continueAt };
    },
    async deleteIdentity(r, ctx) {
      await admin.deleteIdentity(...named(ctx, "/v1/identity/delete/:id", "id", r.id));
      return {};
    },
  });
  router.service(EnclaveService, {
    async createEnclave(r, ctx) {
      await admin.createEnclave(...named(ctx, "/v1/enclave/create/:name", "name", r.name));
      return {};
    },
    async deleteEnclave(r, ctx) {
      await admin.deleteEnclave(...named(ctx, "/v1/enclave/delete/:name", "name", r.name));
      return {};
    },
    describeEnclave: (r, ctx) => admin.describeEnclave(...named(ctx, "/v1/enclave/describe/:name", "name", r.name)),
    listEnclaves: (r, ctx) => page(admin.listEnclaves(...named(ctx, "/v1/enclave/list/:pattern", "pattern", r.pattern), r.continueAt, r.limit)),
  });
  router.service(HealthService, {
    getVersion: () => ({ version: node.version, commit: node.commit }),
    checkLiveness: () => ({ status: "ok" }),
    checkReadiness: (r) => readiness(node, r.write),
    getMetrics: async () => ({ contentType: metrics.registry.contentType, text: await metrics.registry.metrics() }),
  });
  router.service(ClusterService, {
    getStatus(_r, ctx) {
      admin.authorize(as(ctx, "/v1/status"));
      const s = nodeStatus(node);
      return {
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
      };
    },
    getClusterStatus(_r, ctx) {
      admin.authorize(as(ctx, "/v1/cluster/status"), "root");
      const s = clusterStatus(node);
      const nodes = s.nodes.map((n) => create(ClusterNodeSchema, { id: n.id, host: n.host, role: roleOf(n.role), up: n.up, appliedIndex: BigInt(Math.max(0, n.applied_index)) }));
      return { leaderId: s.leader_id, term: BigInt(s.term), commitIndex: BigInt(s.commit_index), nodes };
    },
    async addNode(r, ctx) {
      admin.authorize(as(ctx, "/v1/cluster/add"), "root");
      if (!node.raft) return single(as(ctx, "/v1/cluster/add"));
      return { nodes: await node.raft.addMember(r.host) };
    },
    async removeNode(r, ctx) {
      admin.authorize(as(ctx, "/v1/cluster/remove"), "root");
      if (!node.raft) return single(as(ctx, "/v1/cluster/remove"));
      return { nodes: await node.raft.removeMember(r.host) };
    },
    async transferLeadership(r, ctx) {
      admin.authorize(as(ctx, "/v1/cluster/transfer"), "root");
      if (!node.raft) return single(as(ctx, "/v1/cluster/transfer"));
      const t = await node.raft.transferLeadership(r.host === "" ? undefined : r.host);
      return { leaderId: t.leaderId, host: t.host, term: BigInt(t.term) };
    },
    describeNode(_r, ctx) {
      admin.authorize(as(ctx, "/v1/cluster/node"), "root");
      if (node.raft) return node.raft.describe();
      return { nodeId: node.nodeId, host: node.host, version: node.version, configFingerprint: "", empty: node.appliedIndex() === 0n, member: true, clusterId: "" };
    },
  });
  router.service(AuditService, {
    async *watchAuditLog(_r, ctx) {
      const visible = admin.auditScope(as(ctx, "/v1/log/audit"));
      for await (const { record: e } of visibleRecords(node.auditStream(ctx.signal), visible)) {
        yield { event: create(AuditEventSchema, { time: e.time, request: e.request, response: { code: e.response.code, time: BigInt(e.response.time) } }) };
      }
    },
  });

  function roleOf(role: string): NodeRole {
    const roles: Record<string, NodeRole> = { follower: NodeRole.FOLLOWER, pre_candidate: NodeRole.PRE_CANDIDATE, candidate: NodeRole.CANDIDATE, leader: NodeRole.LEADER, learner: NodeRole.LEARNER };
    return roles[role] ?? NodeRole.UNSPECIFIED;
  }

  function single(caller: Caller): never {
    admin.authorize(caller, "root");
    throw new AppError("unimplemented", "cluster membership changes need the consensus module");
  }
}
