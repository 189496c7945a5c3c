import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runSvcInfo } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user svcacct info` (upstream cmd/admin-user-svcacct-info.go). */
export class AdminUserSvcacctInfoCommand extends BaseCommand {
  static override paths = [["admin", "user", "svcacct", "info"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "get a service account info", examples: [["Display information of service account \"J123C4ZXEQN8RK6ND35I\"", "$0 admin user svcacct info myminio/ J123C4ZXEQN8RK6ND35I"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runSvcInfo(ctx, this.args);
  }
}
