import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runReplicateAdd } from "../../../minio-admin/site-replication-run.js";

/** `mc admin replicate add` (upstream cmd/admin-replicate-add.go). */
export class AdminReplicateAddCommand extends BaseCommand {
  static override paths = [["admin", "replicate", "add"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "add one or more sites for replication",
    examples: [
      ["Add a site for cluster-level replication", "$0 admin replicate add minio1 minio2"],
      ["Add a site for cluster-level replication with replication of ILM expiry rules", "$0 admin replicate add minio1 minio2 --replicate-ilm-expiry"],
    ],
  });
  replicateIlmExpiry = Option.Boolean("--replicate-ilm-expiry", false, { description: "replicate ILM expiry rules" });
  args = Option.Rest({ name: "ALIAS1 ALIAS2 [ALIAS3...]" });

  async run(ctx: McContext): Promise<void> {
    await runReplicateAdd(ctx, this.args, this.replicateIlmExpiry);
  }
}
