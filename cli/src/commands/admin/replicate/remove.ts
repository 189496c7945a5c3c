import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runReplicateRemove } from "../../../minio-admin/site-replication-run.js";

/** `mc admin replicate remove` (upstream cmd/admin-replicate-remove.go). */
export class AdminReplicateRemoveCommand extends BaseCommand {
  static override paths = [["admin", "replicate", "remove"], ["admin", "replicate", "rm"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "remove one or more sites from site replication",
    examples: [
      ["Remove site replication for all sites", "$0 admin replicate remove minio2 --all --force"],
      ["Remove site replication for site with site names alpha, baker from active cluster minio2", "$0 admin replicate remove minio2 alpha baker --force"],
    ],
  });
  all = Option.Boolean("--all", false, { description: "remove site replication from all participating sites" });
  force = Option.Boolean("--force", false, { description: "force removal of site(s) from site replication configuration" });
  args = Option.Rest({ name: "ALIAS [SITE...]" });

  async run(ctx: McContext): Promise<void> {
    await runReplicateRemove(ctx, this.args, this.all, this.force);
  }
}
