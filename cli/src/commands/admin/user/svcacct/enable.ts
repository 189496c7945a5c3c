import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runSvcStatus } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user svcacct enable` (upstream cmd/admin-user-svcacct-enable.go). */
export class AdminUserSvcacctEnableCommand extends BaseCommand {
  static override paths = [["admin", "user", "svcacct", "enable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "enable a service account",
    examples: [
      ["Enable a service account.", "$0 admin user svcacct enable myminio alice-backup"],
      ["Enable it and print the result as JSON.", "$0 admin user svcacct enable --json myminio alice-backup"],
    ],
  });
  args = Option.Rest({ name: "ALIAS SERVICE-ACCOUNT" });

  async run(ctx: McContext): Promise<void> {
    await runSvcStatus(ctx, this.args, true);
  }
}
