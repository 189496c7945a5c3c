import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runConfigReset } from "../../../minio-admin/config-run.js";

/** `mc admin config reset` (upstream cmd/admin-config-reset.go). */
export class AdminConfigResetCommand extends BaseCommand {
  static override paths = [["admin", "config", "reset"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "interactively reset a config key parameters",
    examples: [
      ["Reset MQTT notifcation target 'name1' settings to default values", "$0 admin config reset myminio/ notify_mqtt:name1"],
      ["Reset compression's 'extensions' setting to its default value", "$0 admin config reset myminio/ compression extensions"],
    ],
  });
  env = Option.Boolean("--env", false, { description: "list all the env only help" });
  args = Option.Rest({ name: "ALIAS SUBSYS[:TARGET] [KEY...]" });

  async run(ctx: McContext): Promise<void> {
    await runConfigReset(ctx, this.args, this.env);
  }
}
