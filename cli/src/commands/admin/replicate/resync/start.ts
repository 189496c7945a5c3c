import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runReplicateResync } from "../../../../minio-admin/site-replication-run.js";

/** `mc admin replicate resync start` (upstream cmd/admin-replicate-resync-start.go). */
export class AdminReplicateResyncStartCommand extends BaseCommand {
  static override paths = [["admin", "replicate", "resync", "start"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "start resync to site",
    examples: [
      ["Resync bucket data from minio1 to minio2", "$0 admin replicate resync start minio1 minio2"],
      ["Start it, then follow it", "$0 admin replicate resync start minio1 minio2 && $0 admin replicate resync status minio1 minio2"],
    ],
  });
  args = Option.Rest({ name: "ALIAS1 ALIAS2" });

  async run(ctx: McContext): Promise<void> {
    await runReplicateResync(ctx, this.args, "start");
  }
}
