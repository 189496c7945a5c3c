import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runGroupList } from "../../../minio-admin/group-run.js";

/** `mc admin group list` (upstream cmd/admin-group-list.go). */
export class AdminGroupListCommand extends BaseCommand {
  static override paths = [["admin", "group", "list"], ["admin", "group", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "display list of groups",
    examples: [
      ["List the groups.", "$0 admin group list myminio"],
      ["List them as JSON.", "$0 admin group ls --json myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runGroupList(ctx, this.args);
  }
}
