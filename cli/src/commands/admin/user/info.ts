import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runUserInfo } from "../../../minio-admin/user-run.js";

/** `mc admin user info ALIAS USERNAME` (upstream cmd/admin-user-info.go). */
export class AdminUserInfoCommand extends BaseCommand {
  static override paths = [["admin", "user", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "display info of a user",
    examples: [
      ["Show a user's status, policies and groups.", "$0 admin user info myminio alice"],
      ["Show it as JSON.", "$0 admin user info --json myminio alice"],
    ],
  });
  args = Option.Rest({ name: "ALIAS USERNAME" });

  async run(ctx: McContext): Promise<void> {
    await runUserInfo(ctx, this.args);
  }
}
