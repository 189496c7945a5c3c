import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { describeBatchJob } from "../../minio-admin/batch.js";
import { batchCapability } from "../../minio-admin/batch-template.js";

/** `mc batch describe ALIAS JOBID` (upstream cmd/batch-describe.go): the job's YAML as the server keeps it (printed as is, --json too). */
export class BatchDescribeCommand extends BaseCommand {
  static override paths = [["batch", "describe"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "describe job definition for a job",
    examples: [
      ["Print a job's definition.", "$0 batch describe myminio G3zKtRa7yTIRsTzjDUhA"],
      ["Save it, to start the job again later.", "$0 batch describe myminio G3zKtRa7yTIRsTzjDUhA > job.yaml"],
    ],
  });
  args = Option.Rest({ name: "ALIAS JOBID" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 2) throw usageError("batch describe needs TARGET and JOBID.");
    const target = adminTarget(ctx, this.args[0]);
    const yaml = await describeBatchJob(target.client, this.args[1] ?? "").catch((err: unknown) => {
      throw adminFailure("Unable to fetch the job definition", batchCapability, err);
    });
    ctx.output.line(yaml);
  }
}
