import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { clearBucketEncryption } from "../../storage/s3/bucket/bucket-encryption.js";
import { bucketTarget } from "../../storage/s3/target.js";

export class EncryptClearCommand extends BaseCommand {
  static override paths = [["encrypt", "clear"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "remove the default encryption of a bucket",
    examples: [
      ["Remove the default encryption of a bucket.", "$0 encrypt clear myalias/mybucket"],
      ["Remove it and print the result as JSON.", "$0 encrypt clear --json myalias/mybucket"],
    ],
  });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("encrypt clear needs one TARGET.");
    const target = bucketTarget(ctx, this.args[0], "encrypt clear");
    await clearBucketEncryption(target.client, target.bucket);
    ctx.output.result({ status: "success", bucket: target.url }, `Auto encryption configuration has been cleared successfully for ${target.url}`);
  }
}
