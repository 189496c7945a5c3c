import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runUserRemove } from "../../../minio-admin/user-run.js";

/** `mc admin user remove ALIAS USERNAME` (upstream cmd/admin-user-remove.go). */
export class AdminUserRemoveCommand extends BaseCommand {
  static override paths = [["admin", "user", "remove"], ["admin", "user", "rm"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "remove user",
    examples: [
      ["Remove a user.", "$0 admin user remove myminio alice"],
      ["The same, with the short name.", "$0 admin user rm myminio bob"],
    ],
  });
  args = Option.Rest({ name: "ALIAS USERNAME" });

  async run(ctx: McContext): Promise<void> {
    await runUserRemove(ctx, this.args);
  }
}
