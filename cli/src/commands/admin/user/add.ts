import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runUserAdd } from "../../../minio-admin/user-run.js";

/** `mc admin user add ALIAS [ACCESSKEY [SECRETKEY]]` (upstream cmd/admin-user-add.go). */
export class AdminUserAddCommand extends BaseCommand {
  static override paths = [["admin", "user", "add"]];
  static override usage = Command.Usage({ category: "MinIO commands", description: "add a new user", examples: [["Add a new user \"foobar\" to MinIO server", "$0 admin user add myminio foobar foo12345"], ["Add a new user \"foobar\" to MinIO server using piped keys", "echo -e \"foobar\\nfoobar12345\" | $0 admin user add myminio"]] });
  args = Option.Rest({ name: "ARGS" });

  async run(ctx: McContext): Promise<void> {
    await runUserAdd(ctx, this.args);
  }
}
