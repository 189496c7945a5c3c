import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runStsInfo } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user sts info` (upstream cmd/admin-user-sts-info.go). */
export class AdminUserStsInfoCommand extends BaseCommand {
  static override paths = [["admin", "user", "sts", "info"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "get temporary access key info", examples: [["Display information of the temporary access key \"J123C4ZXEQN8RK6ND35I\"", "$0 admin user sts info myminio/ J123C4ZXEQN8RK6ND35I"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runStsInfo(ctx, this.args);
  }
}
