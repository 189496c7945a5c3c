import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { corsToXml, getBucketCors } from "../../storage/s3/bucket/cors.js";
import { bucketTarget } from "../../storage/s3/target.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";

export class CorsGetCommand extends BaseCommand {
  static override paths = [["cors", "get"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "get a bucket CORS configuration",
    examples: [
      ["Print the CORS configuration of a bucket as XML.", "$0 cors get myalias/mybucket"],
      ["Save it as JSON, which cors set takes back.", "$0 cors get --json myalias/mybucket > cors.json"],
    ],
  });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("cors get needs one ALIAS/BUCKET.");
    const t = bucketTarget(ctx, this.args[0], "cors get");
    let config;
    try {
      config = await getBucketCors(t.client, t.bucket);
    } catch (err) {
      throw featureError(`get bucket CORS configuration for ${t.url}`, "bucket CORS configuration", err);
    }
    if (!config) ctx.output.result({ status: "not found" }, "No bucket CORS configuration found.");
    else ctx.output.result({ status: "success", cors: config }, corsToXml(config));
  }
}
