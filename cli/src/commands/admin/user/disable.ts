import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runUserStatus } from "../../../minio-admin/user-run.js";

/** `mc admin user disable ALIAS USERNAME` (upstream cmd/admin-user-disable.go). */
export class AdminUserDisableCommand extends BaseCommand {
  static override paths = [["admin", "user", "disable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "disable user",
    examples: [
      ["Disable a user.", "$0 admin user disable myminio alice"],
      ["Disable it and print the result as JSON.", "$0 admin user disable --json myminio alice"],
    ],
  });
  args = Option.Rest({ name: "ALIAS USERNAME" });

  async run(ctx: McContext): Promise<void> {
    await runUserStatus(ctx, this.args, false);
  }
}
