import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runResyncStatus } from "../../../../minio-admin/site-resync-status.js";

/** `mc admin replicate resync status` (upstream cmd/admin-replicate-resync-status.go). */
export class AdminReplicateResyncStatusCommand extends BaseCommand {
  static override paths = [["admin", "replicate", "resync", "status"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "display status of resync to site",
    examples: [
      ["Display status of resync from minio1 to minio2", "$0 admin replicate resync status minio1 minio2"],
      ["Follow it as JSON samples", "$0 admin replicate resync status minio1 minio2 --json"],
    ],
  });
  args = Option.Rest({ name: "ALIAS SITE" });

  async run(ctx: McContext): Promise<void> {
    await runResyncStatus(ctx, this.args);
  }
}
