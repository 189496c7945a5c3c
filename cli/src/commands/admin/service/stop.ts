import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runServiceAction } from "../../../minio-admin/service.js";

/** `mc admin service stop` (upstream cmd/admin-service-stop.go). */
export class AdminServiceStopCommand extends BaseCommand {
  static override paths = [["admin", "service", "stop"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "stop all MinIO servers",
    examples: [
      ["Stop MinIO server represented by its alias 'play'", "$0 admin service stop play/"],
      ["Stop all servers of a distributed deployment", "$0 admin service stop mydist/"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runServiceAction(ctx, "stop", this.args);
  }
}
