import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runRebalanceStop } from "../../../minio-admin/pools-run.js";

/** `mc admin rebalance stop` (upstream cmd/admin-rebalance-stop.go). */
export class AdminRebalanceStopCommand extends BaseCommand {
  static override paths = [["admin", "rebalance", "stop"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "stop an ongoing rebalance operation",
    examples: [
      ["Stop an ongoing rebalance on a MinIO deployment with alias myminio", "$0 admin rebalance stop myminio"],
      ["Stop it and check that it stopped", "$0 admin rebalance stop myminio && $0 admin rebalance status myminio"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runRebalanceStop(ctx, this.args);
  }
}
