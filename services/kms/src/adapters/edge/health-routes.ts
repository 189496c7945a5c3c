import type { RestRoute } from "@mc/gateway";
import { AppError } from "@mc/shared";
import type { KmsMetrics } from "./metrics.js";
import { isLeader, type NodeInfo } from "./node-info.js";

/** Routes that need no certificate and are not audited (contract §6). */
export const publicPaths = new Set(["/version", "/v1/health/live", "/v1/health/ready", "/v1/health/metrics"]);

export function createHealthRoutes(node: NodeInfo, metrics: KmsMetrics): RestRoute[] {
  return [
    { methods: ["GET"], pattern: "/version", handle: () => ({ body: { version: node.version, commit: node.commit } }) },
    { methods: ["GET"], pattern: "/v1/health/live", handle: () => ({ body: { status: "ok" } }) },
    {
      methods: ["GET"],
      pattern: "/v1/health/ready",
      handle() {
        const reason = node.notReady();
        if (reason !== undefined) throw new AppError("unavailable", `not ready: ${reason}`);
        return { body: { status: "ready", leader: isLeader(node) } };
      },
    },
    {
      methods: ["GET"],
      pattern: "/v1/health/metrics",
      handle: async () => ({ headers: { "content-type": metrics.registry.contentType }, body: await metrics.registry.metrics() }),
    },
  ];
}
