import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runGroupAdd } from "../../../minio-admin/group-run.js";

/** `mc admin group add` (upstream cmd/admin-group-add.go). */
export class AdminGroupAddCommand extends BaseCommand {
  static override paths = [["admin", "group", "add"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "add users to a new or existing group",
    examples: [
      ["Add two users to a group (created when it does not exist).", "$0 admin group add myminio developers alice bob"],
      ["Add one more user.", "$0 admin group add myminio developers carol"],
    ],
  });
  args = Option.Rest({ name: "ALIAS GROUP MEMBER [MEMBER...]" });

  async run(ctx: McContext): Promise<void> {
    await runGroupAdd(ctx, this.args);
  }
}
