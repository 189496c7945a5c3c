import type { RestRoute } from "@mc/shared/rest";
import { AppError } from "@mc/shared/errors";
import type { KmsMetrics } from "./metrics.js";
import { isLeader, type NodeInfo } from "./node-info.js";

const writeProbeMs = 1000;

/** Routes that need no certificate and are not audited (contract §6). */
export const publicPaths = new Set(["/version", "/v1/health/live", "/v1/health/ready", "/v1/health/metrics"]);

/** Ready (contract §6), or an `unavailable` error naming why not; `write` also needs a leader with a majority. */
export async function readiness(node: NodeInfo, write: boolean): Promise<{ status: "ready"; leader: boolean }> {
  const reason = node.notReady();
  if (reason !== undefined) throw new AppError("unavailable", `not ready: ${reason}`);
  // A leader that still has a majority confirms a read point (ReadIndex) in time.
  if (write && node.raft) {
    await node.raft.linearize(writeProbeMs).catch(() => {
      throw new AppError("unavailable", "not ready: cannot reach a leader with a majority");
    });
  }
  return { status: "ready", leader: isLeader(node) };
}

export function createHealthRoutes(node: NodeInfo, metrics: KmsMetrics): RestRoute[] {
  return [
    { methods: ["GET"], pattern: "/version", handle: () => ({ body: { version: node.version, commit: node.commit } }) },
    { methods: ["GET"], pattern: "/v1/health/live", handle: () => ({ body: { status: "ok" } }) },
    {
      methods: ["GET"],
      pattern: "/v1/health/ready",
      handle: async (req) => ({ body: await readiness(node, req.query.has("write")) }),
    },
    {
      methods: ["GET"],
      pattern: "/v1/health/metrics",
      handle: async () => ({ headers: { "content-type": metrics.registry.contentType }, body: await metrics.registry.metrics() }),
    },
  ];
}
