import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runUserStatus } from "../../../minio-admin/user-run.js";

/** `mc admin user enable ALIAS USERNAME` (upstream cmd/admin-user-enable.go). */
export class AdminUserEnableCommand extends BaseCommand {
  static override paths = [["admin", "user", "enable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "enable user",
    examples: [
      ["Enable a user.", "$0 admin user enable myminio alice"],
      ["Enable it and print the result as JSON.", "$0 admin user enable --json myminio alice"],
    ],
  });
  args = Option.Rest({ name: "ALIAS USERNAME" });

  async run(ctx: McContext): Promise<void> {
    await runUserStatus(ctx, this.args, true);
  }
}
