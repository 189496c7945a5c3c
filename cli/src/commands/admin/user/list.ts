import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runUserList } from "../../../minio-admin/user-run.js";

/** `mc admin user list ALIAS` (upstream cmd/admin-user-list.go). */
export class AdminUserListCommand extends BaseCommand {
  static override paths = [["admin", "user", "list"], ["admin", "user", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list all users",
    examples: [
      ["List the users.", "$0 admin user list myminio"],
      ["List them as JSON.", "$0 admin user ls --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runUserList(ctx, this.args);
  }
}
