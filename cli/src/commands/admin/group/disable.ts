import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runGroupStatus } from "../../../minio-admin/group-run.js";

/** `mc admin group disable` (upstream cmd/admin-group-disable.go). */
export class AdminGroupDisableCommand extends BaseCommand {
  static override paths = [["admin", "group", "disable"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "disable a group", examples: [["Disable group \"allcents\"", "$0 admin group disable myminio allcents"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runGroupStatus(ctx, this.args, false);
  }
}
