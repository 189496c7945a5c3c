import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runGroupStatus } from "../../../minio-admin/group-run.js";

/** `mc admin group disable` (upstream cmd/admin-group-disable.go). */
export class AdminGroupDisableCommand extends BaseCommand {
  static override paths = [["admin", "group", "disable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "disable a group",
    examples: [
      ["Disable a group (its members lose its policies).", "$0 admin group disable myminio developers"],
      ["Disable it and print the result as JSON.", "$0 admin group disable --json myminio developers"],
    ],
  });
  args = Option.Rest({ name: "ALIAS GROUP" });

  async run(ctx: McContext): Promise<void> {
    await runGroupStatus(ctx, this.args, false);
  }
}
