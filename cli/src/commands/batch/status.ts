import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { describeBatchJob, type JobMetric } from "../../minio-admin/batch.js";
import { batchCapability } from "../../minio-admin/batch-template.js";
import { followJob, jobStatus, renderJobMetric } from "../../minio-admin/batch-status.js";

/**
 * `mc batch status ALIAS JOBID` (upstream cmd/batch-status.go): the job
 * must exist (describe-job), then MinIO's realtime metrics for it are
 * followed until it completes or fails: on a terminal a progress view redrawn
 * in place, else the final state; `--json` one record per update. A job that
 * already ended (XMinioAdminNoSuchJob) is looked up in the job history
 * (madmin v3 status-job).
 */
export class BatchStatusCommand extends BaseCommand {
  static override paths = [["batch", "status"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "summarize job events on MinIO server in real-time",
    examples: [
      ["Follow a job until it ends.", "$0 batch status myminio G3zKtRa7yTIRsTzjDUhA"],
      ["Follow it as JSON lines.", "$0 batch status --json myminio G3zKtRa7yTIRsTzjDUhA"],
    ],
  });
  args = Option.Rest({ name: "ALIAS JOBID" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 2) throw usageError("batch status needs TARGET and JOBID.");
    const target = adminTarget(ctx, this.args[0]);
    const id = this.args[1] ?? "";
    const fail = (err: unknown): never => {
      throw adminFailure("Unable to lookup job status", batchCapability, err);
    };
    let gone = false;
    await describeBatchJob(target.client, id).catch((err: unknown) => {
      if (isAppError(err) && err.details["code"] === "XMinioAdminNoSuchJob") gone = true;
      else fail(err);
    });
    const show = (m: JobMetric): void => ctx.output.result({ status: "success", metric: m }, renderJobMetric(m));
    if (gone) {
      if (!ctx.output.json) ctx.output.line("Unable to find an active job, attempting to list from previously run jobs..");
      show(await jobStatus(target.client, id).catch(fail));
      return;
    }
    const tty = (ctx.output.stdout as { isTTY?: boolean }).isTTY === true && !ctx.output.json;
    let shown = 0;
    let last: JobMetric | undefined;
    await followJob(target.client, id, (m) => {
      last = m;
      if (ctx.output.json) return show(m);
      if (!tty) return;
      // Redraw the view in place: up over the lines drawn last time, clear to the end.
      const text = renderJobMetric(m);
      ctx.output.stdout.write(`${shown > 0 ? `\x1b[${shown}A\r\x1b[J` : ""}${text}\n`);
      shown = text.split("\n").length;
    }).catch(fail);
    if (!ctx.output.json && !tty && last !== undefined) ctx.output.line(renderJobMetric(last));
  }
}
