import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { usageError } from "../../../core/errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { resyncStatus } from "../../../minio-admin/replication-s3.js";
import { iBytes } from "../../../util/humanize.js";
import { comma, prettyRow, replicateFailure } from "../../../minio-admin/replicate-common.js";

/** `mc replicate resync status ALIAS/BUCKET [--remote-bucket ARN]` (upstream cmd/replicate-resync-status.go). */
export class ReplicateResyncStatusCommand extends BaseCommand {
  static override paths = [["replicate", "resync", "status"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "status of replication recovery",
    examples: [
      ["Show the progress of a resync.", "$0 replicate resync status myminio/mybucket"],
      ["Show it for one remote target.", "$0 replicate resync status myminio/mybucket --remote-bucket \"arn:minio:replication::8d2b4a:mybucket\""],
    ],
  });
  remoteBucket = Option.String("--remote-bucket", { description: "remote bucket ARN" });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("replicate resync status needs one ALIAS/BUCKET.");
    const target = adminTarget(ctx, this.args[0], true);
    const arn = this.remoteBucket ?? "";
    const info = await resyncStatus(target.client, target.path, arn).catch((err: unknown) => {
      throw replicateFailure("Unable to get replication resync status", err);
    });
    const targets = info.target ?? [];
    let text = "No replication resync status available.";
    if (targets.length > 0) {
      text = "Resync status summary:";
      for (const t of targets) {
        text += `\n${prettyRow([120], [`● ${t.arn}`])}\n   Status: ${t.resyncStatus ?? ""}\n`;
        text += `${prettyRow([21, 15, 15], ["   Replication Status", "Size (Bytes)", "Count"])}\n`;
        text += `${prettyRow([21, 15, 15], ["   Replicated", iBytes(t.completedReplicationSize ?? 0), comma(t.replicationCount ?? 0)])}\n`;
        text += `${prettyRow([21, 15, 15], ["   Failed", iBytes(t.failedReplicationSize ?? 0), comma(t.failedReplicationCount ?? 0)])}\n`;
      }
    }
    ctx.output.result({ op: "status", url: this.args[0] ?? "", resyncInfo: targets.length > 0 ? { target: targets } : {}, status: "success", targetArn: arn }, text);
  }
}
