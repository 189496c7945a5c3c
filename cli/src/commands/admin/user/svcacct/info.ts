import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runSvcInfo } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user svcacct info` (upstream cmd/admin-user-svcacct-info.go). */
export class AdminUserSvcacctInfoCommand extends BaseCommand {
  static override paths = [["admin", "user", "svcacct", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "get a service account info",
    examples: [
      ["Show a service account.", "$0 admin user svcacct info myminio alice-backup"],
      ["Show it as JSON.", "$0 admin user svcacct info --json myminio alice-backup"],
    ],
  });
  args = Option.Rest({ name: "ALIAS SERVICE-ACCOUNT" });

  async run(ctx: McContext): Promise<void> {
    await runSvcInfo(ctx, this.args);
  }
}
