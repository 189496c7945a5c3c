import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runUserRemove } from "../../../minio-admin/user-run.js";

/** `mc admin user remove ALIAS USERNAME` (upstream cmd/admin-user-remove.go). */
export class AdminUserRemoveCommand extends BaseCommand {
  static override paths = [["admin", "user", "remove"], ["admin", "user", "rm"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "remove user", examples: [["Remove a user \"foobar\" from MinIO server", "$0 admin user remove myminio foobar"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runUserRemove(ctx, this.args);
  }
}
