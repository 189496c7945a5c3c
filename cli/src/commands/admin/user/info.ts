import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runUserInfo } from "../../../minio-admin/user-run.js";

/** `mc admin user info ALIAS USERNAME` (upstream cmd/admin-user-info.go). */
export class AdminUserInfoCommand extends BaseCommand {
  static override paths = [["admin", "user", "info"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "display info of a user", examples: [["Display the info of a user \"foobar\"", "$0 admin user info myminio foobar"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runUserInfo(ctx, this.args);
  }
}
