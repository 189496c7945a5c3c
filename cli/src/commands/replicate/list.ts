import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { listRemoteTargets } from "../../minio-admin/bucket-target.js";
import { replicateFailure } from "../../minio-admin/replicate-common.js";
import { ruleJson, ruleTags } from "../../minio-admin/replication-config.js";
import { getReplication } from "../../minio-admin/replication-s3.js";

/** `mc replicate list ALIAS/BUCKET [--status enabled|disabled]` (upstream cmd/replicate-list.go). */
export class ReplicateListCommand extends BaseCommand {
  static override paths = [["replicate", "list"], ["replicate", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list server side replication configuration rules",
    examples: [
      ["List a bucket's replication rules.", "$0 replicate list myminio/mybucket"],
      ["List only the enabled rules.", "$0 replicate list --status enabled myminio/mybucket"],
    ],
  });
  status = Option.String("--status", { description: "show rules by status. Valid options are [enabled,disabled]" });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("replicate list needs one ALIAS/BUCKET.");
    const target = adminTarget(ctx, this.args[0], true);
    const cfg = await getReplication(target.client, target.path).catch((err: unknown) => {
      throw replicateFailure("Unable to get replication configuration", err);
    });
    if (cfg.Rules.length === 0) throw mcError("Unable to list replication configuration.", new Error("replication configuration not set"), "not_found");
    const targets = await listRemoteTargets(target.client, target.path).catch((err: unknown) => {
      throw replicateFailure("Unable to fetch remote target", err);
    });
    if (!ctx.output.json) ctx.output.line("Rules:");
    for (const r of cfg.Rules) {
      if (this.status !== undefined && this.status !== "" && this.status.toLowerCase() !== r.Status.toLowerCase()) continue;
      const arn = r.Destination.Bucket.split(":");
      // madmin.ParseARN: `arn:minio:TYPE:REGION:ID:BUCKET`, else the destination as written.
      const destBucket = r.Destination.Bucket.startsWith("arn:minio:") && arn.length === 6 && arn[4] && arn[5] ? arn[5] : r.Destination.Bucket;
      const endpoint = targets.find((t) => t.arn === r.Destination.Bucket)?.endpoint ?? r.Destination.Bucket;
      const lines = [`Remote Bucket: ${endpoint}/${destBucket}`, `  Rule ID: ${r.ID}`, `  Priority: ${r.Priority}`];
      if (r.Filter.And.Prefix !== "") lines.push(`  Prefix: ${r.Filter.And.Prefix}`);
      if (ruleTags(r) !== "") lines.push(`  Tags: ${ruleTags(r)}`);
      if (r.Destination.StorageClass !== "" && r.Destination.StorageClass !== "STANDARD") lines.push(`  StorageClass: ${r.Destination.StorageClass}`);
      ctx.output.result({ op: "", status: "success", url: "", rule: ruleJson(r) }, `${lines.join("\n")}\n\n`);
    }
  }
}
