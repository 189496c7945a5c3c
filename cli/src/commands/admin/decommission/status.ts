import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runDecomStatus } from "../../../minio-admin/pools-run.js";

/** `mc admin decommission status` (upstream cmd/admin-decom-status.go). */
export class AdminDecommissionStatusCommand extends BaseCommand {
  static override paths = [["admin", "decommission", "status"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "show current decommissioning status",
    examples: [
      ["Show current decommissioning status", "$0 admin decommission status myminio/ http://server{5...8}/disk{1...4}"],
      ["List all current decommissioning status of all pools", "$0 admin decommission status myminio/"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [POOL]" });

  async run(ctx: McContext): Promise<number> {
    return await runDecomStatus(ctx, this.args);
  }
}
