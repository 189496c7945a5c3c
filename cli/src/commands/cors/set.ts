import { readFile } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { parseCors, setBucketCors } from "../../storage/s3/bucket/cors.js";
import { bucketTarget } from "../../storage/s3/target.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { readStdinText } from "../../core/stdin.js";

/** Upstream reads at most what S3 takes for a CORS document (64 KiB); a little more covers JSON's quoting. */
const maxCorsBytes = 128 * 1024;

export class CorsSetCommand extends BaseCommand {
  static override paths = [["cors", "set"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "set a bucket CORS configuration",
    details: "CORSFILE is S3's CORS XML, or JSON (the form `cors get --json` prints, or aws s3api's); `-` reads it from standard input.",
    examples: [
      ["Set the CORS configuration from an XML file.", "$0 cors set myalias/mybucket ./cors.xml"],
      ["Set it from JSON on standard input.", "cat cors.json | $0 cors set myalias/mybucket -"],
      ["Copy the CORS configuration of one bucket to another.", "$0 cors get --json myalias/mybucket | $0 cors set myalias/otherbucket -"],
    ],
  });
  args = Option.Rest({ name: "ALIAS/BUCKET CORSFILE" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 2) throw usageError("cors set needs ALIAS/BUCKET and CORSFILE.");
    const [arg, file = ""] = this.args;
    const t = bucketTarget(ctx, arg, "cors set");
    let text: string;
    try {
      text = file === "-" ? await readStdinText() : await readFile(file, "utf8");
    } catch (err) {
      throw mcError(`Unable to read bucket CORS configuration file \`${file}\`.`, err, "invalid_argument");
    }
    if (Buffer.byteLength(text) > maxCorsBytes) throw mcError(`Bucket CORS configuration file \`${file}\` is larger than 128 KiB.`, undefined, "invalid_argument");
    const config = parseCors(text);
    try {
      await setBucketCors(t.client, t.bucket, config);
    } catch (err) {
      throw featureError(`set bucket CORS configuration for ${t.url}`, "bucket CORS configuration", err);
    }
    ctx.output.result({ status: "success" }, "Set bucket CORS config successfully.");
  }
}
