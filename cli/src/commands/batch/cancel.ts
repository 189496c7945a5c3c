import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { cancelBatchJob } from "../../minio-admin/batch.js";
import { batchCapability } from "../../minio-admin/batch-template.js";

/** `mc batch cancel ALIAS JOBID` (upstream cmd/batch-cancel.go; madmin v3 CancelBatchJob: DELETE cancel-job?id=). */
export class BatchCancelCommand extends BaseCommand {
  static override paths = [["batch", "cancel"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "cancel ongoing batch job",
    examples: [
      ["Cancel a running job.", "$0 batch cancel myminio G3zKtRa7yTIRsTzjDUhA"],
      ["Cancel it and print the result as JSON.", "$0 batch cancel --json myminio G3zKtRa7yTIRsTzjDUhA"],
    ],
  });
  args = Option.Rest({ name: "ALIAS JOBID" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 2) throw usageError("batch cancel needs TARGET and JOBID.");
    const target = adminTarget(ctx, this.args[0]);
    const id = this.args[1] ?? "";
    await cancelBatchJob(target.client, id).catch((err: unknown) => {
      throw adminFailure("Unable to cancel job", batchCapability, err);
    });
    ctx.output.result({ status: "success", "job-id": id }, `Successfully canceled batch job \`${id}\``);
  }
}
