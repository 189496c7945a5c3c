import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runDecomStart } from "../../../minio-admin/pools-run.js";

/** `mc admin decommission start` (upstream cmd/admin-decom-start.go). */
export class AdminDecommissionStartCommand extends BaseCommand {
  static override paths = [["admin", "decommission", "start"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "start decommissioning a pool",
    examples: [
      ["Start decommissioning a pool for removal", "$0 admin decommission start myminio/ http://server{5...8}/disk{1...4}"],
      ["Start decommissioning the pool of a single-node setup", "$0 admin decommission start myminio/ /mnt/disk{1...4}"],
    ],
  });
  args = Option.Rest({ name: "ALIAS POOL" });

  async run(ctx: McContext): Promise<void> {
    await runDecomStart(ctx, this.args);
  }
}
