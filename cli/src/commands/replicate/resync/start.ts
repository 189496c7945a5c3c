import { randomUUID } from "node:crypto";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { usageError } from "../../../core/errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { replicateFailure } from "../../../minio-admin/replicate-common.js";
import { resetReplication } from "../../../minio-admin/replication-s3.js";
import { parseDuration } from "../../../util/humanize.js";

/**
 * `mc replicate resync start ALIAS/BUCKET --remote-bucket ARN [--older-than 60d]`
 * (upstream cmd/replicate-resync-start.go): MinIO's `?replication-reset`.
 * `--older-than` travels as a Go duration (`1440h0m0s`); upstream converts
 * the days into that many nanoseconds by mistake (`60ns`), which we do not copy.
 */
export class ReplicateResyncStartCommand extends BaseCommand {
  static override paths = [["replicate", "resync", "start"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "start replicating back all previously replicated objects",
    examples: [
      ["Replicate every object again to a remote target.", "$0 replicate resync start myminio/mybucket --remote-bucket \"arn:minio:replication::8d2b4a:mybucket\""],
      ["Replicate again only objects older than 60 days.", "$0 replicate resync start --older-than 60d myminio/mybucket --remote-bucket \"arn:minio:replication::8d2b4a:mybucket\""],
    ],
  });
  olderThan = Option.String("--older-than", { description: "replicate back objects older than value in duration string (e.g. 7d10h31s)" });
  remoteBucket = Option.String("--remote-bucket", { description: "remote bucket ARN" });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("replicate resync start needs one ALIAS/BUCKET.");
    if (!this.remoteBucket) throw usageError("--remote-bucket flag needs to be specified.");
    let olderThan = 0;
    if (this.olderThan !== undefined && this.olderThan !== "") {
      const ms = parseDuration(this.olderThan);
      if (ms === undefined || !/[dwy]/.test(this.olderThan)) throw usageError(`Unable to parse older-than=\`${this.olderThan}\`.`);
      if (ms === 0) throw usageError("older-than cannot be set to zero");
      olderThan = ms;
    }
    const target = adminTarget(ctx, this.args[0], true);
    const info = await resetReplication(target.client, target.path, olderThan, this.remoteBucket, randomUUID()).catch((err: unknown) => {
      throw replicateFailure("Unable to reset replication", err);
    });
    const url = this.args[0] ?? "";
    const targets = info.target ?? [];
    ctx.output.result(
      { op: "start", url, resyncInfo: targets.length > 0 ? { target: targets } : {}, status: "success", targetArn: "" },
      targets.length === 1 ? `Replication reset started for ${url} with ID ${targets[0]?.resetid ?? ""}` : `Replication reset started for ${url}`,
    );
  }
}
