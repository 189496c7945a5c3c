import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runConfigGet } from "../../../minio-admin/config-run.js";

/** `mc admin config get` (upstream cmd/admin-config-get.go). */
export class AdminConfigGetCommand extends BaseCommand {
  static override paths = [["admin", "config", "get"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "interactively retrieve a config key parameters",
    details: "The output includes environment variables set on the server. These cannot be overridden from the client.",
    examples: [
      ["Get the current region setting on MinIO server", "$0 admin config get play/ region"],
      ["Get the current notification settings for Webhook target on MinIO server", "$0 admin config get myminio/ notify_webhook"],
      ["List the configuration keys of MinIO server", "$0 admin config get myminio/"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [SUBSYS...]" });

  async run(ctx: McContext): Promise<void> {
    await runConfigGet(ctx, this.args);
  }
}
