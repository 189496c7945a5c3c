import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { replicateFailure } from "../../minio-admin/replicate-common.js";
import { configJson } from "../../minio-admin/replication-config.js";
import { getReplication } from "../../minio-admin/replication-s3.js";

/** `mc replicate export ALIAS/BUCKET` (upstream cmd/replicate-export.go): the configuration as JSON, which `import` reads back. */
export class ReplicateExportCommand extends BaseCommand {
  static override paths = [["replicate", "export"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "export server side replication configuration",
    examples: [
      ["Print a bucket's replication configuration.", "$0 replicate export myminio/mybucket"],
      ["Save it to a file.", "$0 replicate export myminio/mybucket > replication.json"],
    ],
  });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("replicate export needs one ALIAS/BUCKET.");
    const target = adminTarget(ctx, this.args[0], true);
    const cfg = await getReplication(target.client, target.path).catch((err: unknown) => {
      throw replicateFailure("Unable to get replication configuration", err);
    });
    const url = this.args[0] ?? "";
    ctx.output.result({ op: "export", status: "success", url, config: configJson(cfg) }, cfg.Rules.length === 0 ? `No replication configuration found for ${url}.` : JSON.stringify(configJson(cfg), null, 1));
  }
}
