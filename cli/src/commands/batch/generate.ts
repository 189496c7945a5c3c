import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { jobTypes, replicateTemplate } from "../../minio-admin/batch-template.js";

/** `mc batch generate ALIAS JOBTYPE` (upstream cmd/batch-generate.go): the job template, written locally (madmin's GenerateBatchJob asks no server). */
export class BatchGenerateCommand extends BaseCommand {
  static override paths = [["batch", "generate"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "generate a new batch job definition",
    details: `JOBTYPE:\n${jobTypes.map((t) => `  - ${t}`).join("\n")}`,
    examples: [
      ["Write a template of a replication job.", "$0 batch generate myminio replicate > replicate-job.yaml"],
      ["Write a template, edit it and start the job.", "$0 batch generate myminio replicate > job.yaml && vi job.yaml && $0 batch start myminio job.yaml"],
    ],
  });
  args = Option.Rest({ name: "ALIAS JOBTYPE" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 2) throw usageError("batch generate needs TARGET and JOBTYPE.");
    adminTarget(ctx, this.args[0]);
    const type = this.args[1] ?? "";
    if (!(jobTypes as readonly string[]).includes(type)) throw mcError("Unable to generate a job template for the specified job type.", new Error(`unsupported batch type requested: ${type}`), "invalid_argument");
    // Printed as is even with --json, as upstream prints it (fmt.Println).
    ctx.output.line(replicateTemplate);
    return Promise.resolve();
  }
}
