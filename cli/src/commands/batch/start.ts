import { readFile } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { startBatchJob } from "../../minio-admin/batch.js";
import { batchCapability } from "../../minio-admin/batch-template.js";
import { goTimeString } from "../../minio-admin/go-time.js";

/**
 * `mc batch start ALIAS JOBFILE` (upstream cmd/batch-start.go): the YAML
 * goes to the server as written; a file that is not text (a NUL byte, bytes
 * that are not UTF-8: a damaged or wrong file) is refused before sending.
 */
export class BatchStartCommand extends BaseCommand {
  static override paths = [["batch", "start"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "start a new batch job",
    examples: [
      ["Start a job from its YAML file.", "$0 batch start myminio ./replicate-job.yaml"],
      ["Start it and keep its ID from the JSON answer.", "$0 batch start --json myminio ./expire-job.yaml | jq -r .id"],
    ],
  });
  args = Option.Rest({ name: "ALIAS JOBFILE" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 2) throw usageError("batch start needs TARGET and JOBFILE.");
    const target = adminTarget(ctx, this.args[0]);
    const file = this.args[1] ?? "";
    let yaml: Buffer;
    try {
      yaml = await readFile(file);
    } catch (err) {
      throw mcError(`Unable to read ${file}.`, err, "invalid_argument");
    }
    if (yaml.includes(0) || !isUtf8(yaml)) throw mcError(`Unable to read ${file}.`, new Error("not a YAML text file"), "invalid_argument");
    const res = await startBatchJob(target.client, yaml).catch((err: unknown) => {
      throw adminFailure("Unable to start job", batchCapability, err);
    });
    ctx.output.result({ status: "success", result: res }, `Successfully started '${res.type}' job \`${res.id}\` on '${goTimeString(res.started)}'`);
  }
}

function isUtf8(b: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}
