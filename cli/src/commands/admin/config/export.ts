import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runConfigExport } from "../../../minio-admin/config-run.js";

/** `mc admin config export` (upstream cmd/admin-config-export.go). */
export class AdminConfigExportCommand extends BaseCommand {
  static override paths = [["admin", "config", "export"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "export server config to STDOUT",
    examples: [
      ["Export the current config from MinIO server", "$0 admin config export play/ > config.txt"],
      ["Export it as JSON", "$0 admin config export play/ --json"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runConfigExport(ctx, this.args);
  }
}
