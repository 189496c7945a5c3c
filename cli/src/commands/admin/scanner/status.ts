import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runScannerStatus } from "../../../minio-admin/scanner-run.js";

/** `mc admin scanner status` (upstream cmd/admin-scanner-status.go). */
export class AdminScannerStatusCommand extends BaseCommand {
  static override paths = [["admin", "scanner", "status"], ["admin", "scanner", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "summarize scanner events on MinIO server in real-time",
    examples: [
      ["Display current in-progress all scanner operations", "$0 admin scanner status myminio/"],
      ["Show three samples, five seconds apart, of two nodes", "$0 admin scanner status myminio/ -n 3 --interval 5 --nodes node1:9000,node2:9000"],
      ["Show when each erasure set last scanned the bucket 'photos'", "$0 admin scanner status myminio/ --bucket photos"],
      ["Replay samples saved earlier with --json", "$0 admin scanner status --in scanner.json"],
    ],
  });
  nodes = Option.String("--nodes", { description: "show only on matching servers, comma separate multiple" });
  n = Option.String("-n", "0", { description: "number of requests to run before exiting. 0 for endless" });
  interval = Option.String("--interval", "3", { description: "interval between requests in seconds" });
  maxPaths = Option.String("--max-paths", "-1", { description: "maximum number of active paths to show. -1 for unlimited" });
  inFile = Option.String("--in", { description: "read previously saved json from file and replay" });
  bucket = Option.String("--bucket", { description: "show scan stats about a given bucket" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runScannerStatus(ctx, this.args, { nodes: this.nodes, n: this.n, interval: this.interval, maxPaths: this.maxPaths, bucket: this.bucket, in: this.inFile });
  }
}
