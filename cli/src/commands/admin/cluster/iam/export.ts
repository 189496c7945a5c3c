import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runIamExport } from "../../../../minio-admin/cluster-meta.js";

/** `mc admin cluster iam export` (upstream cmd/admin-cluster-iam-export.go). */
export class AdminClusterIamExportCommand extends BaseCommand {
  static override paths = [["admin", "cluster", "iam", "export"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "exports IAM info to zipped file",
    examples: [
      ["Download all IAM metadata for cluster into zip file", "$0 admin cluster iam export myminio"],
      ["Download it to a file of your choice", "$0 admin cluster iam export myminio --output /backups/iam.zip"],
    ],
  });
  output = Option.String("-o,--output", { description: "output file path" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runIamExport(ctx, this.args, this.output);
  }
}
