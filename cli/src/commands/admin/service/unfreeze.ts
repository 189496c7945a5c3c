import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runServiceAction } from "../../../minio-admin/service.js";

/** `mc admin service unfreeze` (upstream cmd/admin-service-unfreeze.go). */
export class AdminServiceUnfreezeCommand extends BaseCommand {
  static override paths = [["admin", "service", "unfreeze"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "unfreeze S3 API calls on MinIO cluster",
    examples: [
      ["Resume all S3 API calls on MinIO server at 'myminio/'", "$0 admin service unfreeze myminio/"],
      ["Resume them on a distributed deployment", "$0 admin service unfreeze mydist/"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runServiceAction(ctx, "unfreeze", this.args);
  }
}
