import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runConfigHistory } from "../../../minio-admin/config-run.js";

/** `mc admin config history` (upstream cmd/admin-config-history.go). */
export class AdminConfigHistoryCommand extends BaseCommand {
  static override paths = [["admin", "config", "history"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "show all historic configuration changes",
    examples: [
      ["List all history entries sorted by time", "$0 admin config history play/"],
      ["List the last 3 entries", "$0 admin config history play/ --count 3"],
      ["Clear all history", "$0 admin config history play/ --clear"],
    ],
  });
  count = Option.String("-n,--count", "10", { description: "list only last 'n' entries" });
  clear = Option.Boolean("-c,--clear", false, { description: "clear all history" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runConfigHistory(ctx, this.args, this.count, this.clear);
  }
}
