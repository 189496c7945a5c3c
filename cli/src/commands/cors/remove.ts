import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { removeBucketCors } from "../../storage/s3/bucket/cors.js";
import { bucketTarget } from "../../storage/s3/target.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";

export class CorsRemoveCommand extends BaseCommand {
  static override paths = [["cors", "remove"], ["cors", "rm"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "remove a bucket CORS configuration",
    examples: [
      ["Remove the CORS configuration of a bucket.", "$0 cors remove myalias/mybucket"],
      ["The same, with the short name.", "$0 cors rm myalias/mybucket"],
    ],
  });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("cors remove needs one ALIAS/BUCKET.");
    const t = bucketTarget(ctx, this.args[0], "cors remove");
    try {
      await removeBucketCors(t.client, t.bucket);
    } catch (err) {
      throw featureError(`remove bucket CORS configuration for ${t.url}`, "bucket CORS configuration", err);
    }
    ctx.output.result({ status: "success" }, "Removed bucket CORS config successfully.");
  }
}
