import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runIamImport } from "../../../../minio-admin/cluster-meta.js";

/** `mc admin cluster iam import` (upstream cmd/admin-cluster-iam-import.go). */
export class AdminClusterIamImportCommand extends BaseCommand {
  static override paths = [["admin", "cluster", "iam", "import"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "imports IAM info from zipped file",
    examples: [
      ["Set IAM info from previously exported metadata zip file", "$0 admin cluster iam import myminio /tmp/myminio-iam-info.zip"],
      ["Copy the IAM data of one cluster to another", "$0 admin cluster iam export old && $0 admin cluster iam import new old-iam-info.zip"],
    ],
  });
  args = Option.Rest({ name: "ALIAS FILE" });

  async run(ctx: McContext): Promise<void> {
    await runIamImport(ctx, this.args);
  }
}
