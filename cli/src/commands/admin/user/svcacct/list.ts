import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runSvcList } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user svcacct list` (upstream cmd/admin-user-svcacct-list.go). */
export class AdminUserSvcacctListCommand extends BaseCommand {
  static override paths = [["admin", "user", "svcacct", "list"], ["admin", "user", "svcacct", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list service accounts",
    examples: [
      ["List alice's service accounts.", "$0 admin user svcacct list myminio alice"],
      ["List them as JSON.", "$0 admin user svcacct ls --json myminio alice"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCOUNT" });

  async run(ctx: McContext): Promise<void> {
    await runSvcList(ctx, this.args);
  }
}
