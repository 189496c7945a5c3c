import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runGroupInfo } from "../../../minio-admin/group-run.js";

/** `mc admin group info` (upstream cmd/admin-group-info.go). */
export class AdminGroupInfoCommand extends BaseCommand {
  static override paths = [["admin", "group", "info"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "display group info", examples: [["Get info on group \"allcents\"", "$0 admin group info myminio allcents"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runGroupInfo(ctx, this.args);
  }
}
