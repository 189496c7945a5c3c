import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runReplicateResync } from "../../../../minio-admin/site-replication-run.js";

/** `mc admin replicate resync cancel` (upstream cmd/admin-replicate-resync-cancel.go). */
export class AdminReplicateResyncCancelCommand extends BaseCommand {
  static override paths = [["admin", "replicate", "resync", "cancel"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "cancel ongoing resync to site",
    examples: [
      ["Cancel the resync of bucket data from minio1 to the site minio2", "$0 admin replicate resync cancel minio1 minio2"],
      ["Cancel it and see the result as JSON", "$0 admin replicate resync cancel minio1 minio2 --json"],
    ],
  });
  args = Option.Rest({ name: "ALIAS SITE" });

  async run(ctx: McContext): Promise<void> {
    await runReplicateResync(ctx, this.args, "cancel");
  }
}
