import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runGroupStatus } from "../../../minio-admin/group-run.js";

/** `mc admin group enable` (upstream cmd/admin-group-enable.go). */
export class AdminGroupEnableCommand extends BaseCommand {
  static override paths = [["admin", "group", "enable"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "enable a group", examples: [["Enable group \"allcents\"", "$0 admin group enable myminio allcents"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runGroupStatus(ctx, this.args, true);
  }
}
