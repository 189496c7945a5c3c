import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { replicateFailure } from "../../minio-admin/replicate-common.js";
import { getReplication, replicationMetrics } from "../../minio-admin/replication-s3.js";
import { renderReplicationStatus, type MetricsV2, type TargetState } from "../../minio-admin/replication-status.js";

/**
 * `mc replicate status ALIAS/BUCKET` (upstream cmd/replicate-status.go):
 * MinIO's replication metrics v2 (`?replication-metrics=2`), the remote
 * targets (their link state) and the rules, as upstream asks them.
 */
export class ReplicateStatusCommand extends BaseCommand {
  static override paths = [["replicate", "status"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "show server side replication status",
    examples: [
      ["Show the replication status of a bucket.", "$0 replicate status myminio/mybucket"],
      ["Show it as JSON.", "$0 replicate status --json myminio/mybucket"],
    ],
  });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("replicate status needs one ALIAS/BUCKET.");
    const target = adminTarget(ctx, this.args[0], true);
    const metrics = (await replicationMetrics(target.client, target.path).catch((err: unknown) => {
      throw replicateFailure("Unable to get replication status", err);
    })) as MetricsV2;
    // The targets as listed, every field kept (madmin v3 reports the link state in them).
    const targets = await target.client.json<unknown>({ method: "GET", path: "/list-remote-targets", query: { bucket: target.path, type: "" } }).catch((err: unknown) => {
      throw replicateFailure("Unable to fetch remote target", err);
    });
    const cfg = await getReplication(target.client, target.path).catch((err: unknown) => {
      throw replicateFailure("Unable to fetch replication configuration", err);
    });
    const list = Array.isArray(targets) ? (targets as TargetState[]) : [];
    ctx.output.result({ op: "status", url: this.args[0] ?? "", status: "success", replicationstats: metrics, remoteTargets: list }, renderReplicationStatus(metrics, list, cfg));
  }
}
