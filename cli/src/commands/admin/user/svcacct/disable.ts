import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runSvcStatus } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user svcacct disable` (upstream cmd/admin-user-svcacct-disable.go). */
export class AdminUserSvcacctDisableCommand extends BaseCommand {
  static override paths = [["admin", "user", "svcacct", "disable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "disable a service account",
    examples: [
      ["Disable a service account.", "$0 admin user svcacct disable myminio alice-backup"],
      ["Disable it and print the result as JSON.", "$0 admin user svcacct disable --json myminio alice-backup"],
    ],
  });
  args = Option.Rest({ name: "ALIAS SERVICE-ACCOUNT" });

  async run(ctx: McContext): Promise<void> {
    await runSvcStatus(ctx, this.args, false);
  }
}
