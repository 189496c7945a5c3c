import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runConfigRestore } from "../../../minio-admin/config-run.js";

/** `mc admin config restore` (upstream cmd/admin-config-restore.go). */
export class AdminConfigRestoreCommand extends BaseCommand {
  static override paths = [["admin", "config", "restore"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "rollback back changes to a specific config history",
    examples: [
      ["Restore 'restore-id' history key value on MinIO server", "$0 admin config restore play/ <restore-id>"],
      ["Find a restore id, then restore it", "$0 admin config history play/ && $0 admin config restore play/ 3a2e6b0d"],
    ],
  });
  args = Option.Rest({ name: "ALIAS RESTOREID" });

  async run(ctx: McContext): Promise<void> {
    await runConfigRestore(ctx, this.args);
  }
}
