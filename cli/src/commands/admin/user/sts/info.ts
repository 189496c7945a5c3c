import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runStsInfo } from "../../../../minio-admin/svcacct-run.js";

/** `mc admin user sts info` (upstream cmd/admin-user-sts-info.go). */
export class AdminUserStsInfoCommand extends BaseCommand {
  static override paths = [["admin", "user", "sts", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "get temporary access key info",
    examples: [
      ["Show a temporary access key.", "$0 admin user sts info myminio ZQ4XK2E7Q1M0RSGT9B3C"],
      ["Show it as JSON.", "$0 admin user sts info --json myminio ZQ4XK2E7Q1M0RSGT9B3C"],
    ],
  });
  args = Option.Rest({ name: "ALIAS ACCESSKEY" });

  async run(ctx: McContext): Promise<void> {
    await runStsInfo(ctx, this.args);
  }
}
