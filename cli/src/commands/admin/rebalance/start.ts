import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runRebalanceStart } from "../../../minio-admin/pools-run.js";

/** `mc admin rebalance start` (upstream cmd/admin-rebalance-start.go). */
export class AdminRebalanceStartCommand extends BaseCommand {
  static override paths = [["admin", "rebalance", "start"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "start rebalance operation",
    examples: [
      ["Start rebalance on a MinIO deployment with alias myminio", "$0 admin rebalance start myminio"],
      ["Start it, then follow it", "$0 admin rebalance start myminio && $0 admin rebalance status myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runRebalanceStart(ctx, this.args);
  }
}
