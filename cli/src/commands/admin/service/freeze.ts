import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runServiceAction } from "../../../minio-admin/service.js";

/** `mc admin service freeze` (upstream cmd/admin-service-freeze.go). */
export class AdminServiceFreezeCommand extends BaseCommand {
  static override paths = [["admin", "service", "freeze"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "freeze S3 API calls on MinIO cluster",
    examples: [
      ["Freeze all S3 API calls on MinIO server at 'myminio/'", "$0 admin service freeze myminio/"],
      ["Freeze, then unfreeze when done", "$0 admin service freeze myminio/ && $0 admin service unfreeze myminio/"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runServiceAction(ctx, "freeze", this.args);
  }
}
