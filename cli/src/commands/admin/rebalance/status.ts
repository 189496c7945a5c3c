import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runRebalanceStatus } from "../../../minio-admin/pools-run.js";

/** `mc admin rebalance status` (upstream cmd/admin-rebalance-status.go). */
export class AdminRebalanceStatusCommand extends BaseCommand {
  static override paths = [["admin", "rebalance", "status"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "summarize an ongoing rebalance operation",
    examples: [
      ["Summarize ongoing rebalance on a MinIO deployment with alias myminio", "$0 admin rebalance status myminio"],
      ["The same as JSON", "$0 admin rebalance status myminio --json"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runRebalanceStatus(ctx, this.args);
  }
}
