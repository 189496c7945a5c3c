import { createHash } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { createClient, createConnectRouter } from "@connectrpc/connect";
import { createBusTransport, fromConnectError, serveOverBus, type BusServer } from "@mc/shared/connect";
import type { Bus } from "@mc/shared/bus";
import { ClusterService, DescribeNodeResponseSchema } from "../../../gen/kms/v1/cluster_pb.js";

/** What a node tells a member that wants to add it (never a secret). */
export interface NodeDescription {
  readonly nodeId: string;
  readonly host: string;
  readonly version: string;
  /** SHA-256 over the HSM check value and the sorted configured enclaves (contract §8). */
  readonly configFingerprint: string;
  /** Holds no Raft entries and no snapshot: safe to add. */
  readonly empty: boolean;
  /** Named in its own current configuration. */
  readonly member: boolean;
  readonly clusterId: string;
}

export function configFingerprint(checkValue: Uint8Array, enclaves: readonly string[]): string {
  const h = createHash("sha256").update(checkValue);
  for (const name of [...enclaves].sort()) h.update(`\n${name}`);
  return h.digest("hex");
}

/**
 * Answers DescribeNode on this node's own subject
 * (`kms.v1.ClusterService.DescribeNode.<cluster>.<node>`), so a member can
 * check a node before adding it: a joiner is in no configuration yet and
 * takes no Raft traffic, but NATS reaches it.
 */
export function serveNodeDescription(bus: Bus, clusterId: string, nodeId: string, describe: () => NodeDescription): BusServer {
  const router = createConnectRouter();
  router.service(ClusterService, { describeNode: () => create(DescribeNodeResponseSchema, describe()) });
  return serveOverBus(bus, router.handlers, { node: { clusterId, nodeId } });
}

/** Asks node `nodeId` of `clusterId` to describe itself; unavailable when nothing answers in time. */
export async function describeRemoteNode(bus: Bus, clusterId: string, nodeId: string, timeoutMs: number): Promise<NodeDescription> {
  const client = createClient(ClusterService, createBusTransport({ bus, node: { clusterId, nodeId } }));
  try {
    const r = await client.describeNode({}, { timeoutMs });
    return { nodeId: r.nodeId, host: r.host, version: r.version, configFingerprint: r.configFingerprint, empty: r.empty, member: r.member, clusterId: r.clusterId };
  } catch (err) {
    throw fromConnectError(err);
  }
}
