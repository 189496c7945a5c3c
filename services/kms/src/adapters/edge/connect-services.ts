import type { IncomingMessage } from "node:http";
import { create } from "@bufbuild/protobuf";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { createContextKey, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { AppError } from "@mc/shared";
import { AuditEventSchema, AuditService } from "../../../gen/kms/v1/audit_pb.js";
import { ClusterNodeSchema, ClusterService, HsmStatusSchema, NodeRole } from "../../../gen/kms/v1/cluster_pb.js";
import { EnclaveService } from "../../../gen/kms/v1/enclave_pb.js";
import { HealthService } from "../../../gen/kms/v1/health_pb.js";
import { IdentityService } from "../../../gen/kms/v1/identity_pb.js";
import { KeyService } from "../../../gen/kms/v1/key_pb.js";
import { PolicyService } from "../../../gen/kms/v1/policy_pb.js";
import type { Caller } from "../../domain/authz.js";
import type { Kms } from "../../domain/kms.js";
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
  const as = (ctx: HandlerContext, path: string): Caller => {
    const raw = ctx.values.get(rawRequestKey);
    if (!raw) throw new AppError("internal", "internal error");
    return callerOf(infoOf(raw), path);
  };
  router.service(KeyService, {
    async createKey(r, ctx) {
      const version = await keys.create(as(ctx, `/v1/key/create/${r.name}`), r.name, { algorithm: r.algorithm, addVersion: r.addVersion });
      return { version };
    },
    async importKey(r, ctx) {
      await keys.import(as(ctx, `/v1/key/import/${r.name}`), r.name, r.key, r.algorithm);
      return {};
    },
    describeKey(r, ctx) {
      const d = keys.describe(as(ctx, `/v1/key/describe/${r.name}`), r.name, r.version);
      return { ...d, versions: [...d.versions] };
    },
    listKeys: (r, ctx) => page(keys.list(as(ctx, `/v1/key/list/${r.pattern}`), r.pattern, r.continueAt, r.limit)),
    async deleteKey(r, ctx) {
      await keys.delete(as(ctx, `/v1/key/delete/${r.name}`), r.name, r.version);
      return {};
    },
    generate: (r, ctx) => keys.generate(as(ctx, `/v1/key/generate/${r.name}`), r.name, r.context, r.length ?? 32),
    encrypt: (r, ctx) => keys.encrypt(as(ctx, `/v1/key/encrypt/${r.name}`), r.name, r.plaintext, r.context),
    decrypt: (r, ctx) => keys.decrypt(as(ctx, `/v1/key/decrypt/${r.name}`), r.name, r.ciphertext, r.context),
    hmac: (r, ctx) => keys.hmac(as(ctx, `/v1/key/hmac/${r.name}`), r.name, r.message),
  });
  router.service(PolicyService, {
    async createPolicy(r, ctx) {
      await admin.createPolicy(as(ctx, `/v1/policy/create/${r.name}`), r.name, { allow: r.allow, deny: r.deny });
      return {};
    },
    describePolicy: (r, ctx) => admin.describePolicy(as(ctx, `/v1/policy/describe/${r.name}`), r.name),
    readPolicy: (r, ctx) => admin.readPolicy(as(ctx, `/v1/policy/read/${r.name}`), r.name),
    listPolicies: (r, ctx) => page(admin.listPolicies(as(ctx, `/v1/policy/list/${r.pattern}`), r.pattern, r.continueAt, r.limit)),
    async assignPolicy(r, ctx) {
      await admin.assignPolicy(as(ctx, `/v1/policy/assign/${r.name}`), r.name, r.identity, true);
      return {};
    },
    async unassignPolicy(r, ctx) {
      await admin.assignPolicy(as(ctx, `/v1/policy/unassign/${r.name}`), r.name, r.identity, false);
      return {};
    },
    async deletePolicy(r, ctx) {
      await admin.deletePolicy(as(ctx, `/v1/policy/delete/${r.name}`), r.name);
      return {};
    },
  });
  router.service(IdentityService, {
    async createIdentity(r, ctx) {
      await admin.createIdentity(as(ctx, `/v1/identity/create/${r.id}`), r.id, { policy: r.policy, admin: r.admin });
      return {};
    },
    describeIdentity: (r, ctx) => {
      const d = admin.describeIdentity(as(ctx, `/v1/identity/describe/${r.id}`), r.id);
      return { ...d, policies: [...d.policies] };
    },
    describeSelf: (_r, ctx) => {
      const d = admin.describeSelf(as(ctx, "/v1/identity/self/describe"));
      return { ...d, policies: [...d.policies], allow: [...d.allow], deny: [...d.deny] };
    },
    listIdentities: (r, ctx) => {
      const p = admin.listIdentities(as(ctx, `/v1/identity/list/${r.pattern}`), r.pattern, r.continueAt, r.limit);
      return { identities: [...p.items], continueAt: p.continueAt };
    },
    async deleteIdentity(r, ctx) {
      await admin.deleteIdentity(as(ctx, `/v1/identity/delete/${r.id}`), r.id);
      return {};
    },
  });
  router.service(EnclaveService, {
    async createEnclave(r, ctx) {
      await admin.createEnclave(as(ctx, `/v1/enclave/create/${r.name}`), r.name);
      return {};
    },
    async deleteEnclave(r, ctx) {
      await admin.deleteEnclave(as(ctx, `/v1/enclave/delete/${r.name}`), r.name);
      return {};
    },
    describeEnclave: (r, ctx) => admin.describeEnclave(as(ctx, `/v1/enclave/describe/${r.name}`), r.name),
    listEnclaves: (r, ctx) => page(admin.listEnclaves(as(ctx, `/v1/enclave/list/${r.pattern}`), r.pattern, r.continueAt, r.limit)),
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
      admin.authorize(as(ctx, "/v1/log/audit"));
      let buffered = "";
      for await (const chunk of node.auditStream(ctx.signal)) {
        buffered += String(chunk);
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        for (const line of lines) yield eventOf(line);
      }
    },
  });

  function eventOf(line: string) {
        const e = JSON.parse(line) as { time: string; request: { ip: string; enclave: string; path: string; identity: string }; response: { code: number; time: number } };
        return { event: create(AuditEventSchema, { time: e.time, request: e.request, response: { code: e.response.code, time: BigInt(e.response.time) } }) };
  }

  function roleOf(role: string): NodeRole {
    const roles: Record<string, NodeRole> = { follower: NodeRole.FOLLOWER, pre_candidate: NodeRole.PRE_CANDIDATE, candidate: NodeRole.CANDIDATE, leader: NodeRole.LEADER, learner: NodeRole.LEARNER };
    return roles[role] ?? NodeRole.UNSPECIFIED;
  }

  function single(caller: Caller): never {
    admin.authorize(caller, "root");
    throw new AppError("unimplemented", "cluster membership changes need the consensus module");
  }
}
