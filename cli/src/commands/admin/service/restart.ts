import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runServiceAction } from "../../../minio-admin/service.js";

/** `mc admin service restart` (upstream cmd/admin-service-restart.go). */
export class AdminServiceRestartCommand extends BaseCommand {
  static override paths = [["admin", "service", "restart"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "restart all MinIO servers",
    examples: [
      ["Restart MinIO server represented by its alias 'play'", "$0 admin service restart play/"],
      ["Restart all servers of a distributed deployment, and follow them as they come back", "$0 admin service restart mydist/"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runServiceAction(ctx, "restart", this.args);
  }
}
