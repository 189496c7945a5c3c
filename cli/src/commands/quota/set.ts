import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { getQuota, putQuota, quotaCapability } from "../../minio-admin/quota.js";
import { iBytes } from "../../util/humanize.js";
import { parseSize } from "../../util/humanize.js";

/** `mc quota set ALIAS/BUCKET --size QUOTA` (upstream cmd/quota-set.go): read the quota, change it, write it back. */
export class QuotaSetCommand extends BaseCommand {
  static override paths = [["quota", "set"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "set bucket quota",
    details: "QUOTA accepts human-readable case-insensitive number suffixes such as \"k\", \"m\", \"g\" and \"t\" referring to the metric units KB, MB, GB and TB respectively. Adding an \"i\" to these prefixes uses the IEC units, so that \"gi\" refers to \"gibibyte\" or \"GiB\". A \"b\" at the end is also accepted. Without suffixes the unit is bytes.",
    examples: [
      ["Limit a bucket to 10 GiB.", "$0 quota set myminio/mybucket --size 10GiB"],
      ["Limit it to 1 TiB.", "$0 quota set myminio/datalake --size 1TiB"],
    ],
  });
  size = Option.String("--size", { description: "set a hard quota, disallowing writes after quota is reached" });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("quota set needs one ALIAS/BUCKET.");
    if (this.size === undefined) throw usageError("--size flag needs to be set.");
    const size = parseSize(this.size);
    if (size === undefined) throw usageError(`Unable to parse quota \`${this.size}\`.`);
    const target = adminTarget(ctx, this.args[0], true);
    const current = await getQuota(target.client, target.path, true).catch((err: unknown) => {
      throw adminFailure("Unable to get bucket quota", quotaCapability, err);
    });
    await putQuota(target.client, target.path, { ...current, quota: size, quotatype: "hard" }).catch((err: unknown) => {
      throw adminFailure("Unable to set bucket quota", quotaCapability, err);
    });
    ctx.output.result({ status: "success", bucket: target.path, quota: size, type: "hard" }, `Successfully set quota of ${iBytes(size)} on \`${target.path}\``);
  }
}
