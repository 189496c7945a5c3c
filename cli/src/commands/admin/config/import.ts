import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runConfigImport } from "../../../minio-admin/config-run.js";

/** `mc admin config import` (upstream cmd/admin-config-import.go). */
export class AdminConfigImportCommand extends BaseCommand {
  static override paths = [["admin", "config", "import"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "import multiple config keys from STDIN",
    examples: [
      ["Import the new local config and apply to the MinIO server", "$0 admin config import play/ < config.txt"],
      ["Copy the configuration of one server to another", "$0 admin config export old/ | $0 admin config import new/"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runConfigImport(ctx, this.args);
  }
}
