import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runBucketExport } from "../../../../minio-admin/cluster-meta.js";

/** `mc admin cluster bucket export` (upstream cmd/admin-cluster-bucket-export.go). */
export class AdminClusterBucketExportCommand extends BaseCommand {
  static override paths = [["admin", "cluster", "bucket", "export"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "backup bucket metadata to a zip file",
    examples: [
      ["Save metadata of all buckets to a zip file", "$0 admin cluster bucket export myminio"],
      ["Save the metadata of the bucket 'photos'", "$0 admin cluster bucket export myminio/photos"],
    ],
  });
  args = Option.Rest({ name: "ALIAS[/BUCKET]" });

  async run(ctx: McContext): Promise<void> {
    await runBucketExport(ctx, this.args);
  }
}
