import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { listBatchJobs } from "../../minio-admin/batch.js";
import { batchCapability } from "../../minio-admin/batch-template.js";
import { humanizeTime } from "../../minio-admin/go-time.js";

/**
 * `mc batch list ALIAS [--type T]` (upstream cmd/batch-list.go, before it
 * asked each job's status through madmin v3's status-job): tablewriter's
 * borderless table, each cell padded to its column and followed by a tab.
 */
export class BatchListCommand extends BaseCommand {
  static override paths = [["batch", "list"], ["batch", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list all current batch jobs",
    examples: [
      ["List the batch jobs.", "$0 batch list myminio"],
      ["List only the replication jobs.", "$0 batch list --type replicate myminio"],
    ],
  });
  type = Option.String("--type", { description: "list all current batch jobs via job type" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("batch list needs a TARGET.");
    const target = adminTarget(ctx, this.args[0]);
    const jobs = await listBatchJobs(target.client, this.type ?? "").catch((err: unknown) => {
      throw adminFailure("Unable to list jobs", batchCapability, err);
    });
    if (ctx.output.json) return ctx.output.printJson({ status: "success", jobs });
    if (jobs.length === 0) return ctx.output.line("currently no jobs are running");
    const rows = [["ID", "TYPE", "USER", "STARTED"], ...jobs.map((j) => [j.id, j.type, j.user ?? "", humanizeTime(new Date(j.started))])];
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
    ctx.output.line(rows.map((r) => `${r.map((c, i) => `${c.padEnd(widths[i] ?? 0)}\t`).join("")}\n`).join(""));
  }
}
