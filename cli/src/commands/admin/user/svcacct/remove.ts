import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runSvcRemove } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user svcacct remove` (upstream cmd/admin-user-svcacct-remove.go). */
export class AdminUserSvcacctRemoveCommand extends BaseCommand {
  static override paths = [["admin", "user", "svcacct", "remove"], ["admin", "user", "svcacct", "rm"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "remove a service account",
    examples: [
      ["Remove a service account.", "$0 admin user svcacct remove myminio alice-backup"],
      ["The same, with the short name.", "$0 admin user svcacct rm myminio alice-deploy"],
    ],
  });
  args = Option.Rest({ name: "ALIAS SERVICE-ACCOUNT" });

  async run(ctx: McContext): Promise<void> {
    await runSvcRemove(ctx, this.args);
  }
}
