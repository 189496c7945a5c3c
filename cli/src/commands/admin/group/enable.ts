import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runGroupStatus } from "../../../minio-admin/group-run.js";

/** `mc admin group enable` (upstream cmd/admin-group-enable.go). */
export class AdminGroupEnableCommand extends BaseCommand {
  static override paths = [["admin", "group", "enable"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "enable a group",
    examples: [
      ["Enable a group.", "$0 admin group enable myminio developers"],
      ["Enable it and print the result as JSON.", "$0 admin group enable --json myminio developers"],
    ],
  });
  args = Option.Rest({ name: "ALIAS GROUP" });

  async run(ctx: McContext): Promise<void> {
    await runGroupStatus(ctx, this.args, true);
  }
}
