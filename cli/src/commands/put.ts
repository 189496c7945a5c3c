import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { usageError } from "../core/errors.js";
import { runCopyCommand } from "../helpers/copy-run.js";
import { uploadHeaders } from "../transfer/upload-attrs.js";
import { parseSize } from "../util/humanize.js";
import { withEncryption } from "../runtime/sse-context.js";
import { parseChecksum } from "../storage/s3/checksum.js";

export class PutCommand extends BaseCommand {
  static override paths = [["put"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "upload an object to a bucket",
    examples: [
      ["Upload a file into a bucket.", "$0 put ./big.iso myalias/images/"],
      ["Upload with 8 parts in parallel and 64 MiB parts.", "$0 put --parallel 8 --part-size 64MiB ./big.iso myalias/images/"],
      ["Upload only if no object of that name exists yet.", "$0 put --if-not-exists ./release.tar.gz myalias/releases/release-1.2.tar.gz"],
      ["Upload in one request, in a cheaper storage class.", "$0 put --disable-multipart --storage-class STANDARD_IA ./small.zip myalias/archive/"],
      ["Upload with a CRC64NVME checksum.", "$0 put --checksum CRC64NVME ./dataset.parquet myalias/ml-data/"],
    ],
  });
  parallel = Option.String("-P,--parallel", { description: "upload number of parts in parallel (default 4)" });
  partSize = Option.String("-s,--part-size", { description: "each part size (default 16MiB)" });
  ifNotExists = Option.Boolean("--if-not-exists", false, { description: "upload only if the object does not exist yet (If-None-Match: *)" });
  disableMultipart = Option.Boolean("--disable-multipart", false, { description: "disable multipart upload feature" });
  storageClass = Option.String("--storage-class,--sc", { description: "set storage class for new object" });
  checksum = Option.String("--checksum", { description: "add a checksum to uploaded objects: CRC32, CRC32C, SHA1, SHA256 or CRC64NVME" });
  encC = Option.Array("--enc-c", { description: "encrypt/decrypt objects using client provided keys (\"alias/prefix=KEY\")" });
  encKms = Option.Array("--enc-kms", { description: "encrypt objects using specific server-side keys (\"alias/prefix=KEYID\")" });
  encS3 = Option.Array("--enc-s3", { description: "encrypt objects using the server's own keys (\"alias/prefix\")" });
  targets = Option.Rest({ name: "SOURCE TARGET" });

  async run(ctx: McContext): Promise<number> {
    ctx = withEncryption(ctx, this.encC, this.encKms, this.encS3);
    if (this.targets.length !== 2) throw usageError("put needs SOURCE and TARGET.");
    const [source = "", target = ""] = this.targets;
    if (ctx.locate(target).kind !== "s3") throw usageError("put needs a remote TARGET (alias/bucket/...).");
    let { partSize, parallel } = ctx.upload;
    if (this.partSize !== undefined) {
      const parsed = parseSize(this.partSize);
      if (parsed === undefined || parsed < 5 * 1024 * 1024) throw usageError(`invalid --part-size \`${this.partSize}\` (minimum 5MiB).`);
      partSize = parsed;
    }
    if (this.parallel !== undefined) {
      parallel = Number(this.parallel);
      if (!Number.isInteger(parallel) || parallel < 1) throw usageError(`invalid --parallel \`${this.parallel}\`.`);
    }
    if (this.disableMultipart) partSize = 5 * 1024 ** 3;
    const checksum = parseChecksum(this.checksum);
    const upload = { partSize, parallel };
    return runCopyCommand(ctx.withUpload(upload), { sources: [source], target, recursive: false, filter: {}, headers: this.conditional(uploadHeaders({ storageClass: this.storageClass })), checksum });
  }

  /** --if-not-exists: S3's conditional write; the server refuses with 412 PreconditionFailed when the key exists. */
  private conditional(headers: Record<string, string> | undefined): Record<string, string> | undefined {
    return this.ifNotExists ? { ...headers, "If-None-Match": "*" } : headers;
  }
}
