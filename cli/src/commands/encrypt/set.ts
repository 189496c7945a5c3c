import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { setBucketEncryption } from "../../storage/s3/bucket/bucket-encryption.js";
import { bucketTarget } from "../../storage/s3/target.js";

export class EncryptSetCommand extends BaseCommand {
  static override paths = [["encrypt", "set"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "set the default encryption of a bucket",
    examples: [
      ["Encrypt new objects of a bucket with the server's keys (SSE-S3).", "$0 encrypt set sse-s3 myalias/mybucket"],
      ["Encrypt new objects of a bucket with a KMS key (SSE-KMS).", "$0 encrypt set sse-kms finance-key myalias/finance"],
    ],
  });
  args = Option.Rest({ name: "sse-s3|sse-kms [KEY] ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    const [kind, ...rest] = this.args;
    const mode = kind?.toLowerCase();
    if (mode !== "sse-s3" && mode !== "sse-kms") throw usageError("encrypt set needs sse-s3 or sse-kms first.");
    if (mode === "sse-s3" && rest.length !== 1) throw usageError("encrypt set sse-s3 needs one TARGET.");
    if (mode === "sse-kms" && rest.length !== 2) throw usageError("encrypt set sse-kms needs KEY and TARGET.");
    const keyId = mode === "sse-kms" ? (rest[0] ?? "") : "";
    if (mode === "sse-kms" && keyId.trim() === "") throw usageError("encrypt set sse-kms needs a non-empty KEY.");
    const target = bucketTarget(ctx, rest.at(-1), "encrypt set");
    await setBucketEncryption(target.client, target.bucket, mode === "sse-s3" ? "AES256" : "aws:kms", keyId);
    ctx.output.result({ status: "success", bucket: target.url, encryption: mode, ...(keyId ? { keyId } : {}) }, `Auto encryption configuration has been set successfully for ${target.url}`);
  }
}
