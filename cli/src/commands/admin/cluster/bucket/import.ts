import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runBucketImport } from "../../../../minio-admin/cluster-meta.js";

/** `mc admin cluster bucket import` (upstream cmd/admin-cluster-bucket-import.go). */
export class AdminClusterBucketImportCommand extends BaseCommand {
  static override paths = [["admin", "cluster", "bucket", "import"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "restore bucket metadata from a zip file",
    examples: [
      ["Recover bucket metadata for all buckets from previously saved bucket metadata backup", "$0 admin cluster bucket import myminio /backups/myminio-bucket-metadata.zip"],
      ["Recover the metadata of the bucket 'photos' only", "$0 admin cluster bucket import myminio/photos /backups/myminio-bucket-metadata.zip"],
    ],
  });
  args = Option.Rest({ name: "ALIAS[/BUCKET] FILE" });

  async run(ctx: McContext): Promise<void> {
    await runBucketImport(ctx, this.args);
  }
}
