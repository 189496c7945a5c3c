import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { getQuota, quotaCapability } from "../../minio-admin/quota.js";
import { iBytes } from "../../util/humanize.js";

/** `mc quota info ALIAS/BUCKET` (upstream cmd/quota-info.go). */
export class QuotaInfoCommand extends BaseCommand {
  static override paths = [["quota", "info"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "show bucket quota",
    examples: [
      ["Show a bucket's quota.", "$0 quota info myminio/mybucket"],
      ["Show it as JSON.", "$0 quota info --json myminio/mybucket"],
    ],
  });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("quota info needs one ALIAS/BUCKET.");
    const target = adminTarget(ctx, this.args[0], true);
    const q = await getQuota(target.client, target.path, false).catch((err: unknown) => {
      throw adminFailure("Unable to get bucket quota", quotaCapability, err);
    });
    const quota = typeof q["quota"] === "number" ? q["quota"] : 0;
    const type = typeof q["quotatype"] === "string" ? q["quotatype"] : "";
    ctx.output.result(
      { status: "success", bucket: target.path, ...(quota > 0 ? { quota } : {}), ...(type !== "" ? { type } : {}) },
      `Bucket \`${target.path}\` has ${type} quota of ${iBytes(quota)}`,
    );
  }
}
