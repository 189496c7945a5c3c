import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runSvcRemove } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user svcacct remove` (upstream cmd/admin-user-svcacct-remove.go). */
export class AdminUserSvcacctRemoveCommand extends BaseCommand {
  static override paths = [["admin", "user", "svcacct", "remove"], ["admin", "user", "svcacct", "rm"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "remove a service account", examples: [["Remove the service account \"J123C4ZXEQN8RK6ND35I\"", "$0 admin user svcacct remove myminio/ J123C4ZXEQN8RK6ND35I"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runSvcRemove(ctx, this.args);
  }
}
