import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runConfigSet } from "../../../minio-admin/config-run.js";

/** `mc admin config set` (upstream cmd/admin-config-set.go). */
export class AdminConfigSetCommand extends BaseCommand {
  static override paths = [["admin", "config", "set"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "interactively set a config key parameters",
    examples: [
      ["Enable webhook notification target for MinIO server", "$0 admin config set myminio/ notify_webhook endpoint=\"http://localhost:8080/minio/events\""],
      ["Change region name for the MinIO server to 'us-west-1'", "$0 admin config set myminio/ region name=us-west-1"],
      ["Change healing settings on a distributed MinIO server setup", "$0 admin config set mydist/ heal max_delay=300ms max_io=50"],
    ],
  });
  env = Option.Boolean("--env", false, { description: "list all the env only help" });
  args = Option.Rest({ name: "ALIAS SUBSYS KEY=VALUE..." });

  async run(ctx: McContext): Promise<void> {
    await runConfigSet(ctx, this.args, this.env);
  }
}
