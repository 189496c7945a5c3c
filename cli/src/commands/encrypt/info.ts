import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { getBucketEncryption } from "../../storage/s3/bucket/bucket-encryption.js";
import { bucketTarget } from "../../storage/s3/target.js";

export class EncryptInfoCommand extends BaseCommand {
  static override paths = [["encrypt", "info"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "show the default encryption of a bucket",
    examples: [
      ["Show the default encryption of a bucket.", "$0 encrypt info myalias/mybucket"],
      ["Show it as JSON.", "$0 encrypt info --json myalias/mybucket"],
    ],
  });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("encrypt info needs one TARGET.");
    const target = bucketTarget(ctx, this.args[0], "encrypt info");
    const enc = await getBucketEncryption(target.client, target.bucket);
    const algorithm = enc.algorithm === "aws:kms" ? "SSE-KMS" : enc.algorithm === "AES256" ? "SSE-S3" : "";
    const text =
      algorithm === "" ? `Auto encryption is not enabled for ${target.url}` : `Auto encryption 'sse' is enabled with algorithm ${algorithm}${enc.keyId ? ` and key ${enc.keyId}` : ""} for ${target.url}`;
    ctx.output.result({ status: "success", bucket: target.url, algorithm: enc.algorithm, keyId: enc.keyId }, text);
  }
}
