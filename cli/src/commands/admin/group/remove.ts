import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runGroupRemove } from "../../../minio-admin/group-run.js";

/** `mc admin group remove` (upstream cmd/admin-group-remove.go). */
export class AdminGroupRemoveCommand extends BaseCommand {
  static override paths = [["admin", "group", "remove"], ["admin", "group", "rm"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "remove group or members from a group",
    examples: [
      ["Remove a user from a group.", "$0 admin group remove myminio developers carol"],
      ["Remove an empty group.", "$0 admin group remove myminio old-team"],
    ],
  });
  args = Option.Rest({ name: "ALIAS GROUP [MEMBER...]" });

  async run(ctx: McContext): Promise<void> {
    await runGroupRemove(ctx, this.args);
  }
}
