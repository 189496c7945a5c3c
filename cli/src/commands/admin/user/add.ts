import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runUserAdd } from "../../../minio-admin/user-run.js";

/** `mc admin user add ALIAS [ACCESSKEY [SECRETKEY]]` (upstream cmd/admin-user-add.go). */
export class AdminUserAddCommand extends BaseCommand {
  static override paths = [["admin", "user", "add"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "add a new user",
    examples: [
      ["Add a user.", "$0 admin user add myminio alice \"alice-secret-of-8-or-more\""],
      ["Add a user with the keys on standard input, out of the process list.", "printf 'alice\\nalice-secret-of-8-or-more\\n' | $0 admin user add myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [ACCESSKEY [SECRETKEY]]" });

  async run(ctx: McContext): Promise<void> {
    await runUserAdd(ctx, this.args);
  }
}
