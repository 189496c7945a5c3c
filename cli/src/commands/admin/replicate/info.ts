import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runReplicateInfo } from "../../../minio-admin/site-replication-run.js";

/** `mc admin replicate info` (upstream cmd/admin-replicate-info.go). */
export class AdminReplicateInfoCommand extends BaseCommand {
  static override paths = [["admin", "replicate", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "get site replication information",
    examples: [
      ["Get Site Replication information", "$0 admin replicate info minio1"],
      ["The same as JSON", "$0 admin replicate info minio1 --json"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runReplicateInfo(ctx, this.args);
  }
}
