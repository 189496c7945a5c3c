import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { putQuota, quotaCapability } from "../../minio-admin/quota.js";

/** `mc quota clear ALIAS/BUCKET` (upstream cmd/quota-clear.go): an empty quota, which the server reads as none. */
export class QuotaClearCommand extends BaseCommand {
  static override paths = [["quota", "clear"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "clear bucket quota",
    examples: [
      ["Remove a bucket's quota.", "$0 quota clear myminio/mybucket"],
      ["Remove it and print the result as JSON.", "$0 quota clear --json myminio/mybucket"],
    ],
  });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("quota clear needs one ALIAS/BUCKET.");
    const target = adminTarget(ctx, this.args[0], true);
    await putQuota(target.client, target.path, { quota: 0 }).catch((err: unknown) => {
      throw adminFailure("Unable to clear bucket quota config", quotaCapability, err);
    });
    ctx.output.result({ status: "success", bucket: target.path }, `Successfully cleared bucket quota configured on \`${target.path}\``);
  }
}
