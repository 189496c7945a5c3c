import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runDecomCancel } from "../../../minio-admin/pools-run.js";

/** `mc admin decommission cancel` (upstream cmd/admin-decom-cancel.go). */
export class AdminDecommissionCancelCommand extends BaseCommand {
  static override paths = [["admin", "decommission", "cancel"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "cancel an ongoing decommissioning of a pool",
    examples: [
      ["Cancel an ongoing decommissioning of a pool", "$0 admin decommission cancel myminio/ http://server{5...8}/disk{1...4}"],
      ["List the pools being decommissioned, to pick one to cancel", "$0 admin decommission cancel myminio/"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [POOL]" });

  async run(ctx: McContext): Promise<void> {
    await runDecomCancel(ctx, this.args);
  }
}
