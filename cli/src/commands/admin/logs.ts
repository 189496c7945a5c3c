import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { runLogs } from "../../minio-admin/logs-run.js";

/** `mc admin logs` (upstream cmd/admin-logs.go). */
export class AdminLogsCommand extends BaseCommand {
  static override paths = [["admin", "logs"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "show MinIO logs",
    details: "Follows the logs until Ctrl-C.",
    examples: [
      ["Show logs for a MinIO server with alias 'myminio'", "$0 admin logs myminio"],
      ["Show last 5 log entries for node 'node1' for a MinIO server with alias 'myminio'", "$0 admin logs --last 5 myminio node1"],
      ["Show application errors in logs for a MinIO server with alias 'myminio'", "$0 admin logs --type application myminio"],
    ],
  });
  last = Option.String("-l,--last", { description: "show last n log entries" });
  type = Option.String("-t,--type", "all", { description: "list error logs by type. Valid options are '[minio, application, all]'" });
  args = Option.Rest({ name: "ALIAS [NODENAME]" });

  async run(ctx: McContext): Promise<void> {
    await runLogs(ctx, this.args, { last: this.last, type: this.type });
  }
}
