import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runGroupInfo } from "../../../minio-admin/group-run.js";

/** `mc admin group info` (upstream cmd/admin-group-info.go). */
export class AdminGroupInfoCommand extends BaseCommand {
  static override paths = [["admin", "group", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "display group info",
    examples: [
      ["Show a group's members, status and policies.", "$0 admin group info myminio developers"],
      ["Show it as JSON.", "$0 admin group info --json myminio developers"],
    ],
  });
  args = Option.Rest({ name: "ALIAS GROUP" });

  async run(ctx: McContext): Promise<void> {
    await runGroupInfo(ctx, this.args);
  }
}
